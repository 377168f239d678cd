/**
 * The transparency log in the embedded store (docs/decisions/0066-log-order-and-integration.md). A write gives its
 * revision the next log index, and its entry, in its own transaction (`log_leaves`): under the single write lock the
 * indexes follow the commit order, across processes, and a crash keeps the revision and its index or neither. The
 * integrator appends them to the tree on a connection of its own in two COMMITs: the first stages the tiles and the
 * next checkpoint, the WAL is synced with no lock held, and the second publishes the staged checkpoint; so a
 * checkpoint is never visible before it, and every entry it covers, is on the disk
 * (docs/decisions/0083-a-checkpoint-is-staged-synced-then-published.md).
 */
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Revision } from '../../domain/history.js';
import { logEntries, logEntry } from '../../domain/log/entry.js';
import type { LogBatch, LogStore } from '../log.js';
import { addMissingColumns } from './migrations.js';
import { syncWalFileNow, walSync } from './wal-sync.js';
import { withWriteLock } from './write-queue.js';

const LOG_SCHEMA = `
  -- The log's order: a row per revision, numbered from 0 as writes commit; an imported revision brings its entry.
  -- A revision finds its row by its own log_idx: no index on (asset_id, rev) here, whose random keys would cost
  -- every write another page (docs/decisions/0078-a-revision-holds-its-log-index.md).
  CREATE TABLE IF NOT EXISTS log_leaves (
    idx INTEGER PRIMARY KEY,
    asset_id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    entry BLOB
  );
  -- Integrated entries the leaf row does not hold (those the integrator computed), as the entry bundles serve them.
  CREATE TABLE IF NOT EXISTS log_entries (
    idx INTEGER PRIMARY KEY,
    entry BLOB NOT NULL
  );
  -- Hash tiles: level, index, and the hashes they hold (a partial tile is rewritten as it grows).
  CREATE TABLE IF NOT EXISTS log_tiles (
    level INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    hashes BLOB NOT NULL,
    PRIMARY KEY (level, idx)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS log_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    size INTEGER NOT NULL,
    root BLOB,
    checkpoint TEXT,
    vkey TEXT,
    holder TEXT,
    lease_until INTEGER,
    pending_size INTEGER,
    pending_root BLOB,
    pending_checkpoint TEXT
  );
`;

/** The staged checkpoint's columns, which a log started by an earlier version gets at its next start. */
const STAGED_COLUMNS: readonly [name: string, definition: string][] = [
  ['pending_size', 'INTEGER'],
  ['pending_root', 'BLOB'],
  ['pending_checkpoint', 'TEXT'],
];

/** Publishes the staged checkpoint, if it is still the next one. */
const PUBLISH_STAGED =
  'UPDATE log_state SET size = pending_size, root = pending_root, checkpoint = pending_checkpoint, ' +
  'pending_size = NULL, pending_root = NULL, pending_checkpoint = NULL WHERE id = 1 AND pending_size IS NOT NULL';

/**
 * The log's tables; on the first start of a version with the log, the revisions already stored become its first
 * entries, by asset id and `rev` (docs/decisions/0066-log-order-and-integration.md).
 */
export function prepareLog(db: Database.Database): void {
  db.transaction(() => {
    db.exec(LOG_SCHEMA);
    addMissingColumns(db, 'log_state', STAGED_COLUMNS);
    if (db.prepare('SELECT 1 FROM log_state WHERE id = 1').get() !== undefined) return;
    db.exec(
      'UPDATE revisions SET log_idx = n.idx FROM ' +
        '(SELECT asset_id, rev, row_number() OVER (ORDER BY asset_id, rev) - 1 AS idx FROM revisions) AS n ' +
        'WHERE revisions.asset_id = n.asset_id AND revisions.rev = n.rev',
    );
    db.exec('INSERT INTO log_leaves (idx, asset_id, rev) SELECT log_idx, asset_id, rev FROM revisions');
    db.exec('INSERT INTO log_state (id, size) VALUES (1, 0)');
  }).immediate();
  publishStagedAtStart(db);
}

