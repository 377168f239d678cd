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
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-request-id', request.id);
  });
}

export default fp(headers, { name: 'headers' });
