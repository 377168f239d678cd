/**
 * `<dataDir>/registry.sqlite`, shared by the processes of one machine, with two connections. better-sqlite3 is
 * synchronous and SQLite's busy handler sleeps inside the call, so the write connection never waits there: the
 * write queue retries on a timer instead (write-queue.ts; docs/decisions/0021-sqlite-stamps-under-one-write-lock.md).
 * Opening brings the file up to date.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startCheckpointer } from './checkpointer.js';
import { SCHEMA } from './indexes.js';
import { prepareLog } from './log.js';
import { addLaterColumns, giveHistories, keepDocumentsInWireFormat } from './migrations.js';
import { walSync } from './wal-sync.js';
import { WRITE_WAIT_MS } from './write-queue.js';
import { StorageFullError, type StoreRefusal } from '../types.js';

const READ_BUSY_TIMEOUT_MS = 60_000;

export interface Connection {
  db: Database.Database;
  writer: Database.Database;
  /** Resolves once everything committed before the call is on the disk. */
  syncWal(): Promise<void>;
  /** A checkpoint's failure, the first of each run of them (checkpointer.ts). */
  onBackgroundFailure(listener: (message: string) => void): void;
  close(): Promise<void>;
}

export function openConnection(dataDir: string): Connection {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'registry.sqlite');
  const db = new Database(file, { timeout: READ_BUSY_TIMEOUT_MS });
  // Another process may be creating the same file: blocking is fine at start-up.
  switchToWal(db);
  db.transaction(() => {
    db.exec(SCHEMA);
    addLaterColumns(db);
    keepDocumentsInWireFormat(db);
  }).immediate();
  giveHistories(db);
  prepareLog(db);
  const writer = new Database(file, { timeout: 0 });
  // Durable against a power cut as `synchronous = FULL`, but synced by `syncWal` on libuv's thread pool after
  // COMMIT, so the event loop goes on serving while the disk works.
  writer.pragma('synchronous = NORMAL');
  // Checkpoints sync the database file too: in a worker thread (checkpointer.ts), never inside a COMMIT.
  writer.pragma('wal_autocheckpoint = 0');
  const wal = openSync(`${file}-wal`, 'r');
  const syncWal = walSync(wal);
  // Kept until a listener comes: a failure at start-up is not lost.
  const early: string[] = [];
  let report = (message: string): void => void early.push(message);
  const checkpointer = startCheckpointer(file, { onError: (message) => report(message) });
  // Random ids spread inserts over the primary-key tree: a larger page cache keeps bulk seeding fast.
  writer.pragma('cache_size = -65536');
  return {
    db,
    writer,
    syncWal,
    onBackgroundFailure(listener) {
      report = listener;
      for (const message of early.splice(0)) listener(message);
    },
    async close() {
      await checkpointer.close();
      closeSync(wal);
      writer.close();
      db.close();
    },
  };
}

/** SQLite answers this pragma "locked" at once while another process switches the same new file: tried again. */
function switchToWal(db: Database.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + WRITE_WAIT_MS; ; ) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_BUSY' || Date.now() >= deadline)
        throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/**
 * Codes of a file system without room: SQLite's own, the system's (the WAL's sync, the files' folder), and the WAL
 * index (`-shm`) that could not grow, as a long WAL needs on a full disk.
 */
const FULL = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT']);

/** A full file system refuses writes (503, `Storage full`); reads go on (refusals.ts). */
export function sqliteRefusal(error: unknown): StoreRefusal | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && FULL.has(code)) return new StorageFullError(String(error), { cause: error });
  return undefined;
}
