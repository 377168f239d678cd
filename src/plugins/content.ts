/**
 * Request bodies: JSON in UTF-8, or `multipart/form-data` where the operation declares it (the document service's
 * upload), and nothing else. The content type is checked before the body is read (415, naming the types the
 * operation takes), then its size (413: Fastify's bodyLimit for JSON; for multipart a declared length beyond the
 * largest file plus room for the form's own lines, the rest as the file streams in), then, for JSON, its bytes
 * and syntax (422). Multipart bodies are parsed by @fastify/multipart, registered after this plugin.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, refusals } from '../domain/errors.js';
import { fileTooLarge } from '../domain/documents.js';
import { contentTypeError } from './errors.js';
import { OPERATIONS } from './contract.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `application/json`, optionally with `charset=utf-8`; any other type or charset is refused. */
export function isAcceptedContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((param) => {
    const [name, value] = param.split('=').map((part) => part.trim());
    return name !== 'charset' || value === 'utf-8' || value === '"utf-8"' || value === 'utf8';
  });
}

function parseJsonBody(_request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void): void {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    done(ApiError.one(422, 'body', 'data', 'The body is not valid UTF-8'));
    return;
  }
  try {
    done(null, JSON.parse(text));
  } catch {
    done(refusals.notDecodable());
  }
}

const MULTIPART = 'multipart/form-data';
/** Room for a multipart form's boundaries, part headers and small fields beside its one file. */
const MULTIPART_ALLOWANCE = 1024 * 1024;

/** The request body types of each operation, as the document declares them. */
const REQUEST_TYPES = new Map(OPERATIONS.map((operation) => [operation.operationId, operation.requestTypes]));

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export interface ContentOptions {
  /** The largest file a multipart upload may carry (DS_MAX_BYTES). */
  maxFileBytes: number;
}

async function content(app: FastifyInstance, options: ContentOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonBody);

  // Only operations that take a body get the check (a route-level hook): reads pay nothing for it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.config?.operationId === undefined || !methods.some((method) => BODY_METHODS.has(method))) return;
    const existing = route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
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
