/**
 * Request bodies: JSON in UTF-8 and nothing else. The content type is checked before the body is read (415),
 * then its size (413, Fastify's bodyLimit), then its bytes and syntax (422).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, refusals } from '../domain/errors.js';
import { contentTypeError, isOperation } from './errors.js';

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

async function content(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonBody);

  app.addHook('preParsing', async (request) => {
    if (!isOperation(request) || !BODY_METHODS.has(request.method)) return;
    if (!isAcceptedContentType(request.headers['content-type'])) throw contentTypeError();
  });
}

export default fp(content, { name: 'content', dependencies: ['errors'] });
