/**
 * With VALIDATE_REPLIES (on in the tests), a reply that breaks the document becomes a logged 500 naming the break,
 * so the contract cannot drift unnoticed (docs/decisions/0003-replies-checked-against-the-document.md).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ApiError, envelope } from '../domain/errors.js';
import { JSON_TYPE } from '../domain/serialize.js';
import { escapePointer, OPERATIONS, resolve, type Operation } from '../contract/document.js';
import { replyBodyAt } from '../contract/validators.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Not an operation of the document (the docs page's files): not checked. */
    outsideDocument?: boolean;
  }
}

const errorEnvelope = replyBodyAt('/components/schemas/Error');
const byId = new Map(OPERATIONS.map((operation) => [operation.operationId, operation]));

function responseKey(operation: Operation, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in operation.responses);
}

interface Jsonp {
  mediaType: string;
  wraps: string;
}

function jsonpOf(operation: Operation): Jsonp | undefined {
  return operation.parameters.find((parameter) => parameter['x-jsonp'] !== undefined)?.['x-jsonp'];
}

/** The JSON inside `/**\/callback(<json>);`. */
function unwrapJsonp(text: string): unknown {
  const match = /^\/\*\*\/[$\w.[\]]+\(([\s\S]*)\);$/.exec(text);
  if (match === null) throw new Error('not a JSONP call');
  return JSON.parse(match[1] ?? '');
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
    .join('; ');
}

function checkBody(validate: ValidateFunction, body: unknown, what: string): string | undefined {
  return validate(body) ? undefined : `${what} does not match the document: ${describeErrors(validate)}`;
}

function mediaRangeCovers(declared: string, contentType: string): boolean {
  const actual = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (declared === '*/*') return actual.includes('/');
  if (declared.endsWith('/*')) return actual.startsWith(declared.slice(0, -1));
  return actual === declared;
}

function breach(request: FastifyRequest, reply: FastifyReply, payload: unknown): string | undefined {
  if (reply.getHeader('x-content-type-options') !== 'nosniff') return 'X-Content-Type-Options: nosniff is missing';
  const status = reply.statusCode;
  const type = String(reply.getHeader('content-type') ?? '');
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (request.routeOptions.config.outsideDocument === true) return undefined;
  // A CORS preflight answered for a trusted origin (plugins/cors.ts): the CORS protocol's, described in the document.
  if (request.method === 'OPTIONS' && status === 204 && reply.hasHeader('access-control-allow-methods'))
    return undefined;
  const operation = byId.get(request.routeOptions.config.operationId ?? '');

  if (operation === undefined) {
    if (status < 400) return `status ${status} on a path or method the document does not have`;
    if (status === 405 && !reply.hasHeader('allow')) return '405 without Allow';
    if (type !== JSON_TYPE || text === undefined) return `error reply of type ${type} instead of the JSON envelope`;
    return checkBody(errorEnvelope, JSON.parse(text), 'error envelope');
  }

  const key = responseKey(operation, status);
  if (key === undefined) return `status ${status} is not declared for ${operation.operationId}`;
  if (request.method === 'HEAD' || status === 204 || status === 304) return undefined;
  const pointer = operation.responses[key] as string;
  const content = (resolve({ $ref: `#${pointer}` }, pointer).node.content ?? {}) as Record<
    string,
    { schema?: unknown }
  >;
  const jsonp = jsonpOf(operation);
  if (jsonp !== undefined && mediaRangeCovers(jsonp.mediaType, type)) {
    if (content[jsonp.wraps]?.schema === undefined)
      return `${operation.operationId} ${key} has JSONP without a JSON answer`;
    if (text === undefined) return 'a JSONP body that is not text';
    return checkBody(
      replyBodyAt(`${pointer}/content/${escapePointer(jsonp.wraps)}/schema`),
      unwrapJsonp(text),
      'JSON inside the JSONP body',
    );
  }
  const mediaType = Object.keys(content).find((declared) => mediaRangeCovers(declared, type));
  if (mediaType === undefined) return `content type ${type} is not declared for ${operation.operationId} ${key}`;
  // A streamed body (a file of the document service) is not read here; its type was checked above.
  if (text === undefined || content[mediaType]?.schema === undefined) return undefined;
  const schemaPointer = `${pointer}/content/${escapePointer(mediaType)}/schema`;
  if (mediaType !== 'application/json') return checkBody(replyBodyAt(schemaPointer), text, 'body');
  if (type !== JSON_TYPE) return `JSON reply of type ${type} instead of ${JSON_TYPE}`;
  return checkBody(replyBodyAt(schemaPointer), JSON.parse(text), 'body');
}

async function replyValidation(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (request, reply, payload) => {
    let problem: string | undefined;
    try {
      problem = breach(request, reply, payload);
    } catch (error) {
      problem = `the reply could not be read: ${(error as Error).message}`;
    }
    if (problem === undefined) return payload;
    request.log.error({ problem, status: reply.statusCode }, 'reply breaks the OpenAPI document');
    const refusal = ApiError.one(500, 'url', 'server', `The reply broke the OpenAPI document: ${problem}`);
    reply.code(refusal.statusCode).header('content-type', JSON_TYPE);
    return JSON.stringify(envelope(refusal.errors));
  });
}

export default fp(replyValidation, { name: 'reply-validation', dependencies: ['errors'] });
