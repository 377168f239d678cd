/** Transfers in their own table, written through the assets' write queue; a mark is a compare-and-set. */
import type Database from 'better-sqlite3';
import type { TransferMark, TransferStore } from '../types.js';
import type { WriteQueue } from './write-queue.js';

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

/** The three `mark_*` columns, all null for no mark. */
type MarkColumns = [assetId: string | null, fromHash: string | null, at: number | null];

export function markColumns(mark: TransferMark | null): MarkColumns {
  return mark === null ? [null, null, null] : [mark.assetId, mark.fromHash, mark.at];
}

export function openTransfers(
  db: Database.Database,
  writer: Database.Database,
  { queueWrite }: WriteQueue,
): TransferStore {
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

  return {
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
}
