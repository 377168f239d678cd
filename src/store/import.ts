/** The import's own interface to the store (docs/decisions/0039-import-resumable-into-an-empty-store.md). */
import type { RecordDraft, Revision, TransferRecord } from './types.js';

/** `modified` is the original's `dateModified`; `appliedTransfers` is filled by `ImportStore.writePage`. */
export type ImportedAsset = RecordDraft & { history: readonly Revision[] };

/** What the import tells of one document of the original's database, by its `_id`. */
export interface ImportReport {
  id: string;
  outcome: string;
  detail: string;
}

/** How far the import has got, written with every page. */
export interface ImportState {
  /** Without credentials: a resumed import must read the same database. */
  source: string;
  /** CouchDB's `last_seq` after the last page written. */
  since: string;
  done: boolean;
  counts: Record<string, number>;
}

export interface ImportPage {
  assets: ImportedAsset[];
  transfers: TransferRecord[];
  /** Per day, the highest `assetID` number among the page's assets: the day's counter goes on from there. */
  dayCounters: Record<string, number>;
  reports: ImportReport[];
  state: ImportState;
}

export interface ImportStore {
  /** `undefined` when no import has written to this store. */
  state(): Promise<ImportState | undefined>;
  /** Assets or transfers an import did not write (never once an import began). */
  holdsOwnData(): Promise<boolean>;
  /** Two original `dateModified`s may clash: the ids already stored at these `modified` values. */
  idsAt(modified: readonly number[]): Promise<Map<number, string>>;
  /**
   * Assets (replacing one of the same id), transfers, day counters (raised only), reports and the state: atomically
   * where the store can, else each write idempotent and the state last. A transfer whose mark names an asset is in
   * that asset's `appliedTransfers`, whichever of the two came first; later writes get later stamps than every
   * imported `modified`.
   */
  writePage(page: ImportPage): Promise<void>;
  reports(): Promise<ImportReport[]>;
  close(): Promise<void>;
}
