/** Start-up upgrades, each done once and marked in `user_version` (docs/decisions/0037-start-up-upgrades.md). */
import type Database from 'better-sqlite3';
import { firstRevision } from '../../domain/history.js';
import type { JsonObject } from '../../domain/json.js';
import { toJson } from '../../domain/serialize.js';

const LATER_ASSET_COLUMNS: readonly [name: string, definition: string][] = [
  ['transfer_token_hash', 'TEXT'],
  ['applied_transfers', "TEXT NOT NULL DEFAULT '[]'"],
  ['document_history', "TEXT NOT NULL DEFAULT '[]'"],
  // 0 until the asset has its history (giveHistories).
  ['revisions', 'INTEGER NOT NULL DEFAULT 0'],
];

const LATER_REVISION_COLUMNS: readonly [name: string, definition: string][] = [
  // Set for every revision when the log starts (prepareLog).
  ['log_idx', 'INTEGER'],
];

/** Inside the schema transaction. */
export function addLaterColumns(db: Database.Database): void {
  addMissingColumns(db, 'assets', LATER_ASSET_COLUMNS);
  addMissingColumns(db, 'revisions', LATER_REVISION_COLUMNS);
}

/** Adds to `table` those of `columns` a file written by an earlier version lacks; inside a transaction. */
export function addMissingColumns(
  db: Database.Database,
  table: string,
  columns: readonly [name: string, definition: string][],
): void {
  const present = new Set(db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table));
  for (const [name, definition] of columns) {
    if (!present.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${definition}`);
  }
}

/** `user_version` once the documents are kept in the wire format (`toJson`). */
const WIRE_FORMAT_VERSION = 1;
const REWRITE_BATCH = 1000;

/** Rewrites documents written as JSON.stringify's text (`100` for the wire's `100.0`); in the schema transaction. */
export function keepDocumentsInWireFormat(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= WIRE_FORMAT_VERSION) return;
  const page = db
    .prepare<[number, number], [number, string]>('SELECT rowid, doc FROM assets WHERE rowid > ? ORDER BY rowid LIMIT ?')
    .raw(true);
  const rewrite = db.prepare<[string, number]>('UPDATE assets SET doc = ? WHERE rowid = ?');
  for (let after = 0; ; ) {
    const rows = page.all(after, REWRITE_BATCH);
    for (const [rowid, doc] of rows) rewrite.run(toJson(JSON.parse(doc)), rowid);
    if (rows.length < REWRITE_BATCH) break;
    after = rows[rows.length - 1]![0];
  }
  db.pragma(`user_version = ${WIRE_FORMAT_VERSION}`);
}

/** `user_version` once every asset has its history. */
const HISTORY_VERSION = 2;
const HISTORY_BATCH = 500;

/** Revision 1 for assets from before history, a batch per transaction: a start cut short keeps what it did. */
export function giveHistories(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= HISTORY_VERSION) return;
  const page = db.prepare<[number, number], { rowid: number; id: string; doc: string }>(
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
    if ((db.pragma('user_version', { simple: true }) as number) < HISTORY_VERSION)
      db.pragma(`user_version = ${HISTORY_VERSION}`);
  }).immediate();
}