/**
 * A checkpoint staged when its integrator stopped (killed, or the machine lost power between the two COMMITs, the
 * second perhaps served and then lost) is published before this process serves the log, once the WAL that holds it
 * is synced: a checkpoint once served is never followed by a smaller one.
 */
function publishStagedAtStart(db: Database.Database): void {
  const staged = db.prepare<[], number | null>('SELECT pending_size FROM log_state WHERE id = 1').pluck().get();
  if (staged === null || staged === undefined) return;
  syncWalFileNow(db.name);
  db.transaction(() => db.prepare(PUBLISH_STAGED).run()).immediate();
}

const NEXT_INDEX = '(SELECT coalesce(max(idx) + 1, 0) FROM log_leaves)';

/**
 * Must be called inside the transaction that writes the revision; answers the revision's log index, which the
 * revision's row keeps. The entry is written from the revision in memory, not read back and parsed by the integrator
 * (docs/decisions/0071-sqlite-writes-carry-their-log-entry.md); `changes`, where the write has it, is the text of its
 * changes it stores, as UTF-8.
 */
export function leafWriter(writer: Database.Database): (asset: string, revision: Revision, changes?: Buffer) => number {
  const addEntry = entryWriter(writer);
  return (asset, revision, changes) => addEntry(asset, revision.rev, logEntry(asset, revision, changes));
}

/** Appends a leaf with its entry; answers its index. */
function entryWriter(writer: Database.Database): (asset: string, rev: number, entry: Buffer) => number {
  const insertLeaf = writer.prepare<[string, number, Buffer]>(
    `INSERT INTO log_leaves (idx, asset_id, rev, entry) VALUES (${NEXT_INDEX}, ?, ?, ?)`,
  );
  return (asset, rev, entry) => Number(insertLeaf.run(asset, rev, entry).lastInsertRowid);
}

/**
 * For the import, inside its page's transaction: an imported revision with its entry, unless the revision it
 * replaces (at log index `replaced`) has the same entry (a page written again). A revision re-imported with other
 * content is a new entry: the log keeps both. Answers the revision's log index.
 */
export function importedLeafWriter(
  writer: Database.Database,
): (asset: string, revision: Revision, replaced: number | undefined) => number {
  const entryAt = writer.prepare<[number], Buffer | null>('SELECT entry FROM log_leaves WHERE idx = ?').pluck();
  const addEntry = entryWriter(writer);
  return (asset, revision, replaced) => {
    const entry = logEntry(asset, revision);
    if (replaced !== undefined && entryAt.get(replaced)?.equals(entry)) return replaced;
    return addEntry(asset, revision.rev, entry);
  };
}

interface StateRow {
  size: number;
  root: Buffer | null;
  checkpoint: string | null;
  vkey: string | null;
}

interface LeafRow {
  idx: number;
  asset_id: string;
  rev: number;
  entry: Buffer | null;
}

interface StoredRevision {
  date: string;
  author: string;
  changes: string;
}

/** Readers wait rather than fail while another connection recovers the WAL. */
const READ_BUSY_TIMEOUT_MS = 60_000;

/**
 * The log of the store in `file` on connections of its own, for the integrator's thread
 * (docs/decisions/0079-the-integrator-runs-in-a-thread-of-its-own.md). The store has prepared the log's tables.
 */
export function openLogFile(file: string): LogStore & { close(): void } {
  const db = new Database(file, { timeout: READ_BUSY_TIMEOUT_MS });
  const log = openLog(db);
  return {
    ...log,
    close() {
      log.close();
      db.close();
    },
  };
}

