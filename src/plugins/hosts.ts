/**
 * The hosts the registry answers to (docs/decisions/0043-hosts-and-public-url.md), checked before anything else:
 * every absolute URL of an answer is written on the request's `origin`. Without PUBLIC_URL a port in `Host` must be
 * the one the request came in on (docs/decisions/0062-smaller-rules-of-round-two.md).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** PUBLIC_URL, or the (allowed) scheme and host the request came in by. */
    origin: string;
  }
}

export interface HostOptions {
  /** Without a final `/`. */
  publicUrl: string | undefined;
  /** Lower case. */
  allowedHosts: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** `name`, `name:port`, `[v6]` or `[v6]:port`. */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

function hostParts(value: string): { name: string; port: number | undefined } | undefined {
  const match = HOST_VALUE.exec(value);
  if (!match) return undefined;
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/** The port a request came in on: its socket's, or (injected, no socket) the one the server listens on. */
function localPort(request: FastifyRequest, server: { address(): unknown }): number | undefined {
  const port = request.socket?.localPort;
  if (typeof port === 'number') return port;
  const address = server.address();
  return typeof address === 'object' && address !== null ? (address as { port: number }).port : undefined;
}

const hostRefusal = (description: string): ApiError => ApiError.one(400, 'header', 'Host', description);

/** Node keeps only the first in `headers`. */
function hostHeaderCount(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++;
  return count;
}

/** `undefined`: any port (with PUBLIC_URL, URLs never take the request's). */
type PortOf = ((request: FastifyRequest) => number | undefined) | undefined;

function refusal(request: FastifyRequest, allowed: ReadonlySet<string>, portOf: PortOf): ApiError | undefined {
  const count = hostHeaderCount(request);
  if (count > 1) return hostRefusal('Only one Host header may be sent');
  const header = request.headers.host ?? '';
  if (count === 0 || header === '') return hostRefusal('A Host header is required');
  // Behind a trusted proxy, Fastify's host is the forwarded one: it must be the registry's too.
  const values = request.host === header ? [header] : [header, request.host];
  for (const value of values) {
    const parts = hostParts(value);
    if (parts === undefined || !allowed.has(parts.name))
      return hostRefusal('The registry does not answer to this host');
  }
  // The port goes into the answer's URLs: only the one the client reached (a forwarded one is the proxy's to say).
  // Without a port, the scheme's own: a proxy in front forwards the client's Host as it came.
  const port = portOf === undefined || request.host !== header ? undefined : hostParts(header)?.port;
  if (port !== undefined && port !== portOf?.(request)) return hostRefusal('The registry does not listen on this port');
  return undefined;
}

/**
 * The Host rule for a listener (the API's, the metrics'): `undefined` when the request may go on. `server` is the
 * listener's, whose port an injected request (no socket) is taken to have come in on.
 */
export function hostChecker(
  options: HostOptions,
  server: { address(): unknown },
): (request: FastifyRequest) => ApiError | undefined {
  const allowed = new Set([...LOOPBACK_NAMES, ...options.allowedHosts]);
  if (options.publicUrl !== undefined) allowed.add(new URL(options.publicUrl).hostname.toLowerCase());
  const portOf: PortOf =
    options.publicUrl === undefined ? (request: FastifyRequest) => localPort(request, server) : undefined;
  return (request) => refusal(request, allowed, portOf);
}

async function hosts(app: FastifyInstance, options: HostOptions): Promise<void> {
  const check = hostChecker(options, app.server);
  app.decorateRequest('origin', '');
  app.addHook('onRequest', (request, _reply, done) => {
    const refused = check(request);
    if (refused !== undefined) return done(refused);
    // Behind a trusted proxy the scheme comes from X-Forwarded-Proto: only http and https make a URL.
    const scheme = request.protocol === 'https' ? 'https' : 'http';
    request.origin = options.publicUrl ?? `${scheme}://${request.host.toLowerCase()}`;
    done();
  });
}

export default fp(hosts, { name: 'hosts', dependencies: ['errors'] });
