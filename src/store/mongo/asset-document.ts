/** An asset's document in `assets`: the served document, with what the feed, the counter and the history read. */
import type { JsonObject } from '../../domain/json.js';
import { servedDateModified, type AssetRecord, type Revision, type RevisionDraft } from '../types.js';

export interface AssetDoc {
  _id: string;
  rev: number;
  ownerTokenHash: string;
  /** Missing, as `appliedTransfers`, on assets written before ownership transfers existed. */
  transferTokenHash?: string | null;
  appliedTransfers?: string[];
  modified: number;
  listed: boolean;
  test: boolean;
  /** The served `dateModified`, for listings without the document. */
  dateModified: string;
  /** `YYYY-MM-DD#n` of the assetID counter (`bulk#<id>`, `import#<id>` for those): unique. */
  counterKey: string;
  asset: JsonObject;
  /** Missing on assets written before documents existed. */
  documentHistory?: JsonObject[];
  /** Missing on assets from before history until the first start gives them one. */
  revisions?: number;
  /** The latest revision (number `revisions`), written with the asset, copied into the history after it. */
  latestRevision?: RevisionDraft & { date: string };
}

export function toDoc(record: AssetRecord, counterKey: string, latest: Revision): AssetDoc {
  return {
    _id: record.id,
    rev: record.rev,
    ownerTokenHash: record.ownerTokenHash,
    transferTokenHash: record.transferTokenHash,
    appliedTransfers: record.appliedTransfers,
    modified: record.modified,
    listed: record.listed,
    test: record.test,
    dateModified: servedDateModified(record),
    counterKey,
    asset: record.asset,
    documentHistory: record.documentHistory,
    revisions: record.revisions,
    latestRevision: { date: latest.date, author: latest.author, changes: latest.changes },
  };
}

export function toRecord(doc: AssetDoc): AssetRecord {
  return {
    id: doc._id,
    rev: Number(doc.rev),
    ownerTokenHash: doc.ownerTokenHash,
    transferTokenHash: doc.transferTokenHash ?? null,
    appliedTransfers: doc.appliedTransfers ?? [],
    modified: Number(doc.modified),
    listed: doc.listed,
    test: doc.test,
    asset: doc.asset,
    documentHistory: doc.documentHistory ?? [],
    revisions: Number(doc.revisions ?? 0),
  };
}

/** The counter key of a document a bulk insert or an import wrote, outside the clock. */
export const BULK_KEY = /^(?:bulk|import)#/;

/** Whether the document's latest revision is a registry write's, logged at its stamp (not queued). */
export function loggedByStamp(doc: Pick<AssetDoc, 'rev' | 'counterKey'>): boolean {
  return !(Number(doc.rev) === 1 && BULK_KEY.test(doc.counterKey));
}
