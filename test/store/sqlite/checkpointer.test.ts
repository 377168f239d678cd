/**
 * The embedded store's WAL under steady writes (src/store/sqlite/checkpointer.ts,
 * docs/decisions/0080-the-wal-is-bounded.md): PASSIVE checkpoints alone let it grow for as long as the writes go on;
 * past its bound it is emptied. A checkpoint that fails reaches the store's listener, once a run of failures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../../src/store/sqlite/checkpointer.js';
import { openEmbeddedStore } from '../../../src/store/sqlite/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An embedded store with its failures collected, and another connection to its file. */
function storeWatched() {
  const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  dirs.push(dir);
  const store = openEmbeddedStore({ dataDir: dir, timeZone: 'UTC' });
  const file = join(dir, 'registry.sqlite');
  const failures: string[] = [];
  store.onBackgroundFailure!((message) => failures.push(message));
  return { store, file, other: new Database(file), failures };
}

/** Writes 4-KiB rows for `ms` with a read between transactions; answers every WAL size seen and the bytes written. */
async function steadyWrites(maxWalFrames: number, ms: number): Promise<{ sizes: number[]; written: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  dirs.push(dir);
  const file = join(dir, 'store.sqlite');
  const writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body BLOB)');
  const reader = new Database(file, { readonly: true });
  const count = reader.prepare('SELECT count(*) FROM rows').pluck();
  const insert = writer.prepare('INSERT INTO rows (body) VALUES (?)');
  const batch = writer.transaction(() => {
    for (let i = 0; i < 8; i++) insert.run(Buffer.alloc(4096, i));
  });
  const checkpointer = startCheckpointer(file, { maxWalFrames });
  const sizes: number[] = [];
  let written = 0;
  const until = Date.now() + ms;
  try {
    while (Date.now() < until) {
      batch();
      written += 8 * 4096;
      count.get();
      sizes.push(statSync(`${file}-wal`).size);
      await nextTurn();
    }
  } finally {
    await checkpointer.close();
    reader.close();
    writer.close();
  }
  return { sizes, written };
}

const shrinks = (sizes: number[]) => sizes.filter((size, i) => i > 0 && size < sizes[i - 1]!).length;

describe('the checkpointer', () => {
  it('without a bound on the WAL, steady writes only make it grow', async () => {
    const { sizes } = await steadyWrites(Number.POSITIVE_INFINITY, 1500);
    expect(shrinks(sizes)).toBe(0);
    expect(sizes.at(-1)).toBeGreaterThan(sizes[0]!);
  });

  it('empties a WAL past its bound while the writes go on', async () => {
    const { sizes, written } = await steadyWrites(256, 1500);
    expect(shrinks(sizes)).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThan(written);
  });

  it('copies the WAL again once a failing cause is gone, though no checkpoint had succeeded before', async () => {
    const { store, file, other, failures } = storeWatched();
    const emptySize = statSync(file).size;
    try {
      execFileSync('chattr', ['+i', file]);
      try {
        other.exec('CREATE TABLE scratch (body BLOB)');
        other.prepare('INSERT INTO scratch VALUES (?)').run(Buffer.alloc(64 * 1024));
        while (failures.length === 0) await sleep(50);
      } finally {
        execFileSync('chattr', ['-i', file]);
      }
      for (let waited = 0; statSync(file).size <= emptySize && waited < 3000; waited += 50) await sleep(50);
      expect(statSync(file).size).toBeGreaterThan(64 * 1024);
    } finally {
      other.close();
      await store.close();
    }
  });

  it("reports a failing checkpoint to the store's listener, the first of each run of failures", async () => {
    const { store, file, other, failures } = storeWatched();
    /** The database file made immutable (even to root) while frames wait in the WAL: a checkpoint cannot copy them. */
    const failFor = async (ms: number) => {
      execFileSync('chattr', ['+i', file]);
      try {
        other.prepare('INSERT INTO scratch VALUES (?)').run(Buffer.alloc(64 * 1024));
        await sleep(ms);
      } finally {
        execFileSync('chattr', ['-i', file]);
      }
    };
    try {
      other.exec('CREATE TABLE scratch (body BLOB)');
      // The first checkpoint done: the store's pages are in the file.
      while (statSync(file).size <= 4096) await sleep(50);
      // Several checkpoints fail (one every 200 ms): one report.
      await failFor(1500);
      expect(failures).toEqual([expect.stringMatching(/disk I\/O error/)]);
      await sleep(600);
      expect(failures).toHaveLength(1);
      await failFor(1000);
      expect(failures).toHaveLength(2);
    } finally {
      other.close();
      await store.close();
    }
  });
});
