/**
 * API keys (docs/decisions/0006-api-keys-and-roles.md): the Basic-auth user name or a Bearer token. Reads need
 * none, and an unknown key on a read is ignored.
 */
import fp from 'fastify-plugin';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse, stringify } from 'ini';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusals } from '../domain/errors.js';
import { ROLES, type Principal } from '../domain/callers.js';
import { isOperation } from './errors.js';

export type ApiKeys = ReadonlyMap<string, Principal>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function parseAuthFile(text: string): ApiKeys {
  const keys = new Map<string, Principal>();
  const sections = parse(text) as Record<string, unknown>;
  for (const role of ROLES) {
    const section = sections[role];
    if (typeof section !== 'object' || section === null) continue;
    for (const [name, key] of Object.entries(section)) {
      if (typeof key === 'string' && key.length > 0) keys.set(key, { name, role });
    }
  }
  return keys;
}

/** A file just created, with fresh keys, comes with its text, so the caller can show the keys once. */
export function ensureAuthFile(path: string): { keys: ApiKeys; createdText?: string } {
  if (existsSync(path)) return { keys: parseAuthFile(readFileSync(path, 'utf8')) };
  const fresh = () => randomBytes(16).toString('hex');
  const text = stringify({
    brokers: { broker: fresh() },
    concierge: { concierge: fresh() },
    admins: { administrator: fresh() },
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  return { keys: parseAuthFile(text), createdText: text };
}

/** RFC 4648, padded, nothing else around or inside. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Basic credentials that are not strict base64 carry no key: Node's decoder skips what it cannot read. */
function keyFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space === -1) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const credentials = header.slice(space + 1).trim();
  if (scheme === 'bearer') return credentials || undefined;
  if (scheme !== 'basic' || !BASE64.test(credentials)) return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return (colon === -1 ? decoded : decoded.slice(0, colon)) || undefined;
}

async function auth(app: FastifyInstance, options: { keys: ApiKeys }): Promise<void> {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const key = keyFromHeader(request.headers.authorization);
    request.principal = key === undefined ? undefined : options.keys.get(key);
    const anonymousWrite = request.principal === undefined && isOperation(request) && !READ_METHODS.has(request.method);
    done(anonymousWrite ? refusals.unauthorized() : undefined);
  });
}

export default fp(auth, { name: 'auth', dependencies: ['errors'] });
