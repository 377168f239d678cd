/**
 * The integrator over the store's own log (docs/decisions/0066-log-order-and-integration.md), in this process as on
 * MongoDB and in a thread of its own as on the embedded store
 * (docs/decisions/0079-the-integrator-runs-in-a-thread-of-its-own.md): it starts the log with the empty tree,
 * appends entries in the order their writes committed, and publishes signed checkpoints whose root the entries give;
 * two integrators never publish two trees.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { logEntry } from '../../../src/domain/log/entry.js';
import { openNote, parseCheckpoint, parseVerifierKey } from '../../../src/domain/log/note.js';
import { logIdentity, type LogIdentity } from '../../../src/services/log/identity.js';
import { LogIntegrator, type IntegratorLog } from '../../../src/services/log/integrator.js';
import { IntegratorThread } from '../../../src/services/log/integrator-thread.js';
import { ensureSigningKey } from '../../../src/services/signing.js';
import { openLogSource, openStore } from '../../../src/store/index.js';
import type { AssetStore } from '../../../src/store/types.js';
import { DRAFT_ZONE, draftAt, written } from '../../store/fixtures/drafts.js';
import { useScratch } from '../../helpers/server.js';

const scratch = useScratch();
const onMongo = process.env.MONGODB_URI !== undefined;

interface Running {
  stop(): Promise<void>;
}
const running: { store?: AssetStore; integrators: Running[] } = { integrators: [] };

afterEach(async () => {
  // In order: a log opened again is closed after the integrator working on it has stopped.
  for (const integrator of running.integrators.splice(0)) await integrator.stop();
  await running.store?.close();
  running.store = undefined;
});

async function freshStore(): Promise<{ store: AssetStore; dataDir: string }> {
  const { dataDir } = await scratch.dataDir('registry-integrator-');
  const store = await openStore({ dataDir, mongodbUri: scratch.mongoUri(), timeZone: DRAFT_ZONE });
  running.store = store;
  return { store, dataDir };
}

function identityIn(dataDir: string, file = 'log.key'): LogIdentity {
  return logIdentity(ensureSigningKey(join(dataDir, file), 'the transparency log key').key, {
    origin: 'registry.test/log',
    publicUrl: undefined,
  });
}

/** Every line logged, by level. */
function recordingLog(): IntegratorLog & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    error: (_details, message) => lines.push({ level: 'error', message }),
    info: (_details, message) => lines.push({ level: 'info', message }),
  };
}

async function createAssets(store: AssetStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await store.create((stamp) => written(draftAt(stamp)))).id);
  return ids;
}

