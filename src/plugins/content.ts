/**
 * Request bodies: JSON in UTF-8, or multipart where the operation declares it. The type is checked before the body
 * is read, then the size, then the bytes (docs/decisions/0014-order-of-checks.md).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, refusals } from '../domain/errors.js';
import { fileTooLarge } from '../domain/documents.js';
import { contentTypeError } from './errors.js';
import { OPERATIONS } from '../contract/document.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

function isAcceptedContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((param) => {
    const [name, value] = param.split('=').map((part) => part.trim());
    return name !== 'charset' || value === 'utf-8' || value === '"utf-8"' || value === 'utf8';
  });
}

function parseJsonBody(
  _request: FastifyRequest,
  body: Buffer,
  done: (error: Error | null, body?: unknown) => void,
): void {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    done(ApiError.one(422, 'body', 'data', 'The body is not valid UTF-8'));
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    done(refusals.notDecodable());
    return;
  }
  // Escaped surrogates only: raw bytes cannot encode one in valid UTF-8.
  if (SURROGATE_ESCAPE.test(text) && !isWellFormedJson(value)) {
    done(ApiError.one(422, 'body', 'data', 'The body holds a string that is not valid Unicode (a lone surrogate)'));
    return;
  }
  done(null, value);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Every string and name valid Unicode: what is stored is also logged as RFC 8785 JSON, which has no lone surrogate
 * (docs/decisions/0065-transparency-log-entries-and-tree.md).
 */
function isWellFormedJson(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(isWellFormedJson);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([name, item]) => name.isWellFormed() && isWellFormedJson(item));
  }
  return true;
}

const MULTIPART = 'multipart/form-data';
/** For the form's boundaries, part headers and small fields beside its one file. */
const MULTIPART_ALLOWANCE = 1024 * 1024;

const REQUEST_TYPES = new Map(OPERATIONS.map((operation) => [operation.operationId, operation.requestTypes]));

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

interface ContentOptions {
  maxFileBytes: number;
}

async function content(app: FastifyInstance, options: ContentOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonBody);

  // A route-level hook: reads pay nothing for it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.config?.operationId === undefined || !methods.some((method) => BODY_METHODS.has(method))) return;
    const existing =
      route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
    route.preParsing = [...existing, checkContent];
  });

  async function checkContent(request: FastifyRequest): Promise<void> {
    if (!BODY_METHODS.has(request.method)) return;
    const accepted = REQUEST_TYPES.get(request.routeOptions.config.operationId ?? '') ?? [];
    const header = request.headers['content-type'];
    if (mediaTypeOf(header) === MULTIPART && accepted.includes(MULTIPART)) {
      if (Number(request.headers['content-length'] ?? 0) > options.maxFileBytes + MULTIPART_ALLOWANCE) {
        throw fileTooLarge(options.maxFileBytes);
      }
      return;
    }
    if (accepted.includes('application/json') && isAcceptedContentType(header)) return;
    throw contentTypeError(accepted.length > 0 ? accepted : ['application/json']);
  }
}

export default fp(content, { name: 'content', dependencies: ['errors'] });
