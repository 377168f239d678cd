/**
 * CORS (@fastify/cors), decided per request:
 * - pages on an origin of `CORS_ORIGINS` may do everything a client may: their preflights are answered (204) and
 *   every answer names their origin, with credentials (the cluster cookie and the API key);
 * - pages on any other origin may read the public API: GET and HEAD answer `Access-Control-Allow-Origin: *`
 *   (no credentials, which reads do not need); their preflights and writes get no CORS headers, so the browser
 *   refuses them (a preflight without its CORS answer reaches the operation's path as a plain OPTIONS: 405).
 * The headers a page may read are exposed (ETag, Location, the rate limit, X-Request-ID). The document declares
 * these headers on every answer and the preflight in its description.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What a page may send: every method of the document (HEAD goes with GET) and the headers it reads. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH'];
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'X-Access-Token', 'X-Request-ID', 'If-None-Match', 'Last-Event-ID'];
/** Answer headers a page may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'WWW-Authenticate',
  'X-Request-ID',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

export interface CorsOptions {
  /** Origins that may write and get preflights answered (`CORS_ORIGINS`); none by default. */
  origins: readonly string[];
}

async function corsPolicy(app: FastifyInstance, options: CorsOptions): Promise<void> {
  const trusted = new Set(options.origins);
  const decide = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    // Not from a page on another origin: nothing to say.
    if (origin === undefined) return { origin: false };
    if (trusted.has(origin)) {
      return {
        origin,
        credentials: true,
        methods: CORS_METHODS,
        allowedHeaders: CORS_REQUEST_HEADERS,
        exposedHeaders: CORS_EXPOSED_HEADERS,
        maxAge: PREFLIGHT_MAX_AGE,
        // Only a real preflight is answered here; any other OPTIONS goes on to the operation's path (405).
        preflight: request.headers['access-control-request-method'] !== undefined,
      };
    }
    if (request.method === 'GET' || request.method === 'HEAD') return { origin: '*', exposedHeaders: CORS_EXPOSED_HEADERS, preflight: false };
    return { origin: false };
  };
  await app.register(cors, { delegator: (request, callback) => callback(null, decide(request)) });
}

export default fp(corsPolicy, { name: 'cors', dependencies: ['headers'] });