async function waitForSize(store: AssetStore, size: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await store.log.head()).size < size) {
    if (Date.now() > deadline) throw new Error(`the log stayed short of ${size} entries`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 6962 §2.1's MTH, written out here rather than taken from the registry's own tree code. */
function rootOf(entries: Buffer[]): Buffer {
  if (entries.length === 0) return sha256();
  if (entries.length === 1) return sha256(Buffer.from([0]), entries[0]!);
  let split = 1;
  while (split * 2 < entries.length) split *= 2;
  return sha256(Buffer.from([1]), rootOf(entries.slice(0, split)), rootOf(entries.slice(split)));
}

/** The log's head: its checkpoint verified with `identity`'s key, for the root the entries give. */
async function expectHeadOfEntries(store: AssetStore, identity: LogIdentity, size: number): Promise<Buffer[]> {
  const head = await store.log.head();
  expect(head.size).toBe(size);
  const entries = await store.log.entries(0, size);
  expect(head.root).toEqual(rootOf(entries));
  const text = openNote(head.checkpoint!, parseVerifierKey(identity.vkey)!);
  expect(text).toBeDefined();
  expect(parseCheckpoint(text!)).toEqual({ origin: identity.origin, size, root: rootOf(entries) });
  return entries;
}

describe('the log integrator', () => {
  it('in this process: two integrators publish one tree of the writes in commit order', async () => {
    const { store, dataDir } = await freshStore();
    const identity = identityIn(dataDir);
    // On SQLite the second works on the log opened again from its source, as the integrator's thread opens it.
    const reopened = store.logSource === undefined ? undefined : await openLogSource(store.logSource);
    const integrators = [store.log, reopened ?? store.log].map(
      (log) => new LogIntegrator(log, identity, recordingLog()),
    );
    running.integrators.push(...integrators, { stop: async () => reopened?.close() });
    await Promise.all(integrators.map((integrator) => integrator.start()));
    await expectHeadOfEntries(store, identity, 0);

    const ids = await createAssets(store, 5);
    const before = (await store.get(ids[0]!))!;
    await store.update(before.id, before.rev, (stamp) =>
      written(draftAt(stamp, { id: before.id, title: 'renamed' }), before.asset),
    );
    await waitForSize(store, 6);

    const entries = await expectHeadOfEntries(store, identity, 6);
    const revisions = await Promise.all(
      [...ids, ids[0]!].map(async (id, i) => {
        const history = (await store.revisions(id, 0, 10))!;
        return { id, revision: history[i === 5 ? 1 : 0]! };
      }),
    );
    expect(entries).toEqual(revisions.map(({ id, revision }) => logEntry(id, revision)));
  });

  it.runIf(!onMongo)(
    'in a thread of its own: integrates, reports through the node, and ends when stopped',
    async () => {
      const { store, dataDir } = await freshStore();
      const identity = identityIn(dataDir);
      const thread = new IntegratorThread({ source: store.logSource!, identity }, recordingLog());
      running.integrators.push(thread);
      await thread.start();
      await expectHeadOfEntries(store, identity, 0);
      await createAssets(store, 3);
      await waitForSize(store, 3);
      await expectHeadOfEntries(store, identity, 3);

      // A node with another key: its thread's error reaches the node's log.
      const otherLog = recordingLog();
      const other = new IntegratorThread(
        { source: store.logSource!, identity: identityIn(dataDir, 'other.key') },
        otherLog,
      );
      running.integrators.push(other);
      await other.start();
      expect(otherLog.lines).toEqual([{ level: 'error', message: expect.stringMatching(/key is not the log's/) }]);

      await Promise.all(running.integrators.splice(0).map((integrator) => integrator.stop()));
      await createAssets(store, 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await store.log.head()).size).toBe(3);
    },
  );

  it.runIf(!onMongo)('a thread that ends unasked is started again, and the node is told', async () => {
    const { store, dataDir } = await freshStore();
    const log = recordingLog();
    const thread = new IntegratorThread({ source: store.logSource!, identity: identityIn(dataDir) }, log);
    running.integrators.push(thread);
    await thread.start();
    // Ended from outside, as a crash would end it.
    await (thread as unknown as { worker: Worker }).worker.terminate();
    await createAssets(store, 2);
    await waitForSize(store, 2);
    expect(log.lines).toEqual([{ level: 'error', message: expect.stringMatching(/thread ended; it starts again/) }]);
  });
  it('logs each kind of failure once a spell, and when the log is integrated again', async () => {
    const { store, dataDir } = await freshStore();
    const failures = ['the disk is full', 'the disk is full', 'the lock is held', 'the disk is full'];
    // The store's own log, failing as a full disk makes it fail, for the first passes.
    const failing = {
      ...store.log,
      head: () => (failures.length > 0 ? Promise.reject(new Error(failures.shift())) : store.log.head()),
    };
    const log = recordingLog();
    const integrator = new LogIntegrator(failing, identityIn(dataDir), log);
    running.integrators.push(integrator);
    await integrator.start();
    await createAssets(store, 1);
    await waitForSize(store, 1);
    expect(log.lines).toEqual([
      { level: 'error', message: 'the transparency log could not be integrated' },
      { level: 'error', message: 'the transparency log could not be integrated' },
      { level: 'info', message: 'the transparency log is integrated again' },
    ]);
  });
});
