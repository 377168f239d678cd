/**
 * The cluster cookie (docs/decisions/0017-cluster-cookie.md), first on a small app (this plugin, the real error
 * renderer, a probe route), then in the real registry: the 412 carries the envelope and a fresh cookie, and changes
 * nothing in the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import errors from '../../src/plugins/errors.js';
import serverIdCookie, { nodeOfCookie, SERVER_ID_COOKIE } from '../../src/plugins/server-id.js';
import { KEYS, useServer } from '../helpers/server.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';

const SECRET = 'server-id-test-secret-0123456789abcdef';

interface Probe {
  app: FastifyInstance;
  /** How many times a handler ran: a 412 must not reach it. */
  handled: number;
}

async function probeApp(serverId = 'node1', startId?: string, secret = SECRET): Promise<Probe> {
  const probe: Probe = { app: Fastify({ logger: false }), handled: 0 };
  const { app } = probe;
  await app.register(errors);
  await app.register(serverIdCookie, { serverId, secret, ...(startId ? { startId } : {}) });
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/thing',
    handler: async () => {
      probe.handled++;
      return { ok: true };
    },
  });
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/read-only',
    config: { methodNotAllowed: true },
    handler: async (_request, reply) => reply.code(405).send({ status: 'error', errors: [] }),
  });
  await app.ready();
  return probe;
}

function setCookieOf(res: LightMyRequestResponse): string | undefined {
  const header = res.headers['set-cookie'];
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return all.find((c) => c.startsWith(`${SERVER_ID_COOKIE}=`));
}

/** The cookie value as a client would send it back (the Set-Cookie text between `=` and the first `;`). */
function cookieValueOf(setCookie: string | undefined): string {
  if (!setCookie) throw new Error('no SERVER_ID Set-Cookie');
  return setCookie.slice(SERVER_ID_COOKIE.length + 1).split(';')[0]!;
}

function expect412(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(412);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const body = res.json();
  expect(body.status).toBe('error');
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ location: 'cookies', name: 'SERVER_ID' });
  expect(body.errors[0].description).toMatch(/repeat the request with the new cookie/i);
  expect(setCookieOf(res)).toBeDefined();
}

