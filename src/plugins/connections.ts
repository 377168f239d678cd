/**
 * What one connection may hold of the node (decisions.md §15), on the raw HTTP server (Fastify's `inject` has no
 * connections):
 *
 * - at most `maxPerClient` open connections per TCP peer address; one beyond is closed at once, unanswered;
 * - a request whose body pauses longer than `requestTimeout` between two bytes is answered 408 (when nothing was
 *   answered yet) and its connection closed; a body that keeps arriving is never cut;
 * - a request answered before its body arrived (401, 404, 412 …) keeps its connection only while the rest of the
 *   body keeps arriving, with the same bound.
 *
 * The wait for a request's headers, and a connection that sends nothing, are bounded by Node's own
 * `headersTimeout` (set in app.ts, answered by `clientErrorHandler`). Node's `requestTimeout` is not used: it
 * bounds the whole request, so it would cut a slow upload that never pauses.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { envelope } from '../domain/errors.js';
import { closingErrorHeaders, REQUEST_TIMEOUT_ENTRY } from './errors.js';

export interface ConnectionLimits {
  /** REQUEST_TIMEOUT, milliseconds. */
  requestTimeout: number;
  /** KEEP_ALIVE_TIMEOUT, milliseconds. */
  keepAliveTimeout: number;
  /** MAX_CONNECTIONS_PER_CLIENT. */
  maxPerClient: number;
}

const TIMEOUT_BODY = JSON.stringify(envelope([REQUEST_TIMEOUT_ENTRY]));

/** Counts each peer's open connections and closes the ones beyond the cap. */
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

/** Whether the request has a body to wait for (a length above 0, or chunks). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Bounds the pauses of a request's body with the socket's inactivity timer, which runs only while a body is owed:
 * it is stopped once the body has all arrived, so the answer (a download, a change stream) is never bounded by it.
 * The server's `timeout` listener replaces Node's (which destroys the socket): it answers a body that paused too
 * long, and closes idle kept-alive connections as Node would.
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
    response.writeHead(408, closingErrorHeaders(TIMEOUT_BODY));
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
