/** What several handlers read from a request the same way. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { isJsonObject, type JsonBytes, type JsonText } from '../domain/json.js';
import { JSON_TYPE } from '../domain/serialize.js';
import type { Caller } from '../services/assets.js';

/** The key's holder, and the owner token from the `acc_token` query, the `X-Access-Token` header or `access.token`. */
export function callerOf(request: FastifyRequest): Caller {
  const query = request.query as { acc_token?: string };
  const header = request.headers['x-access-token'];
  const body = request.body;
  const fromBody = isJsonObject(body) && isJsonObject(body.access) && typeof body.access.token === 'string' ? body.access.token : undefined;
  return { principal: request.principal, token: query.acc_token ?? (typeof header === 'string' ? header : undefined) ?? fromBody };
}

/** Sends JSON text as it is: no serialiser runs (the options plugin still indents or wraps it when asked). */
export function sendJsonText<T>(reply: FastifyReply, text: JsonText<T> | JsonBytes<T>): FastifyReply {
  return reply.type(JSON_TYPE).send(text);
}

/**
 * Tags the reply with the version of what it serves and answers 304 when the client holds that version
 * (`If-None-Match`, weak comparison). The tag is weak: `opt_pretty` and `opt_jsonp` change the bytes, not the asset.
 * True when the 304 was sent.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, version: number): boolean {
  const etag = `W/"${version}"`;
  reply.header('etag', etag);
  if (!fresh(request.headers, { etag })) return false;
  reply.code(304).send();
  return true;
}
