/**
 * A rolling restart behind the real balancer (docs/decisions/0038-graceful-shutdown.md): two nodes on one store,
 * HAProxy in front, clients writing and streams reading while each node in turn is stopped and started again.
 * A client repeats a request once after a 412 or a 503 and sees no other failure; nothing acknowledged is lost;
 * every stream resumes with Last-Event-ID and misses nothing.
 *
 * Skipped on FerretDB: its single-document updates are not atomic between two nodes (fixtures/common.ts in
 * test/reliability), so a shutdown cannot end in time while a write waits for its stamp. Needs haproxy.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { findHaproxy, type Cluster, type ClusterNode } from '../../scripts/cluster.js';
import { nodeOfCookie } from '../../src/plugins/server-id.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { startTestCluster } from './fixtures.js';
import { Client, httpTransport, type Response } from '../helpers/client.js';
import { validAsset } from '../helpers/fixtures.js';
import { StreamFollower } from '../reliability/fixtures/stream-follower.js';
import { bound, reportFigures, sleep } from '../reliability/fixtures/common.js';

const HAPROXY = findHaproxy();
const WRITERS = 16;
const STREAMS = 10;
/** §13's bound on a node's shutdown, from the signal to the exit (a slow CI machine may be given more). */
const SHUTDOWN_BOUND_MS = bound('SHUTDOWN_BOUND_MS', 2_000);

interface Tally {
  acknowledged: number;
  repeated: number;
  /** Anything but an answer that succeeded, after at most one repeat. */
  failures: string[];
}

/** What a writer was last told about each of its assets. */
interface Expected {
  status: string;
  title: string;
}

/** Sends a request; after a 412 or a 503 (waiting its Retry-After, at most 1 s) sends it once more. */
async function withOneRepeat(send: () => Promise<Response>, tally: Tally): Promise<Response> {
  await sleep(THINK_MS);
  const first = await send();
  if (first.status !== 412 && first.status !== 503) return first;
  tally.repeated++;
  if (first.status === 503) await sleep(Math.min(1_000, Number(first.headers['retry-after'] ?? 1) * 1_000));
  return send();
}

/** A client's pause between two requests: 16 clients keep a node busy without starving the machine's 2 cores. */
const THINK_MS = 10;

/** One client: create an asset, publish it, retitle it; again, until `running()` turns false. */
async function runWriter(
  client: Client,
  label: string,
  running: () => boolean,
  expected: Map<string, Expected>,
  tally: Tally,
): Promise<void> {
  const failed = (what: string, res: Response): void =>
    void tally.failures.push(`${label} ${what}: ${res.status} ${res.text.slice(0, 200)}`);
  for (let n = 0; running(); n++) {
    try {
      const title = `${label} asset ${n}`;
      const created = await withOneRepeat(() => client.post('/api/0.1/assets', { data: validAsset({ title }) }), tally);
      if (created.status !== 201) return failed('create', created);
      tally.acknowledged++;
      const id: string = created.json.data.id;
      const token: string = created.json.access.token;
      expected.set(id, { status: 'draft', title });
      const published = await withOneRepeat(
        () => client.patch(`/api/0.1/assets/${id}`, { data: { status: 'pending' } }, { token }),
        tally,
      );
      if (published.status !== 200) return failed('publish', published);
      tally.acknowledged++;
      expected.set(id, { status: 'pending', title });
      const retitled = await withOneRepeat(
        () => client.patch(`/api/0.1/assets/${id}`, { data: { title: `${title} again` } }, { token }),
        tally,
      );
      if (retitled.status !== 200) return failed('retitle', retitled);
      tally.acknowledged++;
      expected.set(id, { status: 'pending', title: `${title} again` });
    } catch (error) {
      tally.failures.push(`${label}: ${String(error)}`);
      return;
    }
  }
}

/** Resolves once the balancer sends a client of `node` to it (its checks have seen the node up). */
async function routedTo(cluster: Cluster, node: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const probe = new Client(cluster.url);
    // A cookie naming the node, not signed: whoever gets it answers 412 with a cookie of its own.
    probe.cookies.set('SERVER_ID', `${node}.probe.probe`);
    const res = await probe.get('/api/0.1/assets?limit=1');
    if (res.status === 412 && nodeOfCookie(probe.cookies.get('SERVER_ID') ?? '') === node) return;
    await sleep(200);
  }
  throw new Error(`the balancer did not route to ${node} within ${timeoutMs} ms`);
}

