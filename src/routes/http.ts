import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { isJsonObject, type JsonBytes, type JsonText } from '../domain/json.js';
import { JSON_TYPE } from '../domain/serialize.js';
import type { Caller } from '../services/assets.js';

/** The owner token from the `acc_token` query, the `X-Access-Token` header or the body's `access.token`. */
export function callerOf(request: FastifyRequest): Caller {
  const query = request.query as { acc_token?: string };
  const header = request.headers['x-access-token'];
  const body = request.body;
  const fromBody =
    isJsonObject(body) && isJsonObject(body.access) && typeof body.access.token === 'string'
      ? body.access.token
      : undefined;
  return {
    principal: request.principal,
    token: query.acc_token ?? (typeof header === 'string' ? header : undefined) ?? fromBody,
  };
}

/** No serialiser runs; the options plugin still indents or wraps it when asked. */
export function sendJsonText<T>(reply: FastifyReply, text: JsonText<T> | JsonBytes<T>): FastifyReply {
  return reply.type(JSON_TYPE).send(text);
}

/** True when a 304 was sent. The tag is weak: `opt_pretty` and `opt_jsonp` change the bytes, not the asset. */
export function notModified(request: FastifyRequest, reply: FastifyReply, version: number): boolean {
  const etag = `W/"${version}"`;
  reply.header('etag', etag);
  if (!fresh(request.headers, { etag })) return false;
  reply.code(304).send();
  return true;
}

/**
 * HEAD after the checks GET makes (docs/decisions/0057-head-without-a-body.md): GET's status and headers, no body
 * built. An empty stream, as Fastify's HEAD routes would give `Content-Length: 0` for no body at all.
 */
export function answerHead(reply: FastifyReply): FastifyReply {
  return reply.type(JSON_TYPE).send(Readable.from([]));
}
