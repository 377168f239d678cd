/**
 * Draining (decisions.md §13): from the moment the app starts closing (its preClose hooks, before the listening
 * socket closes) no connection is kept alive, and a request that arrives after it is turned away.
 *
 * - A response not started yet goes out with `Connection: close`, and Node closes its connection once it is sent.
 * - A response already started with `Connection: keep-alive` (its headers left before the signal) closes its
 *   connection when it is finished: otherwise that connection would be idle after the one pass of
 *   `closeIdleConnections` that `server.close()` makes, and the shutdown would wait for it until CLOSE_GRACE_DELAY.
 * - A request whose headers were read after the signal gets 503 `url` / `server` / `Shutting down` with
 *   `Retry-After` (a balancer sends the repeat to another node), before any other check: `GET /health` too, so
 *   that a balancer's probe on an open connection sees the node leave at once.
 *
 * Fastify's own `return503OnClosing` answers with a body of its own, without the common headers; it is off.
 */
import fp from 'fastify-plugin';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { sendError } from './errors.js';

/** Seconds a client waits before repeating: by then the balancer has seen the node go. */
const RETRY_AFTER_S = 1;

const shuttingDown = (): ApiError =>
  new ApiError(503, [{ location: 'url', name: 'server', description: 'Shutting down' }], { 'Retry-After': String(RETRY_AFTER_S) });

async function draining(app: FastifyInstance): Promise<void> {
  let draining = false;
  /** Responses under way: those started before the drain must close their connections when they finish. */
  const open = new Set<ServerResponse>();

  // Once a response has finished, its connection is idle: closed on the next turn (after Node detaches it).
  const closeIdleSoon = (): void => void setImmediate(() => app.server.closeIdleConnections());
  const closeWhenFinished = (response: ServerResponse): void => {
    if (!response.headersSent) response.shouldKeepAlive = false;
    else response.once('finish', closeIdleSoon);
  };

  app.server.on('request', (_request, response: ServerResponse) => {
    if (draining) {
      closeWhenFinished(response);
      return;
    }
    open.add(response);
    response.once('close', () => open.delete(response));
  });

  app.addHook('preClose', (done) => {
    draining = true;
    for (const response of open) closeWhenFinished(response);
    open.clear();
    done();
  });

  app.addHook('onRequest', (_request, reply, done) => {
    if (!draining) return done();
    void sendError(reply, shuttingDown());
  });
}

export default fp(draining, { name: 'draining', dependencies: ['errors', 'headers'] });
