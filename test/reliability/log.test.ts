/**
 * The transparency log through what a registry lives through (decisions.md §17,
 * docs/decisions/0066-log-order-and-integration.md): an import of the original's database, then random creates,
 * PATCHes, documents and transfers from several clients, a kill -9 in the middle of them, and a restart. The Go
 * verifier (test/log/verifier/) then accepts the log: every entry included, every revision of every asset at its
 * logIndex, and the log consistent with the checkpoint read just before the kill (it never went back). The imported
 * revisions are the log's first entries, in import order.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAssets, ORIGINAL_TZ } from '../../bench/original.js';
import { startCouch } from '../../bench/couchdb.js';
import { nowMicros } from '../../src/domain/dates.js';
import { Client } from '../helpers/client.js';
import { LOG, servedEntries, vkeyOf, waitForLogIndexes, waitForLogSize } from '../helpers/log.js';
import { useScratch } from '../helpers/server.js';
import { buildVerifier, findGo, type Verifier } from '../log/verifier.js';
import { randomWrites } from '../log/workload.js';
import { sleep } from './fixtures/common.js';
import { killAllChildren, prepareStore, startChild, type SharedStore } from './fixtures/child-server.js';

const go = findGo();
const IMPORTED = 12;
const IMPORTED_REVISIONS = 3;
/** On MongoDB a write cut off by the kill holds its tick until its lease ends (30 s): nothing after it is logged before. */
const AFTER_KILL_MS = process.env.MONGODB_URI ? 40_000 : 2_000;
/** Writes each run waits for before it goes on (the check below wants more than 10 in all), and for how long. */
const WRITES_PER_RUN = 6;
const REACH_MS = 30_000;

function runImport(store: SharedStore, from: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      ...process.env,
      DATA_DIR: store.dataDir,
      TZ: ORIGINAL_TZ,
      LOG_LEVEL: 'silent',
    };
    if (store.mongodbUri) env.MONGODB_URI = store.mongodbUri;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', '--from', from], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

if (go === undefined) {
  it.skip('the log through an import and a kill -9: skipped because Go is not installed here', () => {});
} else {
  describe('the transparency log through an import, random writes and a kill -9', () => {
    const scratch = useScratch();
    let verify: Verifier;
    beforeAll(async () => {
      verify = await buildVerifier(go, scratch);
    }, 300_000);
    afterAll(() => killAllChildren());

    it('is accepted by the Go verifier, imported revisions first in import order, never going back', async () => {
      const seed = Math.floor(Math.random() * 2 ** 31);
      const store = await prepareStore(scratch);
      const couch = await startCouch();
      const originals = generateAssets(IMPORTED, IMPORTED_REVISIONS, nowMicros() - 86_400_000_000);
      const database = `original-${seed}`;
      await couch.seed(database, originals);
      const imported = await runImport(store, couch.databaseUrl(database));
      await couch.close();
      expect(imported.code, imported.output).toBe(0);

      let node = await startChild(store);
      const reader = new Client(node.url);
      const vkey = await vkeyOf(reader);
      const start = await waitForLogSize(reader, vkey, IMPORTED * IMPORTED_REVISIONS);
      const entries = (await servedEntries(reader, IMPORTED * IMPORTED_REVISIONS)).map((entry) =>
        JSON.parse(entry.toString('utf8')),
      );
      expect(entries.map(({ asset, rev }) => `${asset}/${rev}`)).toEqual(
        originals.flatMap((doc) => [1, 2, 3].map((rev) => `${doc._id}/${rev}`)),
      );

      const first = randomWrites(node.url, seed);
      await sleep(1500);
      await first.reach(WRITES_PER_RUN, REACH_MS);
      const beforeKill = await waitForLogSize(reader, vkey, start.size);
      const kept = join(await scratch.dir('checkpoints-'), 'before-kill');
      await writeFile(kept, beforeKill.note);
      await sleep(300);
      await node.kill9();
      await first.stop();
      node = await startChild(store, { port: Number(new URL(node.url).port) });
      const second = randomWrites(node.url, seed + 1);
      await sleep(1500);
      await second.reach(WRITES_PER_RUN, REACH_MS);
      await second.stop();
      const assets = [...first.assets, ...second.assets, ...originals.map((doc) => String(doc._id))];
      await waitForLogIndexes(new Client(node.url), assets, AFTER_KILL_MS).catch((error: unknown) => {
        throw new Error(`${String(error)} (seed ${seed}); the node's log:\n${node.stderr()}`);
      });
      const log = `${node.url}${LOG}`;
      const run = await verify(['-log', log, '-vkey', vkey, '-previous', kept, '-assets', assets.join(',')]);
      expect(run.stderr, `seed ${seed}`).toBe('');
      expect(run.code).toBe(0);
      expect(run.summary!.size).toBeGreaterThanOrEqual(beforeKill.size);
      expect(first.acknowledged + second.acknowledged, `seed ${seed}`).toBeGreaterThan(10);
      await node.stop();
    }, 180_000);
  });
}
