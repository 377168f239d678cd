/** The ImportStore of the embedded store: a page is one transaction with its state, written whole or not at all. */
import { checkHistory } from '../types.js';
import type { ImportPage, ImportReport, ImportState, ImportStore } from '../import.js';
import { INSERT_ROW, rowColumns } from './assets.js';
import { openConnection } from './connection.js';
import { dayCounterRaiser } from './day-counter.js';
import { historyWriter } from './history.js';
import { importedLeafWriter } from './log.js';
import type { EmbeddedStoreOptions } from './index.js';
import { markColumns } from './transfers.js';
import { withWriteLock } from './write-queue.js';

/** Well below SQLite's limit of bound parameters. */
const IDS_AT_CHUNK = 500;

export function openEmbeddedImportStore(options: EmbeddedStoreOptions): ImportStore {
  const connection = openConnection(options.dataDir);
  const { db, writer, syncWal } = connection;
  const keepHistory = historyWriter(writer);
  const addImportedLeaf = importedLeafWriter(writer);
  const raiseDayCounter = dayCounterRaiser(writer);

  const selectImportState = db.prepare<[], string>('SELECT state FROM import_state WHERE id = 1').pluck();
  const anyOwnData = db
    .prepare<[], number>('SELECT EXISTS (SELECT 1 FROM assets) OR EXISTS (SELECT 1 FROM transfers)')
    .pluck();
  const selectImportReports = db.prepare<[], ImportReport>(
    'SELECT id, outcome, detail FROM import_reports ORDER BY id, outcome',
  );
  const upsertImportedRow = writer.prepare(
    `${INSERT_ROW} ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, ` +
      'owner_token_hash = excluded.owner_token_hash, modified = excluded.modified, listed = excluded.listed, test = excluded.test, ' +
      'date_modified = excluded.date_modified, doc = excluded.doc, transfer_token_hash = excluded.transfer_token_hash, ' +
      'applied_transfers = excluded.applied_transfers, document_history = excluded.document_history, revisions = excluded.revisions',
  );
  const selectLogIndexes = writer.prepare<[string], { rev: number; log_idx: number | null }>(
    'SELECT rev, log_idx FROM revisions WHERE asset_id = ?',
  );
  const deleteRevisions = writer.prepare<[string]>('DELETE FROM revisions WHERE asset_id = ?');
  const deleteSnapshots = writer.prepare<[string]>('DELETE FROM snapshots WHERE asset_id = ?');
  const upsertImportedTransfer = writer.prepare(
    'INSERT OR REPLACE INTO transfers (id, owner, owner_token_hash, transfer_token_hash, created, mark_asset_id, mark_from_hash, mark_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const selectMarkedFor = writer
    .prepare<[string], string>('SELECT id FROM transfers WHERE mark_asset_id = ? ORDER BY created, id')
    .pluck();
  const setAppliedTransfers = writer.prepare<[string, string]>('UPDATE assets SET applied_transfers = ? WHERE id = ?');
  const upsertImportReport = writer.prepare<[string, string, string]>(
    'INSERT OR REPLACE INTO import_reports (id, outcome, detail) VALUES (?, ?, ?)',
  );
  const upsertImportState = writer.prepare<[string]>('INSERT OR REPLACE INTO import_state (id, state) VALUES (1, ?)');

  const importPageTransaction = writer.transaction((page: ImportPage) => {
    for (const { history, ...record } of page.assets) {
      checkHistory(record, history);
      upsertImportedRow.run(record.id, ...rowColumns(record, 1, history.length));
      const replaced = new Map(selectLogIndexes.all(record.id).map((row) => [row.rev, row.log_idx ?? undefined]));
      deleteRevisions.run(record.id);
      deleteSnapshots.run(record.id);
      keepHistory(
        record.id,
        history,
        history.map((revision) => addImportedLeaf(record.id, revision, replaced.get(revision.rev))),
      );
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
    for (const [day, index] of Object.entries(page.dayCounters)) raiseDayCounter(day, index);
    for (const report of page.reports) upsertImportReport.run(report.id, report.outcome, report.detail);
    upsertImportState.run(JSON.stringify(page.state));
  });

  return {
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
          .prepare<number[], { id: string; modified: number }>(
            `SELECT id, modified FROM assets WHERE modified IN (${chunk.map(() => '?').join(', ')})`,
          )
          .all(...chunk);
        for (const row of rows) found.set(row.modified, row.id);
      }
      return found;
    },
    async writePage(page) {
      await withWriteLock(() => importPageTransaction.immediate(page));
      await syncWal();
    },
    async reports() {
      return selectImportReports.all();
    },
    close: () => connection.close(),
  };
}
