/**
 * The cluster cookie (docs/decisions/0017-cluster-cookie.md): `<serverId>.<startId>.<signature>`. The node name
 * comes first and in clear, so a balancer routes by it without the secret; `startId` makes a restarted node's
 * earlier cookies stale. Checked before the rate limit, the key and the body, so a 412 changes nothing.
 */
import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';

export const SERVER_ID_COOKIE = 'SERVER_ID';

/** So they travel unencoded in the cookie value. */
const NODE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface ServerIdOptions {
  serverId: string;
  /** The same on every node of a cluster. */
  secret: string;
  /** Fresh when absent; tests may pin it. */
  startId?: string;
  /** Sent only over https: PUBLIC_URL is https (docs/decisions/0062-smaller-rules-of-round-two.md). */
  secure?: boolean;
}

/** `node1.<start>.<signature>` → `node1`, without checking the signature; the value encoded or not. */
export function nodeOfCookie(value: string): string | undefined {
  let text = value;
  try {
    text = decodeURIComponent(value);
  } catch {
    // not percent-encoded: read as it is
  }
  const parts = text.split('.');
  if (parts.length < 3) return undefined;
  const name = parts.slice(0, -2).join('.');
  return NODE_NAME.test(name) ? name : undefined;
}

/** Dot-free, as the cookie's parts are split on dots. */
function newStartId(): string {
  return Date.now().toString(36) + randomBytes(4).toString('hex');
}

type Verdict = 'ok' | 'forged' | 'foreign' | 'stale';

const DESCRIPTIONS: Record<'missing' | Exclude<Verdict, 'ok'>, string> = {
  missing:
    'A SERVER_ID cookie is required for POST, PUT, PATCH and DELETE. This response sets one: repeat the request with the new cookie.',
  forged:
    'The SERVER_ID cookie is not valid (its signature does not match). This response sets a new one: repeat the request with the new cookie.',
  foreign:
    'The SERVER_ID cookie names another server of the cluster, which is unavailable here. This response sets a new cookie: repeat the request with the new cookie.',
  stale:
    'The SERVER_ID cookie was issued before this server restarted. This response sets a new one: repeat the request with the new cookie.',
};

const serverIdPlugin: FastifyPluginAsync<ServerIdOptions> = async (fastify, options) => {
  const { serverId, secret } = options;
  if (!NODE_NAME.test(serverId)) {
    throw new Error(
      `SERVER_ID must be letters, digits, "_", "-" or "." (starting with a letter, digit or "_"), got "${serverId}"`,
    );
  }
  if (!secret) throw new Error('COOKIE_SECRET must not be empty');
  const startId = options.startId ?? newStartId();
  if (!/^[A-Za-z0-9_-]+$/.test(startId))
    throw new Error(`startId must be letters, digits, "_" or "-", got "${startId}"`);

  const signer = fastifyCookie.signerFactory(secret);
  const expected = `${serverId}.${startId}`;
  const cookieValue = signer.sign(expected);

  if (!fastify.hasRequestDecorator('cookies')) {
    await fastify.register(fastifyCookie, { secret });
  }

  const issue = (reply: FastifyReply): void => {
    reply.setCookie(SERVER_ID_COOKIE, cookieValue, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secure === true,
    });
  };

  const verdict = (value: string): Verdict => {
    // The cookie this process hands out, sent back as is: valid by construction, no HMAC to recompute.
    if (value === cookieValue) return 'ok';
    const unsigned = signer.unsign(value);
    if (!unsigned.valid || unsigned.value === null) return 'forged';
    if (unsigned.value === expected) return 'ok';
    const dot = unsigned.value.lastIndexOf('.');
    const node = dot === -1 ? unsigned.value : unsigned.value.slice(0, dot);
    return node === serverId ? 'stale' : 'foreign';
  };

  const refusal = (request: FastifyRequest, reply: FastifyReply): ApiError | undefined => {
    if (request.is404 || request.routeOptions.config?.methodNotAllowed === true) return undefined;
    const value = request.cookies[SERVER_ID_COOKIE];
    let problem: keyof typeof DESCRIPTIONS;
    if (value === undefined || value === '') {
      if (!WRITE_METHODS.has(request.method)) {
        issue(reply);
        return undefined;
      }
      problem = 'missing';
    } else {
      const v = verdict(value);
      if (v === 'ok') return undefined;
      problem = v;
    }
    issue(reply);
    request.log.info({ serverIdCookie: problem }, 'SERVER_ID cookie refused (412)');
    return new ApiError(412, [{ location: 'cookies', name: SERVER_ID_COOKIE, description: DESCRIPTIONS[problem] }]);
  };

  fastify.addHook('onRequest', (request, reply, done) => done(refusal(request, reply)));
};

const serverIdCookie = fp(serverIdPlugin, { fastify: '5.x', name: 'server-id-cookie' });
export default serverIdCookie;
