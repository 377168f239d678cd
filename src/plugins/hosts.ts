/**
 * The hosts the registry is (decisions.md §15): the host of PUBLIC_URL, ALLOWED_HOSTS, and the loopback names, on
 * any port, compared case-insensitively. Any other `Host` (or forwarded host, behind a trusted proxy), a missing or
 * empty one, or two of them: 400 `header` / `Host`, before anything else is looked at. The request's `origin`,
 * on which every absolute URL of the answer is written, is PUBLIC_URL when set, else the (allowed) origin the
 * request came in by.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** `https://registry.example.org`: PUBLIC_URL, or the scheme and host the request came in by. */
    origin: string;
  }
}

export interface HostOptions {
  /** PUBLIC_URL, without a final `/`. */
  publicUrl: string | undefined;
  /** ALLOWED_HOSTS, lower case. */
  allowedHosts: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** `name`, `name:port`, `[v6]` or `[v6]:port`. */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** The lower-case name of a `Host` value, or undefined when it is not one. */
export function hostName(value: string): string | undefined {
  const match = HOST_VALUE.exec(value);
  return match ? match[1]!.toLowerCase() : undefined;
}

const hostRefusal = (description: string): ApiError => ApiError.one(400, 'header', 'Host', description);

/** How many `Host` headers the request carried (Node keeps only the first in `headers`). */
function hostHeaderCount(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++;
  return count;
}

/** Why the request's hosts are refused, or undefined when they are the registry's. */
function refusal(request: FastifyRequest, allowed: ReadonlySet<string>): ApiError | undefined {
  const count = hostHeaderCount(request);
  if (count > 1) return hostRefusal('Only one Host header may be sent');
  const header = request.headers.host ?? '';
  if (count === 0 || header === '') return hostRefusal('A Host header is required');
  // Behind a trusted proxy, Fastify's host is the forwarded one: it must be the registry's too.
  const values = request.host === header ? [header] : [header, request.host];
  for (const value of values) {
    const name = hostName(value);
    if (name === undefined || !allowed.has(name)) return hostRefusal('The registry does not answer to this host');
  }
  return undefined;
}

async function hosts(app: FastifyInstance, options: HostOptions): Promise<void> {
  const allowed = new Set([...LOOPBACK_NAMES, ...options.allowedHosts]);
  if (options.publicUrl !== undefined) allowed.add(new URL(options.publicUrl).hostname.toLowerCase());
  app.decorateRequest('origin', '');
  app.addHook('onRequest', (request, _reply, done) => {
    const refused = refusal(request, allowed);
    if (refused !== undefined) return done(refused);
    // Behind a trusted proxy the scheme comes from X-Forwarded-Proto: only http and https make a URL.
    const scheme = request.protocol === 'https' ? 'https' : 'http';
    request.origin = options.publicUrl ?? `${scheme}://${request.host.toLowerCase()}`;
    done();
  });
}

export default fp(hosts, { name: 'hosts', dependencies: ['errors'] });
