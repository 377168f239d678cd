/**
 * The embedded store: one SQLite file, `<dataDir>/registry.sqlite`, which several processes on one machine
 * may share (WAL, every write a `BEGIN IMMEDIATE` transaction).
 *
 * better-sqlite3 is synchronous, and SQLite's busy handler sleeps inside the call, so waiting there for
 * another process's write lock would freeze this whole server (and SQLite's backoff, up to 100 ms a poll,
 * lets a busy process starve the others). Writes therefore go through their own connection, which never
 * waits inside SQLite: a locked database fails at BEGIN at once, and the write is retried after a short,
 * jittered timer, for up to WRITE_WAIT_MS. Reads use a second connection with an ordinary busy timeout
 * (in WAL mode readers practically never wait).
 *
 * Feed completeness rests on how write stamps are taken. `BEGIN IMMEDIATE` takes the database's single
 * write lock before anything is read, and the lock is held until COMMIT, so write transactions of every
 * process run one after another. Inside the lock a write stamps itself
 * `max(nowMicros(), max(modified) + 1)`: later than everything committed before it. Hence `modified` is
 * unique and increases in commit order. A reader sees a prefix of the commits (a WAL snapshot), so every
 * row it cannot see yet will arrive with a `modified` above every one it saw: a client paging with
 * "after the last `modified` I saw" misses nothing and never sees one value twice.
 *
 * Each asset's history lives in the table `revisions`, keyed by (asset, rev): a write inserts its revision in the
 * transaction that writes the record, so a crash keeps both or neither, and the record keeps only the count.
 *
 * Transfers of ownership live in their own table and go through the same write queue; a mark is a
 * compare-and-set inside the write lock. The document service's files are kept beside the database, in the
 * folder `<dataDir>/files` (files.ts).
 */
