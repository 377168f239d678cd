/**
 * The served cache stays exact across nodes (docs/decisions/0028-served-cache-exact-by-generations.md): a writer
 * reads its own write at once, the other node serves it within the feed's bound, and once the writes stop both
 * nodes serve the last acknowledged bytes. Both read everything first, so their caches hold what the writes change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHaproxy, type Cluster } from '../../scripts/cluster.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { startTestCluster } from './fixtures.js';

const HAPROXY = findHaproxy();
const ASSETS_PER_WRITER = 3;
const WRITERS_PER_NODE = 2;
const WRITE_MS = 4_000;
/** The feed's bound for another node's writes. */
const OTHER_NODE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Owned {
  id: string;
  token: string;
}

/** The number of a title `w<writer>-<n>`: a writer's writes of one asset are numbered in order. */
const titleNumber = (title: unknown) => Number(/-(\d+)$/.exec(String(title))?.[1] ?? -1);

describe.skipIf(!HAPROXY)('served cache: two nodes on one store stay exact under write load', () => {
  const scratch = useScratch();
  let cluster: Cluster;
  let nodeUrls: string[];

  beforeAll(async () => {
    cluster = await startTestCluster(scratch, {});
    nodeUrls = cluster.nodes.map((node) => `http://${node.host}:${node.port}`);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('own writes at once, the other node within 1 s, the same bytes everywhere after', async () => {
    const writers = nodeUrls.flatMap((url, node) =>
      Array.from({ length: WRITERS_PER_NODE }, (_, k) => ({
        node,
        name: `w${node}${k}`,
        client: new Client(url, { key: KEYS.broker }),
      })),
    );
    const readers = nodeUrls.map((url) => new Client(url));
    const owned = new Map<string, Owned[]>();
    for (const writer of writers) {
      const assets: Owned[] = [];
      for (let i = 0; i < ASSETS_PER_WRITER; i++) {
        const created = await createAsset(writer.client, validAsset({ title: `${writer.name}-0` }));
        await toPending(writer.client, created.id, created.token);
        assets.push({ id: created.id, token: created.token });
      }
      owned.set(writer.name, assets);
    }
    const allIds = [...owned.values()].flat().map((asset) => asset.id);

    /** Every asset and the feed's pages, from both nodes: their caches then hold all of it. */
    const readEverything = async () => {
      for (const reader of readers) {
        for (const id of allIds) expect((await reader.get(`/api/0.1/assets/${id}`)).status).toBe(200);
        expect((await reader.get('/api/0.1/assets?limit=5')).status).toBe(200);
        expect((await reader.get('/api/0.1/assets?descending=1&opt_fields=title')).status).toBe(200);
      }
    };
    await readEverything();

    const stale: string[] = [];
    const lags: number[] = [];
    let acknowledged = 0;
    // One node writes while the other only reads, then the other way round: a node that does not write itself
    // learns of the writes from the store's watch alone.
    for (const writingNode of [0, 1]) {
      const stopAt = Date.now() + WRITE_MS / 2;
      const background = (async () => {
        while (Date.now() < stopAt) await readEverything();
      })();

      await Promise.all(
        writers
          .filter((writer) => writer.node === writingNode)
          .map(async (writer) => {
            const other = readers[1 - writer.node]!;
            const assets = owned.get(writer.name)!;
            for (let n = 1; Date.now() < stopAt; n++) {
              const asset = assets[n % assets.length]!;
              const title = `${writer.name}-${n}`;
              const res = await writer.client.patch(
                `/api/0.1/assets/${asset.id}`,
                { data: { title } },
                { token: asset.token },
              );
              expect(res.status, res.text).toBe(200);
              const acked = Date.now();
              acknowledged++;

              const own = await writer.client.get(`/api/0.1/assets/${asset.id}`);
              if (titleNumber(own.json.data.title) < n)
                stale.push(`own node served ${own.json.data.title} after ${title} was acknowledged`);

              for (;;) {
                const seen = await other.get(`/api/0.1/assets/${asset.id}`);
                if (titleNumber(seen.json.data.title) >= n) {
                  lags.push(Date.now() - acked);
                  break;
                }
                if (Date.now() - acked > OTHER_NODE_MS) {
                  stale.push(`other node still served ${seen.json.data.title} ${OTHER_NODE_MS} ms after ${title}`);
                  break;
                }
                await sleep(5);
              }
            }
          }),
      );
      await background;
    }

    expect(stale).toEqual([]);
    expect(acknowledged).toBeGreaterThan(writers.length * ASSETS_PER_WRITER);
    lags.sort((a, b) => a - b);
    console.log(
      `[served cache] ${acknowledged} writes on two nodes; the other node served each after p50 ${lags[Math.floor(lags.length / 2)]} ms, ` +
        `max ${lags[lags.length - 1]} ms`,
    );

    // Settled: both nodes serve the same bytes, the last acknowledged writes, and the same feed.
    await sleep(OTHER_NODE_MS);
    for (const [name, assets] of owned) {
      for (const asset of assets) {
        const [first, second] = await Promise.all(readers.map((reader) => reader.get(`/api/0.1/assets/${asset.id}`)));
        expect(first!.text).toBe(second!.text);
        expect(String(first!.json.data.title).startsWith(`${name}-`)).toBe(true);
      }
    }
    for (const page of [
      '/api/0.1/assets?limit=5',
      '/api/0.1/assets?descending=1&opt_fields=title',
      '/api/0.1/assets?limit=1000',
    ]) {
      // The same page but for the links' origin, which is each node's own address here.
      const [first, second] = await Promise.all(readers.map((reader) => reader.get(page)));
      expect(first!.text.replaceAll(nodeUrls[0]!, '<origin>')).toBe(second!.text.replaceAll(nodeUrls[1]!, '<origin>'));
    }
    const feed = (await readers[0]!.get('/api/0.1/assets?limit=1000&opt_fields=title')).json.data as {
      id: string;
      title: string;
    }[];
    expect(new Set(feed.map((entry) => entry.id))).toEqual(new Set(allIds));
    for (const entry of feed) {
      const served = (await readers[1]!.get(`/api/0.1/assets/${entry.id}`)).json.data;
      expect(served.title).toBe(entry.title);
    }
  }, 60_000);
});
