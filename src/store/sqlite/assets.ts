/** The assets table: a row per asset, the document kept as the text it is served as. */
import { dayOf } from '../../domain/dates.js';
import { firstRevision } from '../../domain/history.js';
import type { JsonObject } from '../../domain/json.js';
import { toJson } from '../../domain/serialize.js';
import {
  checkHistory,
  servedDateModified,
  type AssetRecord,
  type AssetStore,
  type AssetText,
  type BulkRecord,
  type CreateStamp,
  type RecordDraft,
  type RecordWrite,
  type Revision,
  type WriteStamp,
} from '../types.js';
import { writeStamps } from './clock.js';
import type { Connection } from './connection.js';
import { dayCounter } from './day-counter.js';
import { historyWriter, revisionWriter } from './history.js';
import { leafWriter } from './log.js';
import { withWriteLock, type WriteQueue } from './write-queue.js';

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

/** The columns after `id`, in table order: the parameters the insert and the update share. */
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

/** Where `doc`, the asset as served, is among the row's columns. */
const DOC_COLUMN = 6;

/** The import adds its upsert clause. */
export const INSERT_ROW =
  'INSERT INTO assets (id, rev, owner_token_hash, modified, listed, test, date_modified, doc, transfer_token_hash, applied_transfers, ' +
  'document_history, revisions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

export function rowColumns(draft: RecordDraft, rev: number, revisions: number, text = toJson(draft.asset)): RowColumns {
  return [
    rev,
    draft.ownerTokenHash,
    draft.modified,
    draft.listed ? 1 : 0,
    draft.test ? 1 : 0,
    servedDateModified(draft),
    // The wire format (`100.0`): reads serve the text as it is.
    text,
    draft.transferTokenHash,
    JSON.stringify(draft.appliedTransfers),
    JSON.stringify(draft.documentHistory),
    revisions,
  ];
}

/** A draft whose `modified` is not its stamp would break the feed order. */
function checkDraft(draft: RecordDraft, stamp: number, id?: string): void {
  if (draft.modified !== stamp) {
    throw new Error(`record draft has modified ${draft.modified}, but the write stamp is ${stamp}`);
  }
  if (id !== undefined && draft.id !== id) {
    throw new Error(`record draft for ${id} carries another id, ${draft.id}`);
  }
}

export interface AssetsContext {
  connection: Connection;
  queue: WriteQueue;
  signalWrites(): void;
  timeZone: string;
}

export type Assets = Pick<AssetStore, 'create' | 'get' | 'getText' | 'update' | 'bulkInsert'>;

export function openAssets({ connection, queue, signalWrites, timeZone }: AssetsContext): Assets {
  const { db, writer, syncWal } = connection;
  const takeStamp = writeStamps(writer);
  const nextDayIndex = dayCounter(writer);
  const keepRevision = revisionWriter(writer);
  const keepHistory = historyWriter(writer);
  const addLeaf = leafWriter(writer);
  // The changes' text serves the history's row and, when it is JCS already, the log's entry: encoded once, for both.
  const keepWithLeaf = (id: string, kept: Revision, text?: string) => {
    const changes = Buffer.from(JSON.stringify(kept.changes), 'utf8');
    keepRevision(id, kept, changes, addLeaf(id, kept, changes), text);
  };
  const insertRow = writer.prepare(INSERT_ROW);
  const updateRow = writer.prepare(
    'UPDATE assets SET rev = ?, owner_token_hash = ?, modified = ?, listed = ?, test = ?, date_modified = ?, doc = ?, ' +
      'transfer_token_hash = ?, applied_transfers = ?, document_history = ?, revisions = ? WHERE id = ?',
  );
  const selectRevs = writer.prepare<[string], { rev: number; revisions: number }>(
    'SELECT rev, revisions FROM assets WHERE id = ?',
  );
  const selectRow = db.prepare<[string], StoredRow>(
    'SELECT id, rev, owner_token_hash, transfer_token_hash, applied_transfers, modified, listed, test, doc, document_history, revisions ' +
      'FROM assets WHERE id = ?',
  );
  // As a BLOB: no decoding into a JavaScript string, as a TEXT column would cost.
  const selectText = db.prepare<[string], { doc: Buffer; modified: number }>(
    'SELECT CAST(doc AS BLOB) AS doc, modified FROM assets WHERE id = ?',
  );

  const createTransaction = writer.transaction((build: (stamp: CreateStamp) => RecordWrite): AssetRecord => {
    const now = takeStamp();
    const day = dayOf(now, timeZone);
    // In the insert's transaction: a build that throws gives the number back.
    const dayIndex = nextDayIndex(day);
    const { record: draft, revision, text } = build({ now, day, dayIndex });
    checkDraft(draft, now);
    insertRow.run(draft.id, ...rowColumns(draft, 1, 1, text));
    const kept = { rev: 1, date: servedDateModified(draft), ...revision };
    keepWithLeaf(draft.id, kept);
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
      const columns = rowColumns(draft, rev, revisions, text);
      updateRow.run(...columns, id);
      const kept = { rev: revisions, date: servedDateModified(draft), ...revision };
      keepWithLeaf(id, kept, columns[DOC_COLUMN]);
      return { ...draft, rev, revisions };
    },
  );

  const bulkInsertTransaction = writer.transaction((records: readonly BulkRecord[]) => {
    for (const { history, ...record } of records) {
      const revisions = history ?? [firstRevision(record.asset)];
      checkHistory(record, revisions);
      insertRow.run(record.id, ...rowColumns(record, 1, revisions.length));
      keepHistory(
        record.id,
        revisions,
        revisions.map((revision) => addLeaf(record.id, revision)),
      );
    }
  });

  return {
    async create(build) {
      return queue.queueWrite(() => createTransaction(build));
    },

    async get(id) {
      while (queue.updating(id)) await queue.waitForUpdates(id);
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
      return queue.queueWrite(() => updateTransaction(id, expectedRev, build), id);
    },

    async getText(id): Promise<AssetText | undefined> {
      const row = selectText.get(id);
      return row === undefined ? undefined : { bytes: row.doc, modified: row.modified };
    },

    async bulkInsert(records) {
      await withWriteLock(() => bulkInsertTransaction.immediate(records));
      await syncWal();
      signalWrites();
    },
  };
}
