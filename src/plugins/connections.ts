/**
 * Bounds on a connection (docs/decisions/0042-connection-bounds.md), on the raw server. A body's pauses are bounded,
 * not the whole request: that would cut a slow upload. The headers are bounded by Node's `headersTimeout` (app.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { envelope } from '../domain/errors.js';
import { closingErrorHeaders, REQUEST_TIMEOUT_ENTRY } from './errors.js';
import { requestIdOf } from './headers.js';

interface ConnectionLimits {
  requestTimeout: number;
  keepAliveTimeout: number;
  maxPerClient: number;
}

const TIMEOUT_BODY = JSON.stringify(envelope([REQUEST_TIMEOUT_ENTRY]));

/** One beyond the cap is closed at once, unanswered. */
function capPerClient(maxPerClient: number): (socket: Socket) => void {
  const open = new Map<string, number>();
  return (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return void socket.destroy();
    const count = open.get(address) ?? 0;
    if (count >= maxPerClient) return void socket.destroy();
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  };
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * The socket's inactivity timer runs only while a body is owed, so an answer (a download, a change stream) is never
 * bounded by it. This `timeout` listener replaces Node's, which would destroy the socket without a 408.
 */
function boundBodyPauses(server: Server, { requestTimeout, keepAliveTimeout }: ConnectionLimits): void {
  const owed = new WeakMap<Socket, Exchange>();

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return;
    const socket = request.socket;
    owed.set(socket, { request, response });
    socket.setTimeout(requestTimeout);
    // Answered early: Node now times the connection as an idle kept-alive one, but the rest of the body is owed.
    response.once('finish', () => {
      if (!request.complete) socket.setTimeout(requestTimeout);
    });
    request.once('end', () => {
      if (owed.get(socket)?.request !== request) return;
      owed.delete(socket);
      // An answer still to come is not bounded; one already sent leaves the connection idle, kept alive as any other.
      socket.setTimeout(response.writableFinished ? keepAliveTimeout : 0);
    });
  });

  server.on('timeout', (socket: Socket) => {
    const exchange = owed.get(socket);
    if (exchange === undefined) return void socket.destroy();
    const { request, response } = exchange;
    if (request.complete) {
      // The body arrived but was never read (nothing needed it): the answer under way is not bounded.
      owed.delete(socket);
      if (response.writableFinished) socket.destroy();
      else socket.setTimeout(0);
      return;
    }
    if (response.headersSent) return void socket.destroy();
    const id = requestIdOf(request);
    response.writeHead(408, {
      ...closingErrorHeaders(TIMEOUT_BODY),
      ...(id === undefined ? {} : { 'X-Request-ID': id }),
    });
    response.end(TIMEOUT_BODY);
    // A peer that never reads the answer does not keep the socket: it is freed at the latest a second later.
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}

async function connections(app: FastifyInstance, limits: ConnectionLimits): Promise<void> {
  app.server.on('connection', capPerClient(limits.maxPerClient));
  boundBodyPauses(app.server, limits);
}

export default fp(connections, { name: 'connections' });
