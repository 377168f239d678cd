/**
 * One log however many nodes serve it (docs/decisions/0066-log-order-and-integration.md): two nodes on one store,
 * both written to, publish one log that the Go verifier accepts from either, each revision in a checkpoint within
 * 2 s of its answer whichever node wrote it; a restart never takes it back; a node whose key is not the log's does
 * not sign, and serves the log as the node with the log's key signs it (decisions.md §17).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyConsistency } from '../../src/domain/log/merkle.js';
import { Client } from '../helpers/client.js';
import { createAsset } from '../helpers/fixtures.js';
import { readHistory } from '../helpers/history.js';
import {
  checkpointOf,
  LOG,
  rootOfServedTree,
  servedHashes,
  vkeyOf,
  waitForLogIndexes,
  waitForLogSize,
} from '../helpers/log.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { buildVerifier, findGo, type Verifier } from '../log/verifier.js';
import { randomWrites } from '../log/workload.js';
import { consistencyProof } from '../../src/domain/log/merkle.js';
import { sleep } from './fixtures/common.js';
import { killAllChildren, prepareStore, startChild } from './fixtures/child-server.js';

const go = findGo();

/** The later checkpoint read from `client` extends the earlier one (RFC 6962 consistency, from the served tiles). */
async function expectConsistent(
  client: Client,
  earlier: { size: number; root: Buffer },
  later: { size: number; root: Buffer },
) {
  expect(later.size).toBeGreaterThanOrEqual(earlier.size);
  const proof =
    earlier.size === 0 || earlier.size === later.size
      ? []
      : await consistencyProof(servedHashes(client, later.size), earlier.size, later.size);
  expect(verifyConsistency(earlier.size, later.size, earlier.root, later.root, proof)).toBe(true);
}

describe('the log with several nodes and restarts', () => {
  const scratch = useScratch();
  let verify: Verifier | undefined;
  beforeAll(async () => {
    if (go !== undefined) verify = await buildVerifier(go, scratch);
  }, 300_000);
  afterAll(() => killAllChildren());

  it('two nodes on one store publish one log, each write in a checkpoint within 2 s whichever node took it', async () => {
    const store = await prepareStore(scratch);
    const a = await startChild(store, { serverId: 'node-a' });
    const b = await startChild(store, { serverId: 'node-b' });
    const [readerA, readerB] = [new Client(a.url), new Client(b.url)];
    const vkey = await vkeyOf(readerA);
    expect(await vkeyOf(readerB)).toBe(vkey);
    const writes = [randomWrites(a.url, 1), randomWrites(b.url, 2)];
    await sleep(1000);
    // A tree the writes have begun, whatever the machine's pace: the consistency checked below is then a proof.
    const middle = await waitForLogSize(readerB, vkey, 1);
    const kept = join(await scratch.dir('checkpoints-'), 'middle');
    await writeFile(kept, middle.note);
    // Whichever node answers a write, the other node's checkpoint holds it within 2 s.
    for (const [writer, reader] of [
      [a, readerB],
      [b, readerA],
    ] as const) {
      const { id } = await createAsset(new Client(writer.url, { key: KEYS.broker }));
      await waitForLogIndexes(reader, [id], 2000);
    }
    await sleep(1000);
    await Promise.all(writes.map((workload) => workload.stop()));
    const assets = writes.flatMap((workload) => [...workload.assets]);
    await waitForLogIndexes(readerA, assets);
    const fromA = await checkpointOf(readerA, vkey);
    const fromB = await waitForLogSize(readerB, vkey, fromA.size);
    expect(fromB.root).toEqual(fromA.root);
    expect(await rootOfServedTree(readerB, fromB.size)).toEqual(fromB.root);
    await expectConsistent(readerA, middle, fromA);
    // Every revision has its own index: one log, no entry twice.
    const indexes = (await Promise.all(assets.map((id) => readHistory(readerB, id)))).flat().map((r) => r.logIndex);
    expect(new Set(indexes).size).toBe(indexes.length);
    if (verify !== undefined) {
      for (const node of [a, b]) {
        const run = await verify([
          '-log',
          `${node.url}${LOG}`,
          '-vkey',
          vkey,
          '-previous',
          kept,
          '-assets',
          assets.join(','),
        ]);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
      }
    }
    await Promise.all([a.stop(), b.stop()]);
  }, 120_000);

  it('never goes back across restarts: each checkpoint after one extends it', async () => {
    const store = await prepareStore(scratch);
    let node = await startChild(store);
    const vkey = await vkeyOf(new Client(node.url));
    let earlier = await checkpointOf(new Client(node.url), vkey);
    for (let round = 0; round < 3; round++) {
      const writes = randomWrites(node.url, 10 + round, 2);
      await sleep(500);
      await writes.stop();
      await waitForLogIndexes(new Client(node.url), [...writes.assets]);
      const before = await checkpointOf(new Client(node.url), vkey);
      await expectConsistent(new Client(node.url), earlier, before);
      await node.stop();
      node = await startChild(store, { port: Number(new URL(node.url).port) });
      const after = await checkpointOf(new Client(node.url), vkey);
      expect(after.size).toBeGreaterThanOrEqual(before.size);
      await expectConsistent(new Client(node.url), before, after);
      earlier = after;
    }
    await node.stop();
  }, 120_000);

  it("a node whose key is not the log's does not sign, and serves the log as the node with its key signs it", async () => {
    const store = await prepareStore(scratch);
    const signer = await startChild(store, { serverId: 'node-a' });
    const vkey = await vkeyOf(new Client(signer.url));
    const otherKeyFile = join(await scratch.dir('other-key-'), 'log.key');
    const stranger = await startChild(store, { serverId: 'node-b', env: { LOG_KEY_FILE: otherKeyFile } });
    const reader = new Client(stranger.url);
    expect(await vkeyOf(reader)).toBe(vkey);
    const deadline = Date.now() + 5000;
    while (!/transparency log key is not the log's/.test(stranger.stderr()) && Date.now() < deadline) await sleep(50);
    expect(stranger.stderr()).toMatch(/transparency log key is not the log's/);
    expect(stranger.stderr()).not.toMatch(/PRIVATE KEY/);
    // Its writes are signed by the node with the log's key ...
    const broker = new Client(stranger.url, { key: KEYS.broker });
    const first = await createAsset(broker);
    await waitForLogIndexes(reader, [first.id]);
    // ... and by no one while that node is away.
    await signer.stop();
    const held = await checkpointOf(reader, vkey);
    const second = await createAsset(broker);
    await sleep(2500);
    const [revision] = await readHistory(reader, second.id);
    expect(revision!.logIndex).toBeUndefined();
    const still = await checkpointOf(reader, vkey);
    expect(still.size).toBe(held.size);
    expect(still.note).toBe(held.note);
    const back = await startChild(store, { serverId: 'node-a' });
    await waitForLogIndexes(reader, [second.id]);
    await Promise.all([back.stop(), stranger.stop()]);
  }, 120_000);
});
