/**
 * The storage interface. Both stores (embedded SQLite, MongoDB) implement it and pass the same tests
 * (test/store/). Stores know nothing of HTTP, roles or validation: they keep records, hand out write
 * stamps and list the feed.
 */
import type { JsonObject } from '../domain/json.js';
import type { FileStore } from './files.js';

/** One asset as kept by a store. `asset` is the public document exactly as served (dates rendered). */
export interface AssetRecord {
  id: string;
  /** Increments on every write; the compare-and-set token of `update`. Never served. */
  rev: number;
  /** Hash of the owner token (see domain/ids.ts). Never served. */
  ownerTokenHash: string;
  /** `dateModified` as microseconds since the epoch: unique across the store and increasing in commit order. */
  modified: number;
  /** True once the asset has left `draft`: only listed records appear in the feed. */
  listed: boolean;
  /** True for `mode: "test"` assets (listing `mode` filter). */
  test: boolean;
  asset: JsonObject;
  /**
   * Document versions superseded by newer ones, in the order they were written; absent when there are none. Never
   * served with the asset (its `documents` holds the latest versions): the documents endpoints show them.
   */
  documentHistory?: JsonObject[];
}

/** A moment handed out by the store inside its write: unique, later than every `modified` already stored. */
export interface WriteStamp {
  /** Microseconds since the epoch. */
  now: number;
}

/** A creation stamp also carries the next value of the per-day `assetID` counter. */
export interface CreateStamp extends WriteStamp {
  /** Calendar day of `now` in the configured time zone, `YYYY-MM-DD`. */
  day: string;
  /** 1 for the first asset of `day`, gap-free and unique across every process sharing the store. */
  dayIndex: number;
}

/** What a build callback returns; the store sets `rev` itself. */
export type RecordDraft = Omit<AssetRecord, 'rev'>;

export type ListMode = 'real' | 'test' | 'all';

export interface ListQuery {
  /** Exclusive bound in microseconds: `> after` ascending, `< after` descending. Absent: from the start / the end. */
  after?: number;
  descending: boolean;
  limit: number;
  mode: ListMode;
  /** Load the whole documents too (for `opt_fields`). */
  withAssets: boolean;
}

export interface ListedRow {
  id: string;
  modified: number;
  /** The `dateModified` string as served. */
  dateModified: string;
  asset?: JsonObject;
}

export interface AssetStore {
  /**
   * Creates one record. `build` is called inside the store's write (it must be synchronous and pure) with a
   * stamp whose `now` becomes `modified` and whose `dayIndex` is consumed only if the write commits.
   */
  create(build: (stamp: CreateStamp) => RecordDraft): Promise<AssetRecord>;
  get(id: string): Promise<AssetRecord | undefined>;
  /**
   * Replaces the record if its `rev` is still `expectedRev`; `build` gets a fresh stamp inside the write.
   * Returns the stored record, or 'conflict' when another write came first (the caller re-reads and retries).
   */
  update(id: string, expectedRev: number, build: (stamp: WriteStamp) => RecordDraft): Promise<AssetRecord | 'conflict'>;
  /** One feed page of listed records, ordered by `modified`. */
  list(query: ListQuery): Promise<ListedRow[]>;
  /** Inserts ready-made records without HTTP (benchmarks, seeding); `modified` values must be unique. */
  bulkInsert(records: RecordDraft[]): Promise<void>;
  /** Liveness of the backing storage (health endpoint). */
  ping(): Promise<void>;
  /** The files of the document service, kept beside the records (a folder of the embedded store, GridFS). */
  readonly files: FileStore;
  close(): Promise<void>;
}
