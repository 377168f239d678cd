/** Transfers in their own collection, read and marked by `_id`; a mark changes by compare-and-set. */
import type { Collection, Db } from 'mongodb';
import type { TransferMark, TransferStore } from '../types.js';

export interface TransferDoc {
  _id: string;
  owner: string;
  ownerTokenHash: string;
  transferTokenHash: string;
  created: number;
  mark: TransferMark | null;
}

export function transfersOf(db: Db): Collection<TransferDoc> {
  return db.collection<TransferDoc>('transfers');
}

export function openTransfers(collection: Collection<TransferDoc>): TransferStore {
  return {
    async create(record) {
      await collection.insertOne({
        _id: record.id,
        owner: record.owner,
        ownerTokenHash: record.ownerTokenHash,
        transferTokenHash: record.transferTokenHash,
        created: record.created,
        mark: record.mark,
      });
    },

    async get(id) {
      const doc = await collection.findOne({ _id: id });
      if (!doc) return undefined;
      const mark = doc.mark ?? null;
      return {
        id: doc._id,
        owner: doc.owner,
        ownerTokenHash: doc.ownerTokenHash,
        transferTokenHash: doc.transferTokenHash,
        created: Number(doc.created),
        mark: mark === null ? null : { assetId: mark.assetId, fromHash: mark.fromHash, at: Number(mark.at) },
      };
    },

    async setMark(id, expected, next) {
      // Field by field: an equality on the whole subdocument would depend on the order of its keys.
      const current =
        expected === null
          ? { mark: null }
          : { 'mark.assetId': expected.assetId, 'mark.fromHash': expected.fromHash, 'mark.at': expected.at };
      const result = await collection.updateOne(
        { _id: id, ...current },
        { $set: { mark: { assetId: next.assetId, fromHash: next.fromHash, at: next.at } } },
      );
      return result.matchedCount === 1;
    },
  };
}
