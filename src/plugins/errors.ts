/** Every failure, Fastify's and Node's own too, leaves as the envelope (docs/decisions/0013-one-error-envelope.md). */
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, envelope, type ErrorEntry } from '../domain/errors.js';
import { JSON_TYPE } from '../domain/serialize.js';
import { StoreBusyError, StoreRefusal } from '../store/types.js';
import { newRequestId } from './headers.js';
import { parameterError } from './operations.js';

/** The original's wording. */
function contentTypeEntry(types: readonly string[]): ErrorEntry {
  return {
    location: 'header',
    name: 'Content-Type',
    description: `Content-Type header should be one of [${types.map((type) => `'${type}'`).join(', ')}]`,
  };
}

const FRAMEWORK_ERRORS: Record<string, (error: FastifyError) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => contentTypeError(),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    ApiError.one(413, 'body', 'data', 'Request body is larger than the registry accepts'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    ApiError.one(400, 'header', 'Content-Length', 'Content-Length does not match the body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ApiError.one(422, 'body', 'data', 'No JSON object could be decoded'),
  FST_ERR_BAD_URL: () => ApiError.one(400, 'url', 'path', 'The URL is not valid'),
  FST_ERR_ASYNC_CONSTRAINT: () => ApiError.one(400, 'url', 'path', 'The URL is not valid'),
};

export const contentTypeError = (types: readonly string[] = ['application/json']): ApiError =>
  new ApiError(415, [contentTypeEntry(types)]);

/** A write refused whole (docs/decisions/0073-store-refusals-answered-503.md): 503, when to try again. */
function storeRefusal(error: StoreRefusal): ApiError {
  const [location, name] = error instanceof StoreBusyError ? (['body', 'data'] as const) : (['url', 'store'] as const);
  return new ApiError(503, [{ location, name, description: error.description }], {
    'Retry-After': String(error.retryAfterSeconds),
  });
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreRefusal) return storeRefusal(error);
  const candidate = error as Partial<FastifyError> & { errors?: ErrorEntry[]; headers?: Record<string, string> };
  if (Array.isArray(candidate.validation)) return parameterError(candidate.validationContext, candidate.validation);
  // Plugins (rate limit, cookie) throw plain objects that already carry the envelope's entries.
  if (Array.isArray(candidate.errors) && typeof candidate.statusCode === 'number') {
    return new ApiError(candidate.statusCode, candidate.errors, candidate.headers ?? {});
  }
  const mapped = candidate.code ? FRAMEWORK_ERRORS[candidate.code] : undefined;
  if (mapped) return mapped(candidate as FastifyError);
  const status = candidate.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return ApiError.one(status, 'body', 'data', candidate.message ?? 'Bad request');
  }
  return ApiError.one(500, 'url', 'server', 'Internal Server Error');
}

/** A finished string, so that no serializer, pretty option or JSONP can touch it. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.statusCode)
    .header('content-type', JSON_TYPE)
    .header('x-content-type-options', 'nosniff')
    .send(JSON.stringify(envelope(error.errors)));
}

/** Not the 404 handler, not a 405 stand-in. */
export function isOperation(request: FastifyRequest): boolean {
  return !request.is404 && request.routeOptions.config.methodNotAllowed !== true;
}

async function errors(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (error instanceof StoreRefusal) request.log.warn({ err: error }, 'write refused by the store');
    else if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, ApiError.one(404, 'url', 'path', `No such path: ${request.method} ${request.url.split('?')[0]}`)),
  );
}

export default fp(errors, { name: 'errors' });

/** For errors raised before any hook runs. */
export const frameworkErrors = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
  void sendError(reply, toApiError(error));
};

export const REQUEST_TIMEOUT_ENTRY: ErrorEntry = {
  location: 'header',
  name: 'request',
  description: 'Request timeout',
};

/** Any other unparsable request is a 400. */
const CLIENT_ERRORS: Record<string, [number, ErrorEntry]> = {
  HPE_HEADER_OVERFLOW: [431, { location: 'header', name: 'headers', description: 'The request headers are too large' }],
  ERR_HTTP_REQUEST_TIMEOUT: [408, REQUEST_TIMEOUT_ENTRY],
};
const NOT_HTTP: ErrorEntry = { location: 'header', name: 'request', description: 'The request is not valid HTTP/1.1' };

/** For an error written outside Fastify, after which the connection closes. */
export function closingErrorHeaders(body: string): Record<string, string | number> {
  return {
    'Content-Type': JSON_TYPE,
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  };
}

/**
 * Requests Node cannot parse, or whose headers came too late, never reach Fastify: answered on the raw socket,
 * unless an answer is already on its way there (writing would corrupt it).
 */
export function clientErrorHandler(
  this: FastifyInstance | undefined,
  error: Error & { code?: string },
  socket: Socket,
): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, entry] = CLIENT_ERRORS[error.code ?? ''] ?? [400, NOT_HTTP];
  const body = JSON.stringify(envelope([entry]));
  // Every answer names the id its log line carries (docs/decisions/0062-smaller-rules-of-round-two.md).
  const reqId = newRequestId();
  this?.log.debug({ reqId, code: error.code, statusCode: status }, 'request not parsed: answered on the socket');
  const head = Object.entries({ ...closingErrorHeaders(body), 'X-Request-ID': reqId })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  // A peer that never reads the answer does not keep the socket: it is freed at the latest a second later.
  setTimeout(() => socket.destroy(), 1000).unref();
}
