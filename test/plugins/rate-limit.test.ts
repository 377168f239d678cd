/**
 * Rate control: first on a small app (cookie plugin, rate plugin, an API-key stand-in, the real error renderer)
 * for the 429 shape and the order of checks, with counters in memory and in Redis; then in the real registry.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import errors from '../../src/plugins/errors.js';
import serverIdCookie from '../../src/plugins/server-id.js';
import rateLimit from '../../src/plugins/rate-limit.js';
import { ApiError } from '../../src/domain/errors.js';
import { KEYS, useServer } from '../helpers/server.js';
import { HAS_REDIS, REDIS_URL } from '../helpers/redis.js';

const SECRET = 'rate-limit-test-secret-0123456789abcdef';

interface ProbeOptions {
  max: number;
  timeWindow?: number | string;
  redisUrl?: string;
  nameSpace?: string;
  trustProxy?: boolean;
  serverId?: string;
}

/** The registry's order of checks in miniature: cookie (412) → rate (429) → API key (401) → handler. */
async function probeApp(options: ProbeOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: options.trustProxy ?? false });
  await app.register(errors);
  await app.register(serverIdCookie, { serverId: options.serverId ?? 'node1', secret: SECRET, startId: 's1' });
  await app.register(rateLimit, {
    max: options.max,
    timeWindow: options.timeWindow ?? 60_000,
    redisUrl: options.redisUrl,
    ...(options.nameSpace ? { nameSpace: options.nameSpace } : {}),
  });
  app.addHook('onRequest', async (request) => {
    if (
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      !request.headers.authorization &&
      !request.is404 &&
      request.routeOptions.config.methodNotAllowed !== true
    ) {
      throw ApiError.one(401, 'header', 'Authorization', 'A known API key is required');
    }
  });
  app.route({ method: ['GET', 'HEAD', 'POST', 'PATCH'], url: '/thing', handler: async () => ({ ok: true }) });
  app.get('/health', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));
  app.route({
    method: ['DELETE'],
    url: '/thing',
    config: { methodNotAllowed: true },
    handler: async (_request, reply) => reply.code(405).send({ status: 'error', errors: [] }),
  });
  await app.ready();
  return app;
}

async function cookieOf(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/thing', remoteAddress: '203.0.113.250' });
  const header = res.headers['set-cookie'];
  const first = (Array.isArray(header) ? header[0] : header) ?? '';
  return first.split(';')[0]!;
}

function expect429(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(429);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  const body = res.json();
  expect(body).toMatchObject({ status: 'error', errors: [{ location: 'header', name: 'Retry-After' }] });
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].description).toMatch(/Rate limit exceeded.*Repeat the request after \d+ s/);
}

