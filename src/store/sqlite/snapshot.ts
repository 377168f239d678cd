/**
 * A consistent copy of the embedded store's database while nodes write to it, and its preparation after a restore
 * (docs/decisions/0049-backup-while-serving.md). `VACUUM INTO` reads one snapshot (a read transaction: in WAL mode
 * writers go on, the WAL only grows until it ends), so the copy holds each write wholly or not at all: its asset,
 * its revision and its log entry commit together.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'registry.sqlite';

/** What a copy holds, as the backup and restore commands print it. */
export interface StoreCounts {
  assets: number;
  revisions: number;
  documents: number;
  transfers: number;
  logEntries: number;
}

/** The store's database file in `dataDir`, or undefined when there is none. */
export function databaseIn(dataDir: string): string | undefined {
  const file = join(dataDir, DATABASE_FILE);
  return existsSync(file) ? file : undefined;
}

/** Copies the database at `file` into the new file `target` (one snapshot of it). */
export function snapshotDatabase(file: string, target: string): void {
  // A connection of its own that only reads: the busy timeout covers a writer switching the journal at first start.
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}

export function countsOf(file: string): StoreCounts {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    // A store last served by a version before the log (or before transfers) has not got their tables yet.
    const count = (table: string, sql: string) =>
      tables.has(table) ? ((db.prepare(sql).pluck().get() as number | null) ?? 0) : 0;
    return {
      assets: count('assets', 'SELECT count(*) FROM assets'),
      revisions: count('revisions', 'SELECT count(*) FROM revisions'),
      documents: count('assets', "SELECT sum(json_array_length(doc, '$.documents')) FROM assets"),
      transfers: count('transfers', 'SELECT count(*) FROM transfers'),
      logEntries: count('log_leaves', 'SELECT count(*) FROM log_leaves'),
    };
  } finally {
    db.close();
  }
}

/**
 * A restored copy: the log's lease named a process of the backed-up registry, which serves nothing here; cleared,
 * the first node started on the copy integrates and signs at once. The rest is kept as it was.
 */
export function prepareRestoredDatabase(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const hasLog = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_state'").get();
    if (hasLog !== undefined) db.prepare('UPDATE log_state SET holder = NULL, lease_until = NULL').run();
  } finally {
    db.close();
  }
}