describe('SERVER_ID cookie plugin (small app)', () => {
  let node1: Probe;
  let cookie1: string;

  beforeAll(async () => {
    node1 = await probeApp('node1', 'start1');
    const res = await node1.app.inject({ method: 'GET', url: '/thing' });
    cookie1 = cookieValueOf(setCookieOf(res));
  });
  afterAll(async () => {
    await node1.app.close();
  });

  it('gives a GET without the cookie one: signed, naming the node and its start, Path=/, HttpOnly, SameSite=Lax', async () => {
    const res = await node1.app.inject({ method: 'GET', url: '/thing' });
    expect(res.statusCode).toBe(200);
    const setCookie = setCookieOf(res)!;
    expect(setCookie).toMatch(/^SERVER_ID=node1\.start1\.[^;]+;/);
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    expect(setCookie).toMatch(/; HttpOnly(;|$)/);
    expect(setCookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(nodeOfCookie(cookieValueOf(setCookie))).toBe('node1');
  });

  it('gives a HEAD without the cookie one', async () => {
    const res = await node1.app.inject({ method: 'HEAD', url: '/thing' });
    expect(res.statusCode).toBe(200);
    expect(cookieValueOf(setCookieOf(res))).toBe(cookie1);
  });

  it('serves a valid cookie of this node on every method without a new Set-Cookie', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await node1.app.inject({ method, url: '/thing', cookies: { SERVER_ID: cookie1 } });
      expect(res.statusCode, method).toBe(200);
      expect(setCookieOf(res), method).toBeUndefined();
    }
  });

  it('refuses POST, PUT, PATCH and DELETE without the cookie: 412, envelope, fresh cookie, handler not run', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const before = node1.handled;
      const res = await node1.app.inject({ method, url: '/thing', payload: { data: {} } });
      expect412(res);
      expect(res.json().errors[0].description).toMatch(/required/);
      expect(cookieValueOf(setCookieOf(res))).toBe(cookie1);
      expect(node1.handled).toBe(before);
    }
  });

  it('the fresh cookie of a 412 makes the repeated request succeed', async () => {
    const first = await node1.app.inject({ method: 'PATCH', url: '/thing', payload: {} });
    expect412(first);
    const again = await node1.app.inject({
      method: 'PATCH',
      url: '/thing',
      payload: {},
      headers: { cookie: `SERVER_ID=${cookieValueOf(setCookieOf(first))}` },
    });
    expect(again.statusCode).toBe(200);
  });

  it("refuses another node's cookie on any method, GET included", async () => {
    const node2 = await probeApp('node2', 'start1');
    try {
      const cookie2 = cookieValueOf(setCookieOf(await node2.app.inject({ method: 'GET', url: '/thing' })));
      expect(nodeOfCookie(cookie2)).toBe('node2');
      for (const method of ['GET', 'HEAD', 'POST', 'PATCH'] as const) {
        const before = node1.handled;
        const res = await node1.app.inject({ method, url: '/thing', headers: { cookie: `SERVER_ID=${cookie2}` } });
        expect(res.statusCode, method).toBe(412);
        if (method !== 'HEAD') expect412(res);
        expect(cookieValueOf(setCookieOf(res))).toBe(cookie1);
        expect(node1.handled).toBe(before);
      }
      const res = await node1.app.inject({ method: 'GET', url: '/thing', headers: { cookie: `SERVER_ID=${cookie2}` } });
      expect(res.json().errors[0].description).toMatch(/another server/);
    } finally {
      await node2.app.close();
    }
  });

  it('refuses the cookie of an earlier process of this node (restart): 412 with the new process cookie', async () => {
    const restarted = await probeApp('node1', 'start2');
    try {
      const res = await restarted.app.inject({
        method: 'GET',
        url: '/thing',
        headers: { cookie: `SERVER_ID=${cookie1}` },
      });
      expect412(res);
      expect(res.json().errors[0].description).toMatch(/restarted/);
      const fresh = cookieValueOf(setCookieOf(res));
      expect(fresh).not.toBe(cookie1);
      expect(fresh).toMatch(/^node1\.start2\./);
      const again = await restarted.app.inject({
        method: 'POST',
        url: '/thing',
        headers: { cookie: `SERVER_ID=${fresh}` },
      });
      expect(again.statusCode).toBe(200);
    } finally {
      await restarted.app.close();
    }
  });

  it('two app instances of one SERVER_ID without a pinned start are two process starts', async () => {
    const a = await probeApp('node1');
    const b = await probeApp('node1');
    try {
      const ca = cookieValueOf(setCookieOf(await a.app.inject({ method: 'GET', url: '/thing' })));
      const res = await b.app.inject({ method: 'GET', url: '/thing', headers: { cookie: `SERVER_ID=${ca}` } });
      expect(res.statusCode).toBe(412);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });

  it('refuses a forged cookie: changed node name, changed signature, another secret, garbage', async () => {
    const otherSecret = await probeApp('node1', 'start1', 'another-secret-0123456789abcdefghij');
    let foreignSigned: string;
    try {
      foreignSigned = cookieValueOf(setCookieOf(await otherSecret.app.inject({ method: 'GET', url: '/thing' })));
    } finally {
      await otherSecret.app.close();
    }
    const signature = cookie1.split('.').pop()!;
    const forged = [
      foreignSigned, // same node and start, signed with another secret
      `node2.start1.${signature}`, // node name changed, signature kept
      cookie1.slice(0, -2) + (cookie1.endsWith('AA') ? 'BB' : 'AA'), // signature changed
      'node1.start1', // unsigned
      'garbage',
      fastifyCookie.sign('node1.start1', 'wrong-secret-0123456789abcdef'),
    ];
    for (const value of forged) {
      const res = await node1.app.inject({ method: 'GET', url: '/thing', headers: { cookie: `SERVER_ID=${value}` } });
      expect412(res);
      expect(cookieValueOf(setCookieOf(res)), value).toBe(cookie1);
    }
    const res = await node1.app.inject({ method: 'GET', url: '/thing', headers: { cookie: 'SERVER_ID=garbage' } });
    expect(res.json().errors[0].description).toMatch(/not valid/);
  });

  it('does not check requests that matched no route (404) nor 405 stand-in routes', async () => {
    const unknown = await node1.app.inject({ method: 'POST', url: '/nowhere', payload: {} });
    expect(unknown.statusCode).toBe(404);
    expect(setCookieOf(unknown)).toBeUndefined();
    const forged = await node1.app.inject({ method: 'GET', url: '/nowhere', headers: { cookie: 'SERVER_ID=garbage' } });
    expect(forged.statusCode).toBe(404);
    const notAllowed = await node1.app.inject({ method: 'DELETE', url: '/read-only' });
    expect(notAllowed.statusCode).toBe(405);
    expect(setCookieOf(notAllowed)).toBeUndefined();
  });

  it('refuses node names that cannot travel in clear in the cookie', async () => {
    for (const serverId of ['', 'a b', 'node;1', 'nöde', '.hidden']) {
      const app = Fastify({ logger: false });
      await expect(app.register(serverIdCookie, { serverId, secret: SECRET })).rejects.toThrow(/SERVER_ID/);
      await app.close();
    }
  });
});

describe('nodeOfCookie (what the load balancer reads)', () => {
  it('reads the node name without the secret, from the raw or the decoded value', () => {
    const signed = fastifyCookie.sign('web1.lx2k3abc', SECRET);
    expect(nodeOfCookie(signed)).toBe('web1');
    expect(nodeOfCookie(encodeURIComponent(signed))).toBe('web1');
    expect(nodeOfCookie(fastifyCookie.sign('web1.example.org.lx2k3abc', SECRET))).toBe('web1.example.org');
  });

  it('gives undefined for values without the shape', () => {
    expect(nodeOfCookie('')).toBeUndefined();
    expect(nodeOfCookie('garbage')).toBeUndefined();
    expect(nodeOfCookie('a.b')).toBeUndefined();
    expect(nodeOfCookie('a b.c.d')).toBeUndefined();
  });
});

