import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/**
 * A client's own id is kept only in a shape that is safe in logs, headers and URLs; any other gets a new one, and
 * the answer carries the id the log does (docs/decisions/0062-smaller-rules-of-round-two.md).
 */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,64}$/;

const ids = new WeakMap<IncomingMessage, string>();

/** Fastify's genReqId: also remembered for the answers written outside Fastify (a 408 on the raw response). */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_ID.test(given) ? given : newRequestId();
  ids.set(request, id);
  return id;
}

export const newRequestId = (): string => `req-${randomUUID()}`;

/** The id a request was logged under, once Fastify has taken it in. */
export const requestIdOf = (request: IncomingMessage): string | undefined => ids.get(request);

async function headers(app: FastifyInstance): Promise<void> {
  // Callback-style hooks on every request (here and in the other plugins): no promise and no microtask each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-request-id', request.id);
    done();
  });
}

export default fp(headers, { name: 'headers' });
