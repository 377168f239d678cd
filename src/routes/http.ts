/** What several handlers read from a request the same way. */
import type { FastifyRequest } from 'fastify';
import { isJsonObject } from '../domain/json.js';
import type { Caller } from '../services/assets.js';

/** The origin the request came in by (`http://127.0.0.1:6543`): absolute URLs in answers point there. */
export function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The key's holder, and the owner token from the `acc_token` query, the `X-Access-Token` header or `access.token`. */
export function callerOf(request: FastifyRequest): Caller {
  const query = request.query as { acc_token?: string };
  const header = request.headers['x-access-token'];
  const body = request.body;
  const fromBody = isJsonObject(body) && isJsonObject(body.access) && typeof body.access.token === 'string' ? body.access.token : undefined;
  return { principal: request.principal, token: query.acc_token ?? (typeof header === 'string' ? header : undefined) ?? fromBody };
}
