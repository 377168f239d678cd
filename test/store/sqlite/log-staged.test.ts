/**
 * The embedded store's checkpoint goes out in two COMMITs, staged then published
 * (docs/decisions/0083-a-checkpoint-is-staged-synced-then-published.md): a checkpoint left staged when the machine
 * lost power after its publication was served is published again before the next start serves the log.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createAsset } from '../../helpers/fixtures.js';
import { checkpointOf, vkeyOf, waitForLogSize } from '../../helpers/log.js';
import { startServer, useScratch } from '../../helpers/server.js';

const scratch = useScratch();

interface State {
  size: number;
  root: Buffer;
  checkpoint: string;
  pending_size: number | null;
}

function readState(dataDir: string): State {
  const db = new Database(join(dataDir, 'registry.sqlite'), { readonly: true });
  try {
    return db.prepare<[], State>('SELECT size, root, checkpoint, pending_size FROM log_state WHERE id = 1').get()!;
  } finally {
    db.close();
  }
}

function onStore(dataDir: string, change: (db: Database.Database) => void): void {
  const db = new Database(join(dataDir, 'registry.sqlite'));
  try {
    change(db);
  } finally {
    db.close();
  }
}

/** A server on `dataDir` with three assets in its log, then two more: the two checkpoints' notes and state. */
async function twoCheckpoints(dataDir: string): Promise<{ vkey: string; first: State; second: State }> {
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    const vkey = await vkeyOf(server.anonymous);
    for (let i = 0; i < 3; i++) await createAsset(server.broker);
    await waitForLogSize(server.anonymous, vkey, 3);
    const first = readState(dataDir);
    for (let i = 0; i < 2; i++) await createAsset(server.broker);
    await waitForLogSize(server.anonymous, vkey, 5);
    return { vkey, first, second: readState(dataDir) };
  } finally {
    await server.close();
  }
}

describe.runIf(process.env.MONGODB_URI === undefined)('the log on the embedded store', () => {
  it('publishes each checkpoint it stages, leaving none staged', async () => {
    const dataDir = await scratch.dir('registry-log-staged-');
    const { first, second } = await twoCheckpoints(dataDir);
    expect([first.size, second.size]).toEqual([3, 5]);
    expect([first.pending_size, second.pending_size]).toEqual([null, null]);
  });

  it('publishes a checkpoint left staged before it serves the log, though another node holds the lease', async () => {
    const dataDir = await scratch.dir('registry-log-staged-');
    const { vkey, first, second } = await twoCheckpoints(dataDir);
    // As a power cut leaves it when the publication of 5 was served, then lost: 3 published, 5 staged, and the
    // lease held by a node that is gone, so no integrator of the next start publishes 5 in its stead.
    onStore(dataDir, (db) =>
      db
        .prepare(
          'UPDATE log_state SET size = ?, root = ?, checkpoint = ?, pending_size = ?, pending_root = ?, ' +
            "pending_checkpoint = ?, holder = 'gone', lease_until = ? WHERE id = 1",
        )
        .run(
          first.size,
          first.root,
          first.checkpoint,
          second.size,
          second.root,
          second.checkpoint,
          Date.now() + 60_000,
        ),
    );
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const served = await checkpointOf(server.anonymous, vkey);
      expect(served.size).toBe(5);
      expect(served.note).toBe(second.checkpoint);
      expect(readState(dataDir).pending_size).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('gives a log started before checkpoints were staged the columns it needs, and goes on', async () => {
    const dataDir = await scratch.dir('registry-log-staged-');
    const { vkey } = await twoCheckpoints(dataDir);
    onStore(dataDir, (db) => {
      for (const column of ['pending_size', 'pending_root', 'pending_checkpoint'])
        db.exec(`ALTER TABLE log_state DROP COLUMN ${column}`);
    });
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      await createAsset(server.broker);
      expect((await waitForLogSize(server.anonymous, vkey, 6)).size).toBe(6);
    } finally {
      await server.close();
    }
  });
});
