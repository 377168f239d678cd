/**
 * The storage interface. Both stores (embedded SQLite, MongoDB) implement it and pass the same tests
 * (test/store/). Stores know nothing of HTTP, roles or validation: they keep records, hand out write
 * stamps, list the feed, keep each asset's history and the transfers of ownership.
 */
import type { ChangeOperation, Revision } from '../domain/history.js';
import type { JsonObject } from '../domain/json.js';
import { isFieldName, type ListedRow, type ListMode } from '../domain/listing.js';
import type { TransferMark } from '../domain/transfers.js';
import type { FileStore } from './files.js';

/** One asset as kept by a store. `asset` is the public document exactly as served (dates rendered). */
export interface AssetRecord {
  id: string;
  /** Increments on every write; the compare-and-set token of `update`. Never served. */
  rev: number;
  /** Hash of the owner token (see domain/ids.ts). Never served. */
  ownerTokenHash: string;
  /**
   * Hash of the transfer token, which hands the asset to another owner. `null` for assets created before
   * ownership transfers existed: no transfer can take them. Never served.
   */
  transferTokenHash: string | null;
  /** Ids of the transfers applied to this asset, oldest first: the record of which transfers took it. Never served. */
  appliedTransfers: string[];
  /** `dateModified` as microseconds since the epoch: unique across the store and increasing in commit order. */
  modified: number;
  /** True once the asset has left `draft`: only listed records appear in the feed. */
  listed: boolean;
  /** True for `mode: "test"` assets (listing `mode` filter). */
  test: boolean;
  asset: JsonObject;
  /**
   * Document versions superseded by newer ones, in the order they were written. Never served with the asset (its
   * `documents` holds the latest versions): the documents endpoints show them.
   */
  documentHistory: JsonObject[];
  /**
   * How many revisions the asset's history holds: the `rev` of its latest revision. Counts only writes that changed
   * what is served (unlike `rev`). The history itself is kept beside the record, never inside it.
   */
  revisions: number;
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

/** A record as written; the store sets `rev` and `revisions` itself. */
export type RecordDraft = Omit<AssetRecord, 'rev' | 'revisions'>;

/** An asset's history is the domain's (domain/history.ts); the store keeps it beside the records. */
export type { ChangeOperation, Revision };

/** What a write adds to its asset's history besides its date: who made it and how it changed the served asset. */
export type RevisionDraft = Pick<Revision, 'author' | 'changes'>;

/**
 * What a create or an update writes, in one atomic write: the record, and the revision of the asset's history the
 * write adds. Every create and update changes what is served (at least `dateModified`), so each adds exactly one
 * revision; the store numbers it (1 for a create, one more than the record's `revisions` for an update) and dates
 * it with the record's `dateModified`.
 */
export interface RecordWrite {
  record: RecordDraft;
  revision: RevisionDraft;
  /**
   * `record.asset` as the text it is served as (domain/serialize.ts `toJson`), when the writer has written it: a
   * store that keeps that text stores this one rather than writing it again.
   */
  text?: string;
}

/**
 * A ready-made record for `bulkInsert`, with its whole history when it has one (an import rebuilds it): revisions
 * 1 … n in order, the last one's `date` the asset's `dateModified`. Without `history` the record gets revision 1
 * holding it as it stands (author its owner, date its `dateModified`), as assets from before history do.
 */
export type BulkRecord = RecordDraft & { history?: readonly Revision[] };

/** The feed's own shapes are the domain's (domain/listing.ts); the store fills them. */
export type { ListedRow, ListMode };

/** A transfer's mark is the domain's (domain/transfers.ts); the store keeps it and compares it. */
export type { TransferMark };

export interface ListQuery {
  /** Exclusive bound in microseconds: `> after` ascending, `< after` descending. Absent: from the start / the end. */
  after?: number;
  descending: boolean;
  limit: number;
  mode: ListMode;
  /**
   * Top-level fields of each asset to read as well (`opt_fields`; identifiers only), as JSON text in the wire
   * format: each row's `fields` follows this order. Empty: only the feed's own columns (a covering index serves the page).
   */
  fields: readonly string[];
}

/**
 * An asset's JSON text exactly as served (the wire format, fixed when it was written), as UTF-8 bytes: what
 * goes on the wire, never decoded into a string on the way. And its `modified`.
 */
export interface AssetText {
  bytes: Buffer;
  /** The version of the text: a reader that holds it may skip the body (ETag). */
  modified: number;
}

/** One transfer of ownership as kept by a store. */
export interface TransferRecord {
  id: string;
  /** The API key name of the broker who created it: the owner of any asset it is applied to. */
  owner: string;
  /** Hash of the transfer's owner token: the asset's owner token hash once applied. Never served. */
  ownerTokenHash: string;
  /** Hash of the transfer's transfer token: the asset's transfer token hash once applied. Never served. */
  transferTokenHash: string;
  /** When it was created, microseconds since the epoch. */
  created: number;
  /**
   * Written before the asset changes owner, so a call cut short between the two writes leaves it and the same
   * call sent again finishes the job. The mark alone does not make the transfer used: the asset's
   * `appliedTransfers` decides (domain/transfers.ts).
   */
  mark: TransferMark | null;
}

export interface TransferStore {
  create(record: TransferRecord): Promise<void>;
  get(id: string): Promise<TransferRecord | undefined>;
  /**
   * Replaces the transfer's mark with `next` if it is still `expected` (compare-and-set on the whole mark).
   * False when the mark was something else (the caller re-reads and decides again) or the transfer is unknown.
   */
  setMark(id: string, expected: TransferMark | null, next: TransferMark): Promise<boolean>;
}

/** A running watch of a store's writes (`AssetStore.watchWrites`). */
export interface WriteWatch {
  /** How other processes' writes are noticed, for the logs: e.g. `change stream`, `clock poll`. */
  readonly method: string;
  /**
   * Looks for writes of other processes now, and signals any before it returns; present only where that costs no
   * round trip (the embedded store reads SQLite's data_version). A reader that calls it first is exact across
   * processes, not only within a poll interval.
   */
  check?(): void;
  close(): Promise<void>;
}

/**
 * An asset of the original registry's database as the import writes it (decisions.md §14): `modified` is its
 * original `dateModified`, `history` its revisions rebuilt from the original's; `appliedTransfers` is filled by the
 * store (`ImportStore.writePage`).
 */
export type ImportedAsset = RecordDraft & { history: readonly Revision[] };

/** Something the import tells about one document of the original's database, by its `_id`. */
export interface ImportReport {
  id: string;
  /** `refused`, `imported with errors`, `fields not imported`, `history fallbacks`, `dateModified moved`. */
  outcome: string;
  detail: string;
}

/** How far the import has got: kept in the store and written with every page (atomically where the store can). */
export interface ImportState {
  /** The database imported from, without credentials: a resumed import must read the same one. */
  source: string;
  /** CouchDB's `last_seq` after the last page written: the next page starts there. */
  since: string;
  /** True once the last page of `_changes` was written. */
  done: boolean;
  /** Documents by outcome so far (`assets imported`, `skipped: design document`, …). */
  counts: Record<string, number>;
}

/** One page of the original's `_changes` as the import writes it, with the state it leads to. */
export interface ImportPage {
  assets: ImportedAsset[];
  transfers: TransferRecord[];
  /** Per calendar day, the highest `assetID` number among the page's assets: the day's counter goes on from there. */
  dayCounters: Record<string, number>;
  reports: ImportReport[];
  state: ImportState;
}

/** What the import of the original's database needs of a store, and nothing else uses. */
export interface ImportStore {
  /** The import's state; `undefined` when no import has written to this store. */
  state(): Promise<ImportState | undefined>;
  /** Whether the store holds assets or transfers an import did not write (always false once an import began). */
  holdsOwnData(): Promise<boolean>;
  /** The ids of the assets stored at these `modified` values (a clash of two original `dateModified`s). */
  idsAt(modified: readonly number[]): Promise<Map<number, string>>;
  /**
   * Writes a page: assets (replacing one of the same id), transfers, day counters (raised, never lowered), reports
   * and the state, atomically where the store can, else each write idempotent and the state last. Every transfer
   * whose mark names an asset stored or written is listed in that asset's `appliedTransfers` (oldest first),
   * whichever of the two came first. Later writes get later stamps than every imported `modified`.
   */
  writePage(page: ImportPage): Promise<void>;
  /** Every report written so far, by `id`. */
  reports(): Promise<ImportReport[]>;
}

export interface AssetStore {
  /** The transfers of ownership, kept beside the assets (their own table or collection). */
  readonly transfers: TransferStore;
  /** The import of the original registry's database (scripts/import.ts). */
  readonly imports: ImportStore;