import { closeSync, fsync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { dayOf, nowMicros } from '../domain/dates.js';
import { firstRevision } from '../domain/history.js';
import type { JsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import { openFolderFileStore } from './files.js';
import { startCheckpointer } from './checkpointer.js';
import {
  checkHistory,
  requireFieldNames,
  servedDateModified,
  type AssetRecord,
  type AssetStore,
  type AssetText,
  type BulkRecord,
  type CreateStamp,
  type ListedRow,
  type ListMode,
  type ImportPage,
  type ImportReport,
  type ImportState,
  type ImportStore,
  type ListQuery,
  type RecordDraft,
  type RecordWrite,
  type Revision,
  type TransferMark,
  type TransferStore,
  type WriteStamp,
  type WriteWatch,
} from './types.js';

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** IANA zone of the per-day `assetID` counter and of `dateModified` when a draft lacks one. */
  timeZone: string;
}

/** Writers of other processes may hold the lock through a long bulk insert; wait rather than fail. */
const WRITE_WAIT_MS = 60_000;
const READ_BUSY_TIMEOUT_MS = 60_000;
/** Upper bound of the jittered pause between two attempts at the write lock. */
const MAX_RETRY_PAUSE_MS = 8;
/** How often a watched store looks for other processes' commits (`watchWrites`). */
const WATCH_POLL_MS = 10;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS assets (
    id TEXT PRIMARY KEY,
    rev INTEGER NOT NULL,
    owner_token_hash TEXT NOT NULL,
    modified INTEGER NOT NULL UNIQUE,
    listed INTEGER NOT NULL,
    test INTEGER NOT NULL,
    date_modified TEXT NOT NULL,
    doc TEXT NOT NULL,
    transfer_token_hash TEXT,
    applied_transfers TEXT NOT NULL DEFAULT '[]',
    document_history TEXT NOT NULL DEFAULT '[]',
    revisions INTEGER NOT NULL DEFAULT 0
  );
  -- The history of each asset, read by (asset, rev) pages: the primary key is the only index it needs.
  CREATE TABLE IF NOT EXISTS revisions (
    asset_id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    date TEXT NOT NULL,
    author TEXT NOT NULL,
    changes TEXT NOT NULL,
    PRIMARY KEY (asset_id, rev)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS counters (
    day TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  -- One partial index per listing mode. Each covers a feed page without the document, and with the fields
  -- mirrors ask for most (opt_fields=status,assetID): the expressions match COVERED_FIELDS word for word.
  -- They replace the narrower feed_all, feed_real and feed_test of earlier versions.
  DROP INDEX IF EXISTS feed_all;
  DROP INDEX IF EXISTS feed_real;
  DROP INDEX IF EXISTS feed_test;
  CREATE INDEX IF NOT EXISTS feed_all_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1;
  CREATE INDEX IF NOT EXISTS feed_real_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1 AND test = 0;
  CREATE INDEX IF NOT EXISTS feed_test_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1 AND test = 1;
  -- Transfers are read and marked by id only.
  CREATE TABLE IF NOT EXISTS transfers (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    owner_token_hash TEXT NOT NULL,
    transfer_token_hash TEXT NOT NULL,
    created INTEGER NOT NULL,
    mark_asset_id TEXT,
    mark_from_hash TEXT,
    mark_at INTEGER
  );
  -- The import of the original's database (ImportStore): its state, one row, and its reports.
  CREATE TABLE IF NOT EXISTS import_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS import_reports (
    id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (id, outcome)
  );
  -- The import lists in each asset the transfers whose mark names it.
  CREATE INDEX IF NOT EXISTS transfers_marked ON transfers (mark_asset_id) WHERE mark_asset_id IS NOT NULL;
`;

/** Columns the assets table gained after its first release, added to databases made before (`ALTER TABLE`). */
const LATER_ASSET_COLUMNS: readonly [name: string, definition: string][] = [
  ['transfer_token_hash', 'TEXT'],
  ['applied_transfers', "TEXT NOT NULL DEFAULT '[]'"],
  ['document_history', "TEXT NOT NULL DEFAULT '[]'"],
  // 0 until the asset has its history: assets from before history get revision 1 at the first start (giveHistories).
  ['revisions', 'INTEGER NOT NULL DEFAULT 0'],
];

/** The WHERE terms match the partial indexes' conditions word for word, which is what lets SQLite use them. */
const MODE_FILTER: Record<ListMode, string> = {
  all: 'listed = 1',
  real: 'listed = 1 AND test = 0',
  test: 'listed = 1 AND test = 1',
};
const MODE_INDEX: Record<ListMode, string> = { all: 'feed_all_covering', real: 'feed_real_covering', test: 'feed_test_covering' };
/** The fields the feed indexes hold (as `doc -> '$.<field>'`): a listing asking for no others reads no document. */
const COVERED_FIELDS: readonly string[] = ['status', 'assetID'];

interface StoredRow {
  id: string;
  rev: number;
  owner_token_hash: string;
  transfer_token_hash: string | null;
  applied_transfers: string;
  modified: number;
  listed: number;
  test: number;
  doc: string;
  document_history: string;
  revisions: number;
}

interface RevisionRow {
  rev: number;
  date: string;
  author: string;
  changes: string;
}

interface TransferRow {
  id: string;
  owner: string;
  owner_token_hash: string;
  transfer_token_hash: string;
  created: number;
  mark_asset_id: string | null;
  mark_from_hash: string | null;
  mark_at: number | null;
}

/** The columns after `id`, in table order: the shared parameters of the insert and update statements. */
type RowColumns = [
  rev: number,
  ownerTokenHash: string,
  modified: number,
  listed: 0 | 1,
  test: 0 | 1,
  dateModified: string,
  doc: string,
  transferTokenHash: string | null,
  appliedTransfers: string,
  documentHistory: string,
  revisions: number,
];

/** A mark as the three `mark_*` columns (all null when there is none), the parameters of its compare-and-set. */
type MarkColumns = [assetId: string | null, fromHash: string | null, at: number | null];

function markColumns(mark: TransferMark | null): MarkColumns {
  return mark === null ? [null, null, null] : [mark.assetId, mark.fromHash, mark.at];
}

/** `PRAGMA user_version` of a database whose documents are kept in the wire format (`toJson`). */
const WIRE_FORMAT_VERSION = 1;
const REWRITE_BATCH = 1000;
/** Values per `IN (…)` of ImportStore.idsAt: well below SQLite's limit of bound parameters. */
const IDS_AT_CHUNK = 500;

/**
 * Rewrites the documents of a database made before they were kept in the wire format (JSON.stringify's text,
 * `100` where the wire has `100.0`), once; inside the schema transaction.
 */
function keepDocumentsInWireFormat(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= WIRE_FORMAT_VERSION) return;
  const page = db.prepare<[number, number], [number, string]>('SELECT rowid, doc FROM assets WHERE rowid > ? ORDER BY rowid LIMIT ?').raw(true);
  const rewrite = db.prepare<[string, number]>('UPDATE assets SET doc = ? WHERE rowid = ?');
  for (let after = 0; ; ) {
    const rows = page.all(after, REWRITE_BATCH);
    for (const [rowid, doc] of rows) rewrite.run(toJson(JSON.parse(doc)), rowid);
    if (rows.length < REWRITE_BATCH) break;
    after = rows[rows.length - 1]![0];
  }
  db.pragma(`user_version = ${WIRE_FORMAT_VERSION}`);
}

/** `PRAGMA user_version` of a database whose every asset has its history (revision 1 at least). */
const HISTORY_VERSION = 2;
const HISTORY_BATCH = 500;

/**
 * Gives every asset from before history its revision 1, holding it as it stands (author its owner, date its
 * `dateModified`), once. A batch at a time, each in its own transaction with the assets it marks (`revisions = 1`):
 * a start cut short keeps the batches done, and the next start goes on with the assets still at 0. The marker
 * (`user_version`) is set when none is left, so later starts skip the scan.
 */
function giveHistories(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= HISTORY_VERSION) return;
  const page = db
    .prepare<[number, number], { rowid: number; id: string; doc: string }>(
      'SELECT rowid, id, doc FROM assets WHERE rowid > ? AND revisions = 0 ORDER BY rowid LIMIT ?',
    );
  const insert = db.prepare('INSERT INTO revisions (asset_id, rev, date, author, changes) VALUES (?, ?, ?, ?, ?)');
  const mark = db.prepare('UPDATE assets SET revisions = 1 WHERE id = ?');
  const batch = db.transaction((after: number): number | undefined => {
    const rows = page.all(after, HISTORY_BATCH);
    for (const row of rows) {
      const revision = firstRevision(JSON.parse(row.doc) as JsonObject);
      insert.run(row.id, revision.rev, revision.date, revision.author, JSON.stringify(revision.changes));
      mark.run(row.id);
    }
    return rows.length < HISTORY_BATCH ? undefined : rows[rows.length - 1]!.rowid;
  });
  for (let after: number | undefined = 0; after !== undefined; ) after = batch.immediate(after);
  db.transaction(() => {
    if ((db.pragma('user_version', { simple: true }) as number) < HISTORY_VERSION) db.pragma(`user_version = ${HISTORY_VERSION}`);
  }).immediate();
}

/** Adds the columns a database made by an earlier version lacks; inside the schema transaction. */
function addLaterColumns(db: Database.Database): void {
  const present = new Set(db.prepare<[], string>("SELECT name FROM pragma_table_info('assets')").pluck().all());
  for (const [name, definition] of LATER_ASSET_COLUMNS) {
    if (!present.has(name)) db.exec(`ALTER TABLE assets ADD COLUMN ${name} ${definition}`);
  }
}

/**
 * Puts the file in WAL mode. SQLite answers this pragma "database is locked" at once, without its busy handler,
 * while another process opening the same new file holds the lock for its own switch or first schema write (two
 * nodes started together): tried again for as long as a write would wait.
 */
function switchToWal(db: Database.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + WRITE_WAIT_MS; ; ) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

export function openEmbeddedStore(options: EmbeddedStoreOptions): AssetStore {
  const { dataDir, timeZone } = options;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'registry.sqlite');
  const db = new Database(file, { timeout: READ_BUSY_TIMEOUT_MS });
  // Opening may wait for another process creating the same file: startup, so blocking is fine here.
  switchToWal(db);
  db.transaction(() => {
    db.exec(SCHEMA);
    addLaterColumns(db);
    keepDocumentsInWireFormat(db);
  }).immediate();
  giveHistories(db);
  const writer = new Database(file, { timeout: 0 });
  // An acknowledged write survives a power cut, not only a crash: the WAL is synced after every COMMIT and before
  // any caller hears of the write, as `synchronous = FULL` would, but by `syncWal` on libuv's thread pool, so the
  // event loop goes on serving while the disk works (FULL would sync inside COMMIT, on this thread).
  writer.pragma('synchronous = NORMAL');
  // Checkpoints sync the database file too: they run in a worker thread (checkpointer.ts), not inside a COMMIT.
  writer.pragma('wal_autocheckpoint = 0');
  const wal = openSync(`${file}-wal`, 'r');
  /**
   * Resolves once a sync of the WAL that began after the call has ended: everything committed before the call is
   * then on the disk. One sync at a time; the commits made while one runs share the next, as they would share a
   * COMMIT's sync under FULL (a sync each would only queue up at the disk).
   */
  let syncRunning: Promise<void> | undefined;
  let syncQueued: Promise<void> | undefined;
  const startSync = (): Promise<void> =>
    new Promise((resolve, reject) =>
      fsync(wal, (error) => {
        syncRunning = undefined;
        if (error) reject(error);
        else resolve();
      }),
    );
  function syncWal(): Promise<void> {
    if (syncRunning === undefined) return (syncRunning = startSync());
    syncQueued ??= syncRunning
      .catch(() => undefined)
      .then(() => {
        syncQueued = undefined;
        return syncWal();
      });
    return syncQueued;
  }
  const checkpointer = startCheckpointer(file);
  // Random ids spread inserts over the primary-key tree; a larger page cache keeps bulk seeding fast.
  writer.pragma('cache_size = -65536');

  const selectMaxModified = writer.prepare<[], number | null>('SELECT max(modified) FROM assets').pluck();
  const nextDayIndex = writer
    .prepare(
      'INSERT INTO counters (day, value) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET value = value + 1 RETURNING value',
    )
    .pluck();
  const insertRow = writer.prepare(
    'INSERT INTO assets (id, rev, owner_token_hash, modified, listed, test, date_modified, doc, transfer_token_hash, applied_transfers, ' +
      'document_history, revisions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const updateRow = writer.prepare(
    'UPDATE assets SET rev = ?, owner_token_hash = ?, modified = ?, listed = ?, test = ?, date_modified = ?, doc = ?, ' +
      'transfer_token_hash = ?, applied_transfers = ?, document_history = ?, revisions = ? WHERE id = ?',
  );
  const insertRevision = writer.prepare<[string, number, string, string, string]>(
    'INSERT INTO revisions (asset_id, rev, date, author, changes) VALUES (?, ?, ?, ?, ?)',
  );
  const selectRevisions = db.prepare<[string, number, number], RevisionRow>(
    'SELECT rev, date, author, changes FROM revisions WHERE asset_id = ? AND rev > ? ORDER BY rev LIMIT ?',
  );
  const selectRevisionCount = db.prepare<[string], number>('SELECT revisions FROM assets WHERE id = ?').pluck();
  const selectRow = db.prepare<[string], StoredRow>(
    'SELECT id, rev, owner_token_hash, transfer_token_hash, applied_transfers, modified, listed, test, doc, document_history, revisions ' +
      'FROM assets WHERE id = ?',
  );
  const insertTransfer = writer.prepare(
    'INSERT INTO transfers (id, owner, owner_token_hash, transfer_token_hash, created, mark_asset_id, mark_from_hash, mark_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // `IS` compares NULL with NULL as equal: an absent mark is expected as three NULLs.
  const updateMark = writer.prepare<[...MarkColumns, string, ...MarkColumns]>(
    'UPDATE transfers SET mark_asset_id = ?, mark_from_hash = ?, mark_at = ? ' +
      'WHERE id = ? AND mark_asset_id IS ? AND mark_from_hash IS ? AND mark_at IS ?',
  );
  const selectTransfer = db.prepare<[string], TransferRow>(
    'SELECT id, owner, owner_token_hash, transfer_token_hash, created, mark_asset_id, mark_from_hash, mark_at FROM transfers WHERE id = ?',
  );
  const selectRevs = writer.prepare<[string], { rev: number; revisions: number }>('SELECT rev, revisions FROM assets WHERE id = ?');
  const files = openFolderFileStore(join(dataDir, 'files'));
  // Reads a page of the file, so a vanished or unreadable database shows.
  const ping = db.prepare('SELECT count(*) FROM counters').pluck();

  /**
   * The feed's statements, one per shape: mode × direction × which fields of the documents are read. Each names
   * its mode's index (`INDEXED BY`: a statement the index cannot serve fails to prepare rather than scan). Without
   * fields, or with covered ones only, the index answers alone; other fields are read from the stored text by
   * SQLite (`doc -> path`), which hands back each value's JSON text as stored. Rows come as arrays (`raw`).
   */
  const feedStatements = new Map<string, Statement<unknown[], unknown[]>>();
  function feedStatement(mode: ListMode, descending: boolean, read: 'none' | 'covered' | number): Statement<unknown[], unknown[]> {
    const key = `${mode}:${descending ? 'desc' : 'asc'}:${read}`;
    let statement = feedStatements.get(key);
    if (statement === undefined) {
      const fields =
        read === 'none' ? '' : read === 'covered' ? COVERED_FIELDS.map((field) => `, doc -> '$.${field}'`).join('') : ', doc -> ?'.repeat(read);
      const sql =
        `SELECT id, modified, date_modified${fields} FROM assets INDEXED BY ${MODE_INDEX[mode]} ` +
        `WHERE ${MODE_FILTER[mode]} AND modified ${descending ? '<' : '>'} ? ` +
        `ORDER BY modified ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
      statement = db.prepare<unknown[], unknown[]>(sql).raw(true);
      feedStatements.set(key, statement);
    }
    return statement;
  }
  const readRevisions = db.transaction((id: string, after: number, limit: number): Revision[] | undefined => {
    if (selectRevisionCount.get(id) === undefined) return undefined;
    return selectRevisions.all(id, after, limit).map((row) => ({
      rev: row.rev,
      date: row.date,
      author: row.author,
      changes: JSON.parse(row.changes) as Revision['changes'],
    }));
  });
  // As a BLOB: the bytes as stored, without the decoding into a JavaScript string a TEXT column costs.
  const selectText = db.prepare<[string], { doc: Buffer; modified: number }>('SELECT CAST(doc AS BLOB) AS doc, modified FROM assets WHERE id = ?');

  /** Must run inside the write transaction: see the module comment. */
  function takeStamp(): number {
    const latest = selectMaxModified.get() ?? null;
    const now = nowMicros();
    return latest === null || now > latest ? now : latest + 1;
  }

  function rowColumns(draft: RecordDraft, rev: number, revisions: number, text = toJson(draft.asset)): RowColumns {
    return [
      rev,
      draft.ownerTokenHash,
      draft.modified,
      draft.listed ? 1 : 0,
      draft.test ? 1 : 0,
      servedDateModified(draft),
      // The wire format (`amount` as `100.0`), so that reads serve the text as it is.
      text,
      draft.transferTokenHash,
      JSON.stringify(draft.appliedTransfers),
      JSON.stringify(draft.documentHistory),
      revisions,
    ];
  }

  function keepRevision(id: string, revision: Revision): void {
    insertRevision.run(id, revision.rev, revision.date, revision.author, JSON.stringify(revision.changes));
  }

  /** The stamp is the record's `modified`; a draft that disagrees would break the feed order, so it is refused. */
  function checkDraft(draft: RecordDraft, stamp: number, id?: string): void {
    if (draft.modified !== stamp) {
      throw new Error(`record draft has modified ${draft.modified}, but the write stamp is ${stamp}`);
    }
    if (id !== undefined && draft.id !== id) {
      throw new Error(`record draft for ${id} carries another id, ${draft.id}`);
    }
  }

  const createTransaction = writer.transaction((build: (stamp: CreateStamp) => RecordWrite): AssetRecord => {
    const now = takeStamp();
    const day = dayOf(now, timeZone);
    // Same transaction as the insert: a build that throws rolls the counter back, so no index is lost.
    const dayIndex = nextDayIndex.get(day) as number;
    const { record: draft, revision, text } = build({ now, day, dayIndex });
    checkDraft(draft, now);
    insertRow.run(draft.id, ...rowColumns(draft, 1, 1, text));
    keepRevision(draft.id, { rev: 1, date: servedDateModified(draft), ...revision });
    return { ...draft, rev: 1, revisions: 1 };
  });

  const updateTransaction = writer.transaction(
    (id: string, expectedRev: number, build: (stamp: WriteStamp) => RecordWrite): AssetRecord | 'conflict' => {
      const stored = selectRevs.get(id);
      // A record that is gone is not at `expectedRev` either: the caller re-reads and answers 404.
      if (stored?.rev !== expectedRev) return 'conflict';
      const now = takeStamp();
      const { record: draft, revision, text } = build({ now });
      checkDraft(draft, now, id);
      const rev = expectedRev + 1;
      const revisions = stored.revisions + 1;
      updateRow.run(...rowColumns(draft, rev, revisions, text), id);
      keepRevision(id, { rev: revisions, date: servedDateModified(draft), ...revision });
      return { ...draft, rev, revisions };
    },
  );

  const bulkInsertTransaction = writer.transaction((records: readonly BulkRecord[]) => {
    for (const { history, ...record } of records) {
      const revisions = history ?? [firstRevision(record.asset)];
      checkHistory(record, revisions);
      insertRow.run(record.id, ...rowColumns(record, 1, revisions.length));
      for (const revision of revisions) keepRevision(record.id, revision);
    }
  });

  /*
   * Group commit. Every COMMIT is followed by a sync of the WAL (about a millisecond here), so one commit per
   * write would cap writes near a thousand a second whatever the CPU could do. Writes asked for in the same turn
   * of the event loop are therefore queued and run, each in its own savepoint and in the order they were asked
   * for, inside one `BEGIN IMMEDIATE` transaction with one COMMIT and one sync. Every guarantee above still holds:
   * each write takes its stamp and its day counter inside the write lock, a build that throws rolls back its own
   * savepoint only, and no caller hears of its write before the sync that made it durable (all of a batch fail
   * together if that COMMIT or that sync fails). While a batch's sync runs on the thread pool the next batch may
   * commit; its own sync covers both.
   *
   * A read of an asset with an update still queued or committing waits for that COMMIT, and such readers are
   * let go one per turn of the event loop: a PATCH reads, decides and queues its update within one turn, so
   * PATCHes of one asset in this process still run one after another and never race each other for its `rev`
   * (as when every write committed on its own).
   */
  type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
  interface QueuedWrite {
    run: () => unknown;
    /** The record an update changes (creates make new ids nobody can read yet). */
    id: string | undefined;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }
  let queue: QueuedWrite[] = [];
  const flushes = new Set<Promise<void>>();

  const batchTransaction = writer.transaction((writes: QueuedWrite[]): Outcome[] =>
    writes.map((write): Outcome => {
      try {
        return { ok: true, value: write.run() };
      } catch (error) {
        // Only BEGIN meets another process's lock (see withWriteLock); should anything else, retry the batch.
        if (isBusy(error)) throw error;
        return { ok: false, error };
      }
    }),
  );

  /** Ids with updates queued or committing (how many), and the reads waiting for them, in arrival order. */
  const updating = new Map<string, number>();
  const waitingReads = new Map<string, (() => void)[]>();

  function waitForUpdates(id: string): Promise<void> {
    return new Promise((resolve) => {
      const waiting = waitingReads.get(id);
      if (waiting) waiting.push(resolve);
      else waitingReads.set(id, [resolve]);
    });
  }

  /** Lets the next waiting read of `id` go, then, one turn later, the one after it (unless an update came). */
  function releaseReads(id: string): void {
    if (updating.has(id)) return;
    const waiting = waitingReads.get(id);
    const next = waiting?.shift();
    if (next === undefined) return;
    if (waiting!.length === 0) waitingReads.delete(id);
    next();
    setImmediate(() => releaseReads(id));
  }

  async function flush(writes: QueuedWrite[]): Promise<void> {
    let outcomes: Outcome[] | undefined;
    let failure: unknown;
    try {
      outcomes = await withWriteLock(() => batchTransaction.immediate(writes));
      // Durable before anyone hears of it (see `syncWal`).
      await syncWal();
    } catch (error) {
      failure = error;
      // Committed but perhaps not on the disk: no write of the batch is acknowledged.
      outcomes = undefined;
    }
    writes.forEach((write, i) => {
      const outcome = outcomes?.[i];
      if (outcome === undefined) write.reject(failure);
      else if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
    for (const { id } of writes) {
      if (id === undefined) continue;
      const count = (updating.get(id) ?? 1) - 1;
      if (count > 0) updating.set(id, count);
      else updating.delete(id);
      releaseReads(id);
    }
    if (outcomes?.some((outcome) => outcome.ok)) signalWrites();
  }

  /** Queues `run` (a nested better-sqlite3 transaction, so a savepoint) for the next group commit. */
  function queueWrite<T>(run: () => T, id?: string): Promise<T> {
    if (id !== undefined) updating.set(id, (updating.get(id) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) {
        setImmediate(() => {
          const writes = queue;
          queue = [];
          const done = flush(writes);
          flushes.add(done);
          void done.finally(() => flushes.delete(done));
        });
      }
      queue.push({ run, id, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  const transfers: TransferStore = {
    async create(record) {
      await queueWrite(() =>
        insertTransfer.run(
          record.id,
          record.owner,
          record.ownerTokenHash,
          record.transferTokenHash,
          record.created,
          ...markColumns(record.mark),
        ),
      );
    },

    async get(id) {
      const row = selectTransfer.get(id);
      if (row === undefined) return undefined;
      const marked = row.mark_asset_id !== null && row.mark_from_hash !== null && row.mark_at !== null;
      return {
        id: row.id,
        owner: row.owner,
        ownerTokenHash: row.owner_token_hash,
        transferTokenHash: row.transfer_token_hash,
        created: row.created,
        mark: marked ? { assetId: row.mark_asset_id!, fromHash: row.mark_from_hash!, at: row.mark_at! } : null,
      };
    },

    async setMark(id, expected, next) {
      const { changes } = await queueWrite(() => updateMark.run(...markColumns(next), id, ...markColumns(expected)));
      return changes === 1;
    },
  };

  const selectImportState = db.prepare<[], string>('SELECT state FROM import_state WHERE id = 1').pluck();
  const anyOwnData = db
    .prepare<[], number>('SELECT EXISTS (SELECT 1 FROM assets) OR EXISTS (SELECT 1 FROM transfers)')
    .pluck();
  const selectImportReports = db.prepare<[], ImportReport>('SELECT id, outcome, detail FROM import_reports ORDER BY id, outcome');
  const upsertImportedRow = writer.prepare(
    'INSERT INTO assets (id, rev, owner_token_hash, modified, listed, test, date_modified, doc, transfer_token_hash, applied_transfers, ' +
      'document_history, revisions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, ' +
      'owner_token_hash = excluded.owner_token_hash, modified = excluded.modified, listed = excluded.listed, test = excluded.test, ' +
      'date_modified = excluded.date_modified, doc = excluded.doc, transfer_token_hash = excluded.transfer_token_hash, ' +
      'applied_transfers = excluded.applied_transfers, document_history = excluded.document_history, revisions = excluded.revisions',
  );
  const deleteRevisions = writer.prepare<[string]>('DELETE FROM revisions WHERE asset_id = ?');
  const upsertImportedTransfer = writer.prepare(
    'INSERT OR REPLACE INTO transfers (id, owner, owner_token_hash, transfer_token_hash, created, mark_asset_id, mark_from_hash, mark_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const selectMarkedFor = writer
    .prepare<[string], string>('SELECT id FROM transfers WHERE mark_asset_id = ? ORDER BY created, id')
    .pluck();
  const setAppliedTransfers = writer.prepare<[string, string]>('UPDATE assets SET applied_transfers = ? WHERE id = ?');
  const raiseDayCounter = writer.prepare<[string, number]>(
    'INSERT INTO counters (day, value) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET value = max(value, excluded.value)',
  );
  const upsertImportReport = writer.prepare<[string, string, string]>(
    'INSERT OR REPLACE INTO import_reports (id, outcome, detail) VALUES (?, ?, ?)',
  );
  const upsertImportState = writer.prepare<[string]>('INSERT OR REPLACE INTO import_state (id, state) VALUES (1, ?)');

  /** One transaction: the page is written whole with its state, or not at all. */
  const importPageTransaction = writer.transaction((page: ImportPage) => {
    for (const { history, ...record } of page.assets) {
      checkHistory(record, history);
      upsertImportedRow.run(record.id, ...rowColumns(record, 1, history.length));
      deleteRevisions.run(record.id);
      for (const revision of history) keepRevision(record.id, revision);
    }
    for (const transfer of page.transfers) {
      upsertImportedTransfer.run(
        transfer.id,
        transfer.owner,
        transfer.ownerTokenHash,
        transfer.transferTokenHash,
        transfer.created,
        ...markColumns(transfer.mark),
      );
    }
    const marked = new Set<string>(page.assets.map((record) => record.id));
    for (const transfer of page.transfers) if (transfer.mark !== null) marked.add(transfer.mark.assetId);
    for (const id of marked) setAppliedTransfers.run(JSON.stringify(selectMarkedFor.all(id)), id);
    for (const [day, index] of Object.entries(page.dayCounters)) raiseDayCounter.run(day, index);
    for (const report of page.reports) upsertImportReport.run(report.id, report.outcome, report.detail);
    upsertImportState.run(JSON.stringify(page.state));
  });

  const imports: ImportStore = {
    async state() {
      const text = selectImportState.get();
      return text === undefined ? undefined : (JSON.parse(text) as ImportState);
    },
    async holdsOwnData() {
      return selectImportState.get() === undefined && anyOwnData.get() === 1;
    },
    async idsAt(modified) {
      const found = new Map<number, string>();
      for (let i = 0; i < modified.length; i += IDS_AT_CHUNK) {
        const chunk = modified.slice(i, i + IDS_AT_CHUNK);
        const rows = db
          .prepare<number[], { id: string; modified: number }>(`SELECT id, modified FROM assets WHERE modified IN (${chunk.map(() => '?').join(', ')})`)
          .all(...chunk);
        for (const row of rows) found.set(row.modified, row.id);
      }
      return found;
    },
    async writePage(page) {
      await withWriteLock(() => importPageTransaction.immediate(page));
      await syncWal();
      signalWrites();
    },
    async reports() {
      return selectImportReports.all();
    },
  };

  /*
   * Watching writes. A commit by any other connection, this process's writer included, changes what
   * `PRAGMA data_version` answers on the read connection (SQLite's promise), so polling it every WATCH_POLL_MS
   * notices every process's writes for the price of a look at the WAL index. This process's own commits are
   * signalled at once, without waiting for the poll.
   */
  const watchers = new Set<() => void>();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenVersion = 0;
  let watchTimer: NodeJS.Timeout | undefined;

  function signalWrites(): void {
    for (const onWrite of watchers) onWrite();
  }

  function pollDataVersion(): void {
    const version = dataVersion.get() as number;
    if (version === seenVersion) return;
    seenVersion = version;
    signalWrites();
  }

  function stopWatching(): void {
    clearInterval(watchTimer);
    watchTimer = undefined;
  }

  return {
    transfers,
    imports,

    async create(build) {
      return queueWrite(() => createTransaction(build));
    },

    async get(id) {
      while (updating.has(id)) await waitForUpdates(id);
      const row = selectRow.get(id);
      if (row === undefined) return undefined;
      return {
        id: row.id,
        rev: row.rev,
        ownerTokenHash: row.owner_token_hash,
        transferTokenHash: row.transfer_token_hash,
        appliedTransfers: JSON.parse(row.applied_transfers) as string[],
        modified: row.modified,
        listed: row.listed === 1,
        test: row.test === 1,
        asset: JSON.parse(row.doc) as JsonObject,
        documentHistory: JSON.parse(row.document_history) as JsonObject[],
        revisions: row.revisions,
      };
    },

    async update(id, expectedRev, build) {
      return queueWrite(() => updateTransaction(id, expectedRev, build), id);
    },

    async getText(id): Promise<AssetText | undefined> {
      const row = selectText.get(id);
      return row === undefined ? undefined : { bytes: row.doc, modified: row.modified };
    },

    async list(query: ListQuery) {
      if (!Object.hasOwn(MODE_FILTER, query.mode)) throw new Error(`unknown listing mode ${String(query.mode)}`);
      const { fields } = query;
      requireFieldNames(fields);
      const covered = fields.every((field) => COVERED_FIELDS.includes(field));
      const read = fields.length === 0 ? 'none' : covered ? 'covered' : fields.length;
      // Columns 3… of a row: the covered fields in COVERED_FIELDS order, else the asked ones in their order.
      const columns = covered ? fields.map((field) => 3 + COVERED_FIELDS.indexOf(field)) : fields.map((_, i) => 3 + i);
      const paths = typeof read === 'number' ? fields.map((field) => `$.${field}`) : [];
      // Absent `after` means from the start (or the end): a bound beyond every stored value.
      const after = query.after ?? (query.descending ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER);
      const rows = feedStatement(query.mode, query.descending, read).all(...paths, after, query.limit);
      const listed: ListedRow[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const entry: ListedRow = { id: row[0] as string, modified: row[1] as number, dateModified: row[2] as string };
        if (fields.length > 0) entry.fields = columns.map((column) => (row[column] ?? undefined) as string | undefined);
        listed[i] = entry;
      }
      return listed;
    },

    async revisions(id, after, limit) {
      // One snapshot: the count and the page agree.
      return readRevisions(id, after, limit);
    },

    async bulkInsert(records) {
      await withWriteLock(() => bulkInsertTransaction.immediate(records));
      await syncWal();
      signalWrites();
    },

    async watchWrites(onWrite): Promise<WriteWatch> {
      const watcher = () => onWrite();
      watchers.add(watcher);
      if (watchTimer === undefined) {
        seenVersion = dataVersion.get() as number;
        watchTimer = setInterval(pollDataVersion, WATCH_POLL_MS);
        // A watch alone does not keep a process alive.
        watchTimer.unref();
      }
      return {
        method: 'data_version poll',
        check: pollDataVersion,
        async close() {
          watchers.delete(watcher);
          if (watchers.size === 0) stopWatching();
        },
      };
    },

    async ping() {
      ping.get();
    },

    files,

    async close() {
      // Writes already asked for are finished first: their callers are waiting for the COMMIT.
      while (queue.length > 0 || flushes.size > 0) {
        if (flushes.size > 0) await Promise.all(flushes);
        else await new Promise((resolve) => setImmediate(resolve));
      }
      stopWatching();
      watchers.clear();
      await checkpointer.close();
      closeSync(wal);
      writer.close();
      db.close();
    },
  };
}

/**
 * Runs a `BEGIN IMMEDIATE` transaction, retrying while another process holds the write lock. BEGIN is the
 * only step that can meet the lock, and it fails before the transaction body runs, so a retry repeats nothing.
 */
async function withWriteLock<T>(transaction: () => T): Promise<T> {
  const deadline = Date.now() + WRITE_WAIT_MS;
  for (;;) {
    try {
      return transaction();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * MAX_RETRY_PAUSE_MS));
  }
}

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
}
