/**
 * CORS per request: pages on an origin of CORS_ORIGINS may do all a client may, with credentials; any other page
 * may only read (`*`, no credentials, which reads do not need), and the browser refuses its writes.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH'];
const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Access-Token',
  'X-Request-ID',
  'If-None-Match',
  'Last-Event-ID',
];
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
const PREFLIGHT_MAX_AGE = 600;

interface CorsOptions {
  origins: readonly string[];
}

async function corsPolicy(app: FastifyInstance, options: CorsOptions): Promise<void> {
  const trusted = new Set(options.origins);
  const decide = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
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
    if (request.method === 'GET' || request.method === 'HEAD')
      return { origin: '*', exposedHeaders: CORS_EXPOSED_HEADERS, preflight: false };
    return { origin: false };
  };
  await app.register(cors, { delegator: (request, callback) => callback(null, decide(request)) });
}

export default fp(corsPolicy, { name: 'cors', dependencies: ['headers'] });