describe('rate limit plugin (small app, counters in memory)', () => {
  it('answers 429 with the envelope, Retry-After and the limit headers once max is spent', async () => {
    const app = await probeApp({ max: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ method: 'GET', url: '/thing', remoteAddress: '198.51.100.1' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      }
      const res = await app.inject({ method: 'GET', url: '/thing', remoteAddress: '198.51.100.1' });
      expect429(res);
      expect(res.json().errors[0].description).toMatch(/at most 3 requests per 1 minute/);
      // another client address has its own count
      const other = await app.inject({ method: 'GET', url: '/thing', remoteAddress: '198.51.100.2' });
      expect(other.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('takes the window in words or in milliseconds, and counts afresh after it', async () => {
    const words = await probeApp({ max: 1, timeWindow: '2 seconds' });
    try {
      await words.inject({ method: 'GET', url: '/thing' });
      const res = await words.inject({ method: 'GET', url: '/thing' });
      expect429(res);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(2);
      expect(res.json().errors[0].description).toMatch(/per 2 seconds/);
    } finally {
      await words.close();
    }
    const ms = await probeApp({ max: 1, timeWindow: 300 });
    try {
      expect((await ms.inject({ method: 'GET', url: '/thing' })).statusCode).toBe(200);
      expect429(await ms.inject({ method: 'GET', url: '/thing' }));
      await new Promise((r) => setTimeout(r, 450));
      expect((await ms.inject({ method: 'GET', url: '/thing' })).statusCode).toBe(200);
    } finally {
      await ms.close();
    }
  });

  it('order of checks: the cookie (412) before the rate (429) before the API key (401); a 412 is not counted', async () => {
    const app = await probeApp({ max: 2 });
    try {
      const cookie = await cookieOf(app); // from another address: not counted for this one
      const client = { remoteAddress: '198.51.100.3' };
      // a write without the cookie: 412, and it does not spend the budget
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({ method: 'POST', url: '/thing', ...client });
        expect(res.statusCode).toBe(412);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // a write with the cookie but no key: counted, then refused by the key check
      expect((await app.inject({ method: 'POST', url: '/thing', headers: { cookie }, ...client })).statusCode).toBe(
        401,
      );
      expect((await app.inject({ method: 'POST', url: '/thing', headers: { cookie }, ...client })).statusCode).toBe(
        401,
      );
      // budget spent: 429 comes before the key check
      expect429(await app.inject({ method: 'POST', url: '/thing', headers: { cookie }, ...client }));
      // and the cookie check still comes first
      const forged = await app.inject({
        method: 'POST',
        url: '/thing',
        headers: { cookie: 'SERVER_ID=x.y.z' },
        ...client,
      });
      expect(forged.statusCode).toBe(412);
    } finally {
      await app.close();
    }
  });

  it('does not count nor refuse unknown paths (404), 405 stand-in routes and routes marked rateLimit: false', async () => {
    const app = await probeApp({ max: 1 });
    try {
      const client = { remoteAddress: '198.51.100.4' };
      for (let i = 0; i < 3; i++) {
        expect((await app.inject({ method: 'GET', url: '/nowhere', ...client })).statusCode).toBe(404);
        expect((await app.inject({ method: 'DELETE', url: '/thing', ...client })).statusCode).toBe(405);
        expect((await app.inject({ method: 'GET', url: '/health', ...client })).statusCode).toBe(200);
      }
      expect((await app.inject({ method: 'GET', url: '/thing', ...client })).statusCode).toBe(200);
      expect429(await app.inject({ method: 'GET', url: '/thing', ...client }));
      expect((await app.inject({ method: 'GET', url: '/health', ...client })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('with trustProxy, counts per client address from X-Forwarded-For, not per balancer', async () => {
    const app = await probeApp({ max: 1, trustProxy: true });
    try {
      const balancer = { remoteAddress: '127.0.0.1' };
      const a = { 'x-forwarded-for': '192.0.2.10' };
      const b = { 'x-forwarded-for': '192.0.2.11' };
      expect((await app.inject({ method: 'GET', url: '/thing', headers: a, ...balancer })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/thing', headers: b, ...balancer })).statusCode).toBe(200);
      expect429(await app.inject({ method: 'GET', url: '/thing', headers: a, ...balancer }));
    } finally {
      await app.close();
    }
  });

  it('without trustProxy, X-Forwarded-For is ignored (a client cannot pick its own bucket)', async () => {
    const app = await probeApp({ max: 1 });
    try {
      const res1 = await app.inject({ method: 'GET', url: '/thing', headers: { 'x-forwarded-for': '192.0.2.20' } });
      expect(res1.statusCode).toBe(200);
      expect429(await app.inject({ method: 'GET', url: '/thing', headers: { 'x-forwarded-for': '192.0.2.21' } }));
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!HAS_REDIS)(
  HAS_REDIS
    ? `rate limit plugin with Redis at ${REDIS_URL}`
    : `rate limit plugin with Redis: SKIPPED, no Redis at ${REDIS_URL}`,
  () => {
    it('two nodes sharing one Redis enforce one limit per client', async () => {
      const nameSpace = `test-rate-${randomBytes(4).toString('hex')}:`;
      const node1 = await probeApp({ max: 4, redisUrl: REDIS_URL, nameSpace, serverId: 'node1' });
      const node2 = await probeApp({ max: 4, redisUrl: REDIS_URL, nameSpace, serverId: 'node2' });
      try {
        const client = { remoteAddress: '198.51.100.7' };
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const node = i % 2 === 0 ? node1 : node2;
          statuses.push((await node.inject({ method: 'GET', url: '/thing', ...client })).statusCode);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
        expect429(await node1.inject({ method: 'GET', url: '/thing', ...client }));
        // another client address is untouched
        expect((await node2.inject({ method: 'GET', url: '/thing', remoteAddress: '198.51.100.8' })).statusCode).toBe(
          200,
        );
      } finally {
        await node1.close();
        await node2.close();
      }
    });

    it('namespaces keep two registries on one Redis apart', async () => {
      const a = await probeApp({
        max: 1,
        redisUrl: REDIS_URL,
        nameSpace: `test-rate-${randomBytes(4).toString('hex')}:`,
      });
      const b = await probeApp({
        max: 1,
        redisUrl: REDIS_URL,
        nameSpace: `test-rate-${randomBytes(4).toString('hex')}:`,
      });
      try {
        expect((await a.inject({ method: 'GET', url: '/thing' })).statusCode).toBe(200);
        expect((await b.inject({ method: 'GET', url: '/thing' })).statusCode).toBe(200);
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
);

describe('rate limit plugin with Redis unreachable', () => {
  it('serves requests (the limit is not enforced meanwhile) and closes promptly', async () => {
    const app = await probeApp({ max: 1, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/thing' })).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await app.close();
    }
  });
});

describe('rate limit in the registry (real server over HTTP)', () => {
  // Real HTTP: the limit counts per client address, which comes from the socket.
  const server = useServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' }, { via: 'http' });

  it('answers 429 with the envelope, charset, nosniff and Retry-After, before the API key check', async () => {
    const client = server.client({ autoCookie: false });
    for (let i = 0; i < 3; i++) {
      const res = await client.get('/api/0.1/assets');
      expect(res.status).toBe(200);
      // The headers the document declares on every answer counted against the limit.
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': String(2 - i) });
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    const res = await client.get('/api/0.1/assets');
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.json).toMatchObject({ status: 'error', errors: [{ location: 'header', name: 'Retry-After' }] });
    // a write with the cookie and without a key: 429, not 401
    const write = await client.post('/api/0.1/assets', { data: {} }, { key: null });
    expect(write.status).toBe(429);
    // a write with a key: 429, nothing created
    const keyed = await client.post('/api/0.1/assets', { data: {} }, { key: KEYS.broker });
    expect(keyed.status).toBe(429);
  });
});

// docs/decisions/0062-smaller-rules-of-round-two.md
describe('TRUST_PROXY in the registry (real server over HTTP, record 0062)', () => {
  const limited = { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW: '1 minute' };
  const trusted = useServer({ ...limited, TRUST_PROXY: '192.0.2.1, 127.0.0.0/8' }, { via: 'http' });
  const untrusted = useServer({ ...limited, TRUST_PROXY: '10.0.0.0/8,::1' }, { via: 'http' });
  const anyone = useServer({ TRUST_PROXY: 'true' }, { via: 'http' });

  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  it('a range that holds the proxy: each forwarded client has its own limit', async () => {
    const client = trusted.client({ autoCookie: false });
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      expect((await client.get('/api/0.1/assets', from(address))).status).toBe(200);
      expect((await client.get('/api/0.1/assets', from(address))).status).toBe(200);
      expect((await client.get('/api/0.1/assets', from(address))).status).toBe(429);
    }
  });

  it('ranges that do not hold the peer: X-Forwarded-For is ignored, one limit for the peer', async () => {
    const client = untrusted.client({ autoCookie: false });
    expect((await client.get('/api/0.1/assets', from('198.51.100.1'))).status).toBe(200);
    expect((await client.get('/api/0.1/assets', from('198.51.100.2'))).status).toBe(200);
    expect((await client.get('/api/0.1/assets', from('198.51.100.3'))).status).toBe(429);
  });

  it('true logs a warning at start-up; an address list does not', async () => {
    const warned = (lines: string[]) =>
      lines.some((line) => {
        const entry = JSON.parse(line) as { level: number; msg?: string };
        return entry.level === 40 && entry.msg?.startsWith('TRUST_PROXY=true') === true;
      });
    expect(warned(anyone.logLines())).toBe(true);
    expect(warned(trusted.logLines())).toBe(false);
  });
});
