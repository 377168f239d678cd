/** Each asset's history: a revision is inserted in its record's transaction, so a crash keeps both or neither. */
import type Database from 'better-sqlite3';
import { changesBytes, keepsSnapshot, snapshotsOf } from '../../domain/history.js';
import type { JsonObject } from '../../domain/json.js';
import type { AssetStore, Revision } from '../types.js';

interface RevisionRow {
  rev: number;
  date: string;
  author: string;
  changes: string;
}

/**
 * Must be called inside the transaction that writes the record, with the revision's changes as JSON text (or its
 * UTF-8 bytes, stored as the same text) and its log index (log.ts). `text` is the asset as served after the
 * revision: kept as a snapshot at every SNAPSHOT_EVERY-th
 * (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md).
 */
export function revisionWriter(
  writer: Database.Database,
): (id: string, revision: Revision, changes: string | Buffer, logIdx: number, text?: string) => void {
  const insertRevision = writer.prepare<[string, number, string, string, string | Buffer, number]>(
    'INSERT INTO revisions (asset_id, rev, date, author, changes, log_idx) VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?)',
  );
  const insertSnapshot = writer.prepare<[string, number, string]>(
    'INSERT OR REPLACE INTO snapshots (asset_id, rev, doc) VALUES (?, ?, ?)',
  );
  return function keepRevision(id, revision, changes, logIdx, text) {
    insertRevision.run(id, revision.rev, revision.date, revision.author, changes, logIdx);
    if (text !== undefined && keepsSnapshot(revision.rev)) insertSnapshot.run(id, revision.rev, text);
  };
}

/**
 * A history handed over whole (seeding, an import): its revisions, each with its log index, and their snapshots;
 * inside the transaction.
 */
export function historyWriter(
  writer: Database.Database,
): (id: string, history: readonly Revision[], logIndexes: readonly number[]) => void {
  const keepRevision = revisionWriter(writer);
  const insertSnapshot = writer.prepare<[string, number, string]>(
    'INSERT OR REPLACE INTO snapshots (asset_id, rev, doc) VALUES (?, ?, ?)',
  );
  return function keepHistory(id, history, logIndexes) {
    for (const [i, revision] of history.entries())
      keepRevision(id, revision, JSON.stringify(revision.changes), logIndexes[i]!);
    for (const { rev, text } of snapshotsOf(history)) insertSnapshot.run(id, rev, text);
  };
}

export function revisionReader(db: Database.Database): Pick<AssetStore, 'revisions' | 'snapshot'> {
  const selectRevisions = db.prepare<[string, number, number], RevisionRow>(
    'SELECT rev, date, author, changes FROM revisions WHERE asset_id = ? AND rev > ? ORDER BY rev LIMIT ?',
  );
  const selectRevisionCount = db.prepare<[string], number>('SELECT revisions FROM assets WHERE id = ?').pluck();
  const readRevisions = db.transaction(
    (id: string, after: number, limit: number, maxBytes: number): Revision[] | undefined => {
      if (selectRevisionCount.get(id) === undefined) return undefined;
      const page: Revision[] = [];
      let bytes = 0;
      // Row by row: a page's bound in bytes stops the reading, not only what is kept of it.
      for (const row of selectRevisions.iterate(id, after, limit)) {
        page.push({
          rev: row.rev,
          date: row.date,
          author: row.author,
          changes: JSON.parse(row.changes) as Revision['changes'],
        });
        bytes += changesBytes(row.changes);
        if (bytes >= maxBytes) break;
      }
      return page;
    },
  );
  // Below the asset's latest revision: a snapshot of an asset replaced by an import is never taken for its own.
  const selectSnapshot = db.prepare<[string, number], { rev: number; doc: string }>(
    'SELECT s.rev, s.doc FROM snapshots s JOIN assets a ON a.id = s.asset_id ' +
      'WHERE s.asset_id = ? AND s.rev <= ? AND s.rev <= a.revisions ORDER BY s.rev DESC LIMIT 1',
  );
  return {
    async revisions(id, after, limit, maxBytes = Number.POSITIVE_INFINITY) {
      // One snapshot: the count and the page agree.
      return readRevisions(id, after, limit, maxBytes);
    },
    async snapshot(id, rev) {
      const row = selectSnapshot.get(id, rev);
      return row === undefined ? undefined : { rev: row.rev, asset: JSON.parse(row.doc) as JsonObject };
    },
  };
}
