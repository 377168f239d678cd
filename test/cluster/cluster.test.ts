/**
 * Two node processes on one store behind the real HAProxy, on loopback: a client sticks to a node, gets 412 and
 * the live node's cookie when it dies (docs/decisions/0017-cluster-cookie.md), and with Redis both nodes count one
 * limit per client (docs/decisions/0018-rate-limit.md). Needs haproxy and, for the rate part, Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { Agent, request } from 'undici';
import { findHaproxy, type Cluster } from '../../scripts/cluster.js';
import { nodeOfCookie } from '../../src/plugins/server-id.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { startTestCluster } from './fixtures.js';
import { Client } from '../helpers/client.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { HAS_REDIS, REDIS_URL } from '../helpers/redis.js';

const HAPROXY = findHaproxy();

// On CI the balancer is installed by .ci/run: its absence there is a failure, not a skip.
it.runIf(!HAPROXY && process.env.CI === 'true')(
  'cluster: haproxy must be installed on CI (apt-get install haproxy)',
  () => {
    throw new Error('haproxy is not installed: .ci/run must install the Debian package haproxy');
  },
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!HAPROXY)(
  HAPROXY
    ? 'cluster: two nodes behind HAProxy, sticky cookie and failover'
    : 'cluster: SKIPPED, haproxy is not installed (apt-get install haproxy)',
  () => {
    const scratch = useScratch();
    let cluster: Cluster;

    beforeAll(async () => {
      cluster = await startTestCluster(scratch, {});
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    });

    it('a client sticks to its node; when that node dies, 412 with a new cookie, the repeat succeeds, nothing acknowledged is lost', async () => {
      const broker = new Client(cluster.url, { key: KEYS.broker });

      // read: the balancer picks a node, whose cookie the client keeps
      const first = await broker.get('/api/0.1/assets');
      expect(first.status).toBe(200);
      const cookie = broker.cookies.get('SERVER_ID')!;
      const sticky = nodeOfCookie(cookie)!;
      expect(['node1', 'node2']).toContain(sticky);
      const other = sticky === 'node1' ? 'node2' : 'node1';

      // writes through the balancer all land on that node: it never answers 412 nor sets another cookie
      const acknowledged: { id: string; token: string; title: string }[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await broker.post('/api/0.1/assets', { data: validAsset({ title: `asset ${i}` }) });
        expect(res.status, res.text).toBe(201);
        expect(res.setCookies).toEqual([]);
        acknowledged.push({ id: res.json.data.id, token: res.json.access.token, title: `asset ${i}` });
      }
      const target = acknowledged[0]!;
      const patched = await broker.patch(
        `/api/0.1/assets/${target.id}`,
        { data: { title: 'patched once' } },
        { token: target.token },
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.setCookies).toEqual([]);
      target.title = 'patched once';
      expect(broker.cookies.get('SERVER_ID')).toBe(cookie);

      // the sticky node dies, without a goodbye; the balancer's checks have not noticed yet
      const dead = cluster.nodes.find((n) => n.name === sticky)!;
      await dead.kill();

      // the next PATCH reaches the live node (redispatch), which refuses the foreign cookie: 412, new cookie, no change
      const refused = await broker.patch(
        `/api/0.1/assets/${target.id}`,
        { data: { title: 'patched twice' } },
        { token: target.token },
      );
      expect(refused.status, refused.text).toBe(412);
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
      expect(refused.json).toMatchObject({ status: 'error', errors: [{ location: 'cookies', name: 'SERVER_ID' }] });
      expect(refused.setCookies).toHaveLength(1);
      expect(nodeOfCookie(broker.cookies.get('SERVER_ID')!)).toBe(other);
      const unchanged = await broker.get(`/api/0.1/assets/${target.id}`);
      expect(unchanged.status).toBe(200);
      expect(unchanged.json.data.title).toBe('patched once');

      // the client repeats the request with the new cookie: it succeeds on the live node
      const repeated = await broker.patch(
        `/api/0.1/assets/${target.id}`,
        { data: { title: 'patched twice' } },
        { token: target.token },
      );
      expect(repeated.status, repeated.text).toBe(200);
      expect(repeated.json.data.title).toBe('patched twice');
      target.title = 'patched twice';

      // more writes go on there, and every acknowledged write is readable through the balancer
      const later = await createAsset(broker, validAsset({ title: 'after failover' }));
      acknowledged.push({ id: later.id, token: later.token, title: 'after failover' });
      for (const asset of acknowledged) {
        const res = await broker.get(`/api/0.1/assets/${asset.id}`);
        expect(res.status, asset.id).toBe(200);
        expect(res.json.data.title).toBe(asset.title);
      }
      expect(broker.cookies.get('SERVER_ID')).not.toBe(cookie);

      // a client without a cookie is served by the live node only, for as long as the other is down
      for (let i = 0; i < 4; i++) {
        const fresh = new Client(cluster.url);
        const res = await fresh.get('/api/0.1/assets');
        expect(res.status).toBe(200);
        expect(nodeOfCookie(fresh.cookies.get('SERVER_ID')!)).toBe(other);
      }

      // the dead node comes back as a new process: a client still holding its earlier cookie is routed there
      // (once the balancer sees it up) and told 412 with the new process's cookie
      await dead.restart();
      const holder = new Client(cluster.url, { key: KEYS.broker });
      let res412: Awaited<ReturnType<Client['get']>> | undefined;
      for (let attempt = 0; attempt < 60; attempt++) {
        holder.cookies.set('SERVER_ID', cookie);
        const res = await holder.get(`/api/0.1/assets/${target.id}`);
        expect(res.status).toBe(412);
        if (nodeOfCookie(holder.cookies.get('SERVER_ID')!) === sticky) {
          res412 = res;
          break;
        }
        await sleep(250); // still sent to the live node while the checks rise
      }
      expect(res412, 'the restarted node was never routed to').toBeDefined();
      expect(res412!.json.errors[0].description).toMatch(/restarted/);
      const newCookie = holder.cookies.get('SERVER_ID')!;
      expect(newCookie).not.toBe(cookie);
      const afterRestart = await holder.patch(
        `/api/0.1/assets/${target.id}`,
        { data: { title: 'on the restarted node' } },
        { token: target.token },
      );
      expect(afterRestart.status, afterRestart.text).toBe(200);
      const readBack = await broker.get(`/api/0.1/assets/${target.id}`);
      expect(readBack.json.data.title).toBe('on the restarted node');
    }, 180_000);
  },
);

describe.skipIf(!HAPROXY || !HAS_REDIS)(
  !HAPROXY
    ? 'cluster rate limit: SKIPPED, haproxy is not installed (apt-get install haproxy)'
    : !HAS_REDIS
      ? `cluster rate limit: SKIPPED, no Redis at ${REDIS_URL} (set REDIS_TEST_URL)`
      : `cluster rate limit: two nodes share one limit per client in Redis (${REDIS_URL})`,
  () => {
    const MAX = 6;
    const scratch = useScratch();
    let cluster: Cluster;

    beforeAll(async () => {
      cluster = await startTestCluster(scratch, {
        REDIS_URL,
        RATE_LIMIT_MAX: String(MAX),
        RATE_LIMIT_WINDOW: '1 minute',
      });
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    });

    /** A client on its own loopback address (127.0.0.0/8 is all local), fresh per run so Redis counts are its own. */
    function clientAt(address: string) {
      const dispatcher = new Agent({ localAddress: address, keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
      return async (headers: Record<string, string> = {}) => {
        const res = await request(`${cluster.url}/api/0.1/assets`, { dispatcher, headers });
        const text = await res.body.text();
        const setCookie = res.headers['set-cookie'];
        const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie) ?? '';
        return {
          status: res.statusCode,
          headers: res.headers,
          json: /^application\/json/.test(String(res.headers['content-type'])) ? JSON.parse(text) : undefined,
          node: nodeOfCookie(cookie.replace(/^SERVER_ID=/, '').split(';')[0]!),
        };
      };
    }

    it('requests spread over both nodes count against one limit; other clients keep theirs', async () => {
      const base = `127.${randomInt(1, 255)}.${randomInt(0, 255)}`;
      const host = randomInt(1, 250);
      const client = clientAt(`${base}.${host}`);
      const neighbour = clientAt(`${base}.${host + 1}`);

      // without a cookie each request is balanced round robin: both nodes serve this client
      const served: string[] = [];
      for (let i = 0; i < MAX; i++) {
        const res = await client();
        expect(res.status, `request ${i + 1}`).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(MAX - 1 - i));
        served.push(res.node!);
      }
      expect(new Set(served)).toEqual(new Set(['node1', 'node2']));

      // the limit is one for the cluster: whichever node answers next refuses
      for (let i = 0; i < 2; i++) {
        const res = await client();
        expect(res.status).toBe(429);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.json).toMatchObject({ status: 'error', errors: [{ location: 'header', name: 'Retry-After' }] });
      }
      // a forged X-Forwarded-For does not buy a fresh budget: the balancer replaces it
      expect((await client({ 'x-forwarded-for': '192.0.2.99' })).status).toBe(429);

      // another client address behind the same balancer has its own budget
      const other = await neighbour();
      expect(other.status).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
    }, 60_000);
  },
);