export function openLog(db: Database.Database): LogStore & { close(): void } {
  // Its own connection, whose transactions stay apart from the writes' group commits. An append publishes only what
  // the WAL's sync after its staging COMMIT put on the disk; the first checkpoint's COMMIT syncs itself (FULL). The
  // lease and the key need no sync of their own.
  const logWriter = new Database(db.name, { timeout: 0 });
  const wal = openSync(`${db.name}-wal`, 'r');
  const syncWal = walSync(wal);
  logWriter.pragma('synchronous = NORMAL');
  // The checkpointer's work (checkpointer.ts): SQLite's automatic one would copy the WAL inside the log's COMMITs.
  logWriter.pragma('wal_autocheckpoint = 0');
  const selectState = db.prepare<[], StateRow>('SELECT size, root, checkpoint, vkey FROM log_state WHERE id = 1');
  const selectLeaves = db.prepare<[number, number], LeafRow>(
    'SELECT idx, asset_id, rev, entry FROM log_leaves WHERE idx >= ? ORDER BY idx LIMIT ?',
  );
  // Only for a leaf without its entry (a revision stored before the log): a join would look up every leaf's revision.
  const selectRevision = db.prepare<[string, number], StoredRevision>(
    'SELECT date, author, changes FROM revisions WHERE asset_id = ? AND rev = ?',
  );
  const readLeaves = db.transaction((max: number) => {
    const state = selectState.get()!;
    const leaves = selectLeaves.all(state.size, max);
    const stored = leaves.map((leaf) =>
      leaf.entry === null ? selectRevision.get(leaf.asset_id, leaf.rev) : undefined,
    );
    return { size: state.size, leaves, stored };
  });
  const selectTile = db
    .prepare<[number, number], Buffer>('SELECT hashes FROM log_tiles WHERE level = ? AND idx = ?')
    .pluck();
  const selectEntries = db
    .prepare<[number, number], Buffer>(
      'SELECT coalesce(l.entry, e.entry) FROM log_leaves l LEFT JOIN log_entries e ON l.entry IS NULL AND e.idx = l.idx ' +
        'WHERE l.idx >= ? AND l.idx < ? AND l.idx < (SELECT size FROM log_state WHERE id = 1) ORDER BY l.idx',
    )
    .pluck();
  const selectIndexes = db.prepare<[string, number, number], { rev: number; idx: number }>(
    'SELECT rev, log_idx AS idx FROM revisions WHERE asset_id = ? AND rev > ? AND rev <= ? AND log_idx IS NOT NULL',
  );
  const readIndexes = db.transaction((asset: string, after: number, upTo: number) => {
    const { size } = selectState.get()!;
    return selectIndexes.all(asset, after, upTo).filter((row) => row.idx < size);
  });

  const claimKeyStatement = logWriter.prepare<[string]>('UPDATE log_state SET vkey = ? WHERE id = 1 AND vkey IS NULL');
  const selectKey = logWriter.prepare<[], string>('SELECT vkey FROM log_state WHERE id = 1').pluck();
  const startStatement = logWriter.prepare<[Buffer, string]>(
    'UPDATE log_state SET root = ?, checkpoint = ? WHERE id = 1 AND checkpoint IS NULL AND size = 0',
  );
  const leadStatement = logWriter.prepare<[string, number, string, number]>(
    'UPDATE log_state SET holder = ?, lease_until = ? WHERE id = 1 AND (holder = ? OR holder IS NULL OR lease_until < ?)',
  );
  const insertEntry = logWriter.prepare<[number, Buffer]>(
    'INSERT OR REPLACE INTO log_entries (idx, entry) VALUES (?, ?)',
  );
  const upsertTile = logWriter.prepare<[number, number, Buffer]>(
    'INSERT OR REPLACE INTO log_tiles (level, idx, hashes) VALUES (?, ?, ?)',
  );
  const stageStatement = logWriter.prepare<[number, Buffer, string, number]>(
    'UPDATE log_state SET pending_size = ?, pending_root = ?, pending_checkpoint = ? WHERE id = 1 AND size = ?',
  );
  const publishStatement = logWriter.prepare<[number, number]>(`${PUBLISH_STAGED} AND size = ? AND pending_size = ?`);

  const inLogTransaction = <A extends unknown[], R>(body: (...args: A) => R, synced = false) => {
    const transaction = logWriter.transaction(body);
    return (...args: A): Promise<R> =>
      withWriteLock(() => {
        if (!synced) return transaction.immediate(...args);
        logWriter.pragma('synchronous = FULL');
        try {
          return transaction.immediate(...args);
        } finally {
          logWriter.pragma('synchronous = NORMAL');
        }
      });
  };
  const selectLease = db.prepare<[], { holder: string | null; lease_until: number | null }>(
    'SELECT holder, lease_until FROM log_state WHERE id = 1',
  );
  const claimKey = inLogTransaction((vkey: string): string => {
    claimKeyStatement.run(vkey);
    return selectKey.get()!;
  });
  const start = inLogTransaction(
    (root: Buffer, checkpoint: string) => startStatement.run(root, checkpoint).changes === 1,
    true,
  );
  const lead = inLogTransaction((holder: string, until: number, now: number) => {
    return leadStatement.run(holder, until, holder, now).changes === 1;
  });

  async function batchOf(size: number, leaves: LeafRow[], stored: (StoredRevision | undefined)[]): Promise<LogBatch> {
    const computed = await logEntries(
      leaves.flatMap((leaf, i) => {
        if (leaf.entry !== null) return [];
        const revision = stored[i];
        if (revision === undefined)
          throw new Error(`log index ${leaf.idx} names revision ${leaf.rev} of ${leaf.asset_id}, which is not stored`);
        const changes = JSON.parse(revision.changes) as Revision['changes'];
        return [
          { asset: leaf.asset_id, revision: { rev: leaf.rev, date: revision.date, author: revision.author, changes } },
        ];
      }),
    );
    const entries = leaves.map((leaf) => leaf.entry ?? computed.shift()!);
    const next = size + entries.length;
    // Tiles and entries past the published size are served by no one until the checkpoint that covers them is.
    const stage = inLogTransaction((tiles: Parameters<LogBatch['append']>[0], root: Buffer, checkpoint: string) => {
      if (stageStatement.run(next, root, checkpoint, size).changes !== 1) return false;
      // An entry its leaf row holds is served from there: not written twice.
      for (const [i, leaf] of leaves.entries()) if (leaf.entry === null) insertEntry.run(size + i, entries[i]!);
      for (const tile of tiles) upsertTile.run(tile.level, tile.index, tile.hashes);
      return true;
    });
    const publish = inLogTransaction(() => publishStatement.run(size, next).changes === 1);
    const append: LogBatch['append'] = async (tiles, root, checkpoint) => {
      if (!(await stage(tiles, root, checkpoint))) return false;
      await syncWal();
      return publish();
    };
    return { size, entries, append };
  }

  return {
    async head() {
      const state = selectState.get()!;
      return {
        size: state.size,
        ...(state.root === null ? {} : { root: state.root }),
        ...(state.checkpoint === null ? {} : { checkpoint: state.checkpoint }),
        ...(state.vkey === null ? {} : { vkey: state.vkey }),
      };
    },
    claimKey,
    start,
    /** Read first: the write lock is taken only to take the lease or renew it past its half. */
    async lead(holder, ms) {
      const now = Date.now();
      const lease = selectLease.get()!;
      const until = lease.lease_until ?? 0;
      if (lease.holder === holder && until - now > ms / 2) return true;
      if (lease.holder !== null && lease.holder !== holder && until >= now) return false;
      return lead(holder, now + ms, now);
    },
    async next(max) {
      const { size, leaves, stored } = readLeaves(max);
      return leaves.length === 0 ? undefined : batchOf(size, leaves, stored);
    },
    async tile(level, index) {
      return selectTile.get(level, index);
    },
    async entries(from, to) {
      return selectEntries.all(from, to);
    },
    async indexes(asset, after, upTo) {
      return new Map(readIndexes(asset, after, upTo).map((row) => [row.rev, row.idx]));
    },
    close() {
      logWriter.close();
      closeSync(wal);
    },
  };
}