  /**
   * Creates one record and its revision 1. `build` is called inside the store's write (it must be synchronous and
   * pure) with a stamp whose `now` becomes `modified` and whose `dayIndex` is consumed only if the write commits.
   */
  create(build: (stamp: CreateStamp) => RecordWrite): Promise<AssetRecord>;
  get(id: string): Promise<AssetRecord | undefined>;
  /** The asset's served JSON text, without parsing or decoding it: the read path of `GET /assets/{id}`. */
  getText(id: string): Promise<AssetText | undefined>;
  /**
   * Replaces the record if its `rev` is still `expectedRev`, and adds the write's revision to its history in the
   * same atomic write; `build` gets a fresh stamp inside the write (a store may call it before its compare-and-set
   * finds the rev stale, and then writes nothing). Its cost does not depend on how many revisions came before.
   * Returns the stored record, or 'conflict' when another write came first (the caller re-reads and retries).
   */
  update(id: string, expectedRev: number, build: (stamp: WriteStamp) => RecordWrite): Promise<AssetRecord | 'conflict'>;
  /** One feed page of listed records, ordered by `modified`. */
  list(query: ListQuery): Promise<ListedRow[]>;
  /**
   * Inserts ready-made records without HTTP (benchmarks, seeding, imports); `modified` values must be unique. Each
   * record goes in together with its history (`BulkRecord`): a reader sees the record with all of it, or neither.
   */
  bulkInsert(records: readonly BulkRecord[]): Promise<void>;
  /**
   * The asset's revisions with `rev` above `after`, oldest first, at most `limit` of them; `undefined` when there is
   * no such asset. Reads by (asset, rev): the cost does not depend on where in the history the page is.
   */
  revisions(id: string, after: number, limit: number): Promise<Revision[] | undefined>;
  /**
   * Watches for writes committed by any process sharing the store: `onWrite` is called soon after each (several
   * writes may give one call, and a call may come with nothing new to list). It reads no feed rows: the caller
   * lists them with `list`. Resolves once watching, so a write that commits afterwards is signalled.
   */
  watchWrites(onWrite: () => void): Promise<WriteWatch>;
  /** Liveness of the backing storage (health endpoint). */
  ping(): Promise<void>;
  /** The files of the document service, kept beside the records (a folder of the embedded store, GridFS). */
  readonly files: FileStore;
  close(): Promise<void>;
}

/**
 * The store could not take the write in time (MongoDB: the shared clock stayed contended, or a write stamp's
 * lease ran out before the write began). Nothing was written; the caller may repeat the request.
 */
export class StoreBusyError extends Error {
  constructor(message = 'the store is busy') {
    super(message);
    this.name = 'StoreBusyError';
  }
}

/** Refuses `ListQuery.fields` that are not identifiers: in a JSON path or a projection a dot would reach inside a value. */
export function requireFieldNames(fields: readonly string[]): void {
  for (const field of fields) if (!isFieldName(field)) throw new Error(`not a field name: ${field}`);
}

/** `dateModified` as the record's document serves it: the text of the feed's order key. */
export function servedDateModified(draft: RecordDraft): string {
  const served = draft.asset.dateModified;
  if (typeof served !== 'string') throw new Error(`record ${draft.id} has no dateModified text`);
  return served;
}

/**
 * A history handed to `bulkInsert` must be one the registry could have written: revisions 1 … n in order, the last
 * one dated with the record's `dateModified`.
 */
export function checkHistory(record: RecordDraft, history: readonly Revision[]): void {
  const gap = history.findIndex((revision, i) => revision.rev !== i + 1);
  if (history.length === 0 || gap !== -1) throw new Error(`the history of ${record.id} does not number its revisions 1 … n`);
  if (history[history.length - 1]!.date !== servedDateModified(record)) {
    throw new Error(`the last revision of ${record.id} is not dated with its dateModified`);
  }
}
