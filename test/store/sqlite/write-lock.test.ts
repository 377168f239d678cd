/** The embedded store's write lock, met held (src/store/sqlite/write-queue.ts, docs/decisions/0082). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retryPauseMs, withWriteLock } from '../../../src/store/sqlite/write-queue.js';
import { StoreBusyError } from '../../../src/store/types.js';

describe('retryPauseMs', () => {
  it('tries again at once the first time', () => {
    expect(retryPauseMs(0)).toBe(0);
  });

  it('then pauses at random within a bound that doubles up to 8 ms', () => {
    for (const [attempt, bound] of [
      [1, 1],
      [2, 2],
      [3, 4],
      [4, 8],
      [5, 8],
      [30, 8],
    ] as const) {
      for (let i = 0; i < 50; i++) {
        const pause = retryPauseMs(attempt);
        expect(pause).toBeGreaterThanOrEqual(bound / 2);
        expect(pause).toBeLessThanOrEqual(bound);
      }
    }
  });
});

describe('withWriteLock', () => {
  let dir: string;
  let holder: Database.Database;
  let writer: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-lock-'));
    const file = join(dir, 'lock.sqlite');
    holder = new Database(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE t (n INTEGER)');
    writer = new Database(file, { timeout: 0 });
  });

  afterEach(() => {
    if (holder.inTransaction) holder.exec('ROLLBACK');
    holder.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = () => writer.transaction(() => writer.prepare('INSERT INTO t VALUES (1)').run()).immediate();

  it('writes once another connection lets the lock go, having tried again meanwhile', async () => {
    holder.exec('BEGIN IMMEDIATE');
    let tries = 0;
    setTimeout(() => holder.exec('COMMIT'), 30);
    await withWriteLock(() => {
      tries++;
      return insert();
    }, 5_000);
    expect(tries).toBeGreaterThan(2);
    expect(holder.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);
  });

  it('refuses, having written nothing, when the lock is held past the wait', async () => {
    holder.exec('BEGIN IMMEDIATE');
    await expect(withWriteLock(insert, 50)).rejects.toBeInstanceOf(StoreBusyError);
    holder.exec('COMMIT');
    expect(holder.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });
});