/** SIGTERM, a new process on the same port; the old one's exit status and how long its shutdown took. */
async function restart(
  node: ClusterNode,
): Promise<{ node: string; code: number | null; signal: string | null; shutdownMs: number }> {
  const old = node.process;
  const signalled = Date.now();
  let shutdownMs = 0;
  old.once('exit', () => (shutdownMs = Date.now() - signalled));
  await node.restart();
  return { node: node.name, code: old.exitCode, signal: old.signalCode, shutdownMs };
}

describe.skipIf(!HAPROXY)(
  !HAPROXY
    ? 'rolling restart: SKIPPED, haproxy is not installed (apt-get install haproxy)'
    : 'rolling restart behind HAProxy',
  () => {
    const scratch = useScratch();
    let cluster: Cluster | undefined;
    afterAll(async () => {
      await cluster?.stop();
    });

    it(`both nodes restarted one after the other under ${WRITERS} writers and ${STREAMS} streams: nothing lost, one repeat at most, streams resume`, async () => {
      cluster = await startTestCluster(scratch, { RATE_LIMIT_MAX: '100000000' });
      const balancer = cluster.url;

      const followers = Array.from({ length: STREAMS }, () => new StreamFollower(() => balancer));
      for (const follower of followers) follower.start();

      // Kept-alive connections to the balancer, as a client library keeps them.
      const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 30_000 });
      const tally: Tally = { acknowledged: 0, repeated: 0, failures: [] };
      const expected = new Map<string, Expected>();
      let writing = true;
      const writers = Array.from({ length: WRITERS }, (_, i) =>
        runWriter(
          new Client(httpTransport(balancer, agent), { key: KEYS.broker }),
          `writer ${i}`,
          () => writing,
          expected,
          tally,
        ),
      );

      const restarts = [];
      try {
        for (const deadline = Date.now() + 20_000; tally.acknowledged < 60 && Date.now() < deadline; ) await sleep(50);
        for (const node of cluster.nodes) {
          restarts.push(await restart(node));
          await routedTo(cluster, node.name);
          const before = tally.acknowledged;
          for (const deadline = Date.now() + 10_000; tally.acknowledged < before + 30 && Date.now() < deadline; )
            await sleep(50);
        }
      } finally {
        writing = false;
        await Promise.all(writers);
        await agent.close();
      }

      // The store as it is now, through the balancer: every acknowledged write is in it.
      const reader = new Client(balancer);
      const reads: Tally = { acknowledged: 0, repeated: 0, failures: [] };
      let lost = 0;
      const finalDates = new Map<string, string>();
      for (const [id, state] of expected) {
        const res = await withOneRepeat(() => reader.get(`/api/0.1/assets/${id}`), reads);
        if (res.status !== 200 || res.json.data.status !== state.status || res.json.data.title !== state.title) lost++;
        else if (state.status !== 'draft') finalDates.set(id, res.json.data.dateModified);
      }

      // Every stream gets the final version of every listed asset (bounded wait), then stops.
      const caughtUp = (follower: StreamFollower): boolean =>
        [...finalDates].every(([id, date]) => follower.lastSeen.get(id) === date);
      for (const deadline = Date.now() + 20_000; !followers.every(caughtUp) && Date.now() < deadline; )
        await sleep(100);
      const results = await Promise.all(followers.map((follower) => follower.stop()));
      const missing = followers.map(
        (follower) => [...finalDates].filter(([id, date]) => follower.lastSeen.get(id) !== date).length,
      );

      reportFigures('rolling restart', {
        writers: WRITERS,
        streams: STREAMS,
        assets: expected.size,
        acknowledged: tally.acknowledged,
        repeated: tally.repeated,
        lost,
        failures: tally.failures.length,
        shutdownMs: restarts.map((r) => r.shutdownMs),
        streamConnections: results.map((r) => r.connections),
        streamRefusals: results.map((r) => r.refusals),
        missedByStreams: missing,
      });
      const output = cluster.output().slice(-4_000);
      expect(tally.failures, output).toEqual([]);
      expect(lost, 'acknowledged writes missing from the store').toBe(0);
      for (const r of restarts) {
        expect({ node: r.node, code: r.code, signal: r.signal }, output).toEqual({
          node: r.node,
          code: 0,
          signal: null,
        });
        expect(r.shutdownMs, `${r.node}'s shutdown`).toBeLessThan(SHUTDOWN_BOUND_MS);
      }
      expect(missing, 'final versions a stream never received').toEqual(Array(STREAMS).fill(0));
      for (const result of results) {
        expect(result.duplicates).toBe(0);
        expect(result.outOfOrder).toBe(0);
        expect(result.broken).toEqual([]);
        // Each stream was ended by a restart at least once and resumed.
        expect(result.connections).toBeGreaterThanOrEqual(2);
      }
    }, 180_000);
  },
);