describe('SERVER_ID cookie in the real registry', () => {
  const server = useServer({ SERVER_ID: 'web1' });
  const { broker } = server;

  function check412(res: { status: number; headers: Record<string, string>; setCookies: string[]; json: any }): void {
    expect(res.status).toBe(412);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.json).toMatchObject({ status: 'error', errors: [{ location: 'cookies', name: 'SERVER_ID' }] });
    const fresh = res.setCookies.find((c) => c.startsWith('SERVER_ID=web1.'));
    expect(fresh).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
  }

  it('issues the cookie on a read and accepts it on writes', async () => {
    const res = await broker.get('/api/0.1/assets');
    expect(res.status).toBe(200);
    expect(nodeOfCookie(broker.cookies.get('SERVER_ID')!)).toBe('web1');
    const created = await createAsset(broker);
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a POST without the cookie is 412 and creates nothing, even with a valid key and body', async () => {
    // assetID's day counter is gap-free and consumed only by a committed create: it tells whether one happened
    const counter = (body: any): number => Number(String(body.data.assetID).split('-').pop());
    const first = await createAsset(broker);
    const client = server.client({ key: KEYS.broker, autoCookie: false });
    const res = await client.post('/api/0.1/assets', { data: validAsset() });
    check412(res);
    // the cookie the 412 set makes the repeat succeed, and it is the very next asset
    const again = await client.post('/api/0.1/assets', { data: validAsset() });
    expect(again.status).toBe(201);
    expect(counter(again.json)).toBe(counter(first.body) + 1);
  });

  it('a PATCH with a forged, foreign or stale cookie is 412 and changes nothing', async () => {
    const created = await createAsset(broker);
    const forgedValues = [
      'garbage',
      fastifyCookie.sign('web2.lx0abc', 'test-cookie-secret-0123456789abcdef0123456789abcdef'), // another node
      fastifyCookie.sign('web1.lx0abc', 'test-cookie-secret-0123456789abcdef0123456789abcdef'), // earlier start
    ];
    for (const value of forgedValues) {
      const stored = await server.store.get(created.id);
      const client = server.client({ key: KEYS.broker, autoCookie: false });
      client.cookies.set('SERVER_ID', value);
      const res = await client.patch(
        `/api/0.1/assets/${created.id}`,
        { data: { title: 'changed' } },
        { token: created.token },
      );
      check412(res);
      expect(await server.store.get(created.id)).toEqual(stored);
      // a read with it is refused too, and the fresh cookie is then accepted
      client.cookies.set('SERVER_ID', value);
      check412(await client.get(`/api/0.1/assets/${created.id}`));
      const ok = await client.patch(
        `/api/0.1/assets/${created.id}`,
        { data: { title: 'changed' } },
        { token: created.token },
      );
      expect(ok.status).toBe(200);
      await server.store.get(created.id).then((r) => expect(r?.asset.title).toBe('changed'));
      // put the title back for the next round
      await client.patch(
        `/api/0.1/assets/${created.id}`,
        { data: { title: stored!.asset.title } },
        { token: created.token },
      );
    }
  });

  it('the cookie check comes before the API key: a write without cookie and without key is 412, not 401', async () => {
    const client = server.client({ autoCookie: false });
    const res = await client.post('/api/0.1/assets', { data: validAsset() });
    check412(res);
  });
});

describe('SERVER_ID cookie under an https PUBLIC_URL (record 0062)', () => {
  const secure = useServer({ SERVER_ID: 'web2', PUBLIC_URL: 'https://registry.example.org' });
  const plain = useServer({ SERVER_ID: 'web3', PUBLIC_URL: 'http://registry.example.org' });

  it('carries Secure when PUBLIC_URL is https, over HTTP on a read and on a 412', async () => {
    const client = secure.client({ via: 'http', autoCookie: false });
    const read = await client.get('/api/0.1/assets');
    expect(read.setCookies.find((c) => c.startsWith('SERVER_ID=web2.'))).toMatch(
      /; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const refused = await secure.client({ via: 'http', autoCookie: false }).post('/api/0.1/assets', { data: {} });
    expect(refused.status).toBe(412);
    expect(refused.setCookies.find((c) => c.startsWith('SERVER_ID=web2.'))).toContain('; Secure');
  });

  it('does not when PUBLIC_URL is http', async () => {
    const read = await plain.client({ via: 'http', autoCookie: false }).get('/api/0.1/assets');
    const cookie = read.setCookies.find((c) => c.startsWith('SERVER_ID=web3.'));
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
  });
});
