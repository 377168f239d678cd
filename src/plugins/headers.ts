/** Headers every response carries: `X-Content-Type-Options: nosniff` and the request's `X-Request-ID`. */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** A client's own request id is kept when it is short and printable; otherwise a fresh one is made. */
const CLIENT_ID = /^[\w.:@/+=-]{1,200}$/;

export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_ID.test(given) ? given : `req-${randomUUID()}`;
}

async function headers(app: FastifyInstance): Promise<void> {
  // Callback-style hooks on every request (here and in the other plugins): no promise and no microtask each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-request-id', request.id);
    done();
  });
}

export default fp(headers, { name: 'headers' });
