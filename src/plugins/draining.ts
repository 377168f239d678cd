/**
 * Draining (docs/decisions/0038-graceful-shutdown.md): from preClose on, no connection is kept alive and a new
 * request gets 503, `GET /health` too. Fastify's `return503OnClosing` lacks the envelope and the common headers.
 */
import fp from 'fastify-plugin';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { sendError } from './errors.js';

/** By then the balancer has seen the node go. */
const RETRY_AFTER_S = 1;

const shuttingDown = (): ApiError =>
  new ApiError(503, [{ location: 'url', name: 'server', description: 'Shutting down' }], {
    'Retry-After': String(RETRY_AFTER_S),
  });

async function draining(app: FastifyInstance): Promise<void> {
  let draining = false;
  const open = new Set<ServerResponse>();

  // Else a response started with keep-alive would leave its connection idle after `server.close()`'s one pass of
  // `closeIdleConnections`, until CLOSE_GRACE_DELAY. On the next turn: after Node detaches it.
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
