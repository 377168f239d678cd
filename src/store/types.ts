/** The storage interface requests use; both engines pass the same tests (test/store/). */
import type { Revision, Snapshot } from '../domain/history.js';
import type { JsonObject } from '../domain/json.js';
import { isFieldName, type ListedRow, type ListMode } from '../domain/listing.js';
import type { TransferMark } from '../domain/transfers.js';
import type { FileStore } from './files.js';
import type { LogSource, LogStore } from './log.js';

/** One asset as kept by a store: `asset` is the document exactly as served, nothing else of it is ever served. */
export interface AssetRecord {
  id: string;
  /** Grows with every write: the compare-and-set token of `update`. */
  rev: number;
  ownerTokenHash: string;
  /** `null` on assets written before ownership transfers existed: no transfer can take them. */
  transferTokenHash: string | null;
  /** The transfers applied to this asset, oldest first. */
  appliedTransfers: string[];
  /** `dateModified` in microseconds: unique across the store, increasing in commit order. */
  modified: number;
  /** Left `draft`: only listed records are in the feed. */
  listed: boolean;
  test: boolean;
  asset: JsonObject;
  /** Document versions superseded by newer ones, oldest first (`asset.documents` holds the latest). */
  documentHistory: JsonObject[];
  /** The `rev` of the history's latest revision; only writes that change what is served add one. */
  revisions: number;
}

/** A moment (µs) handed out inside a write: unique, later than every `modified` already stored. */
export interface WriteStamp {
  now: number;
}

/** `day` (`YYYY-MM-DD` in the store's zone) and its next `assetID` number, gap-free across every process. */
export interface CreateStamp extends WriteStamp {
  day: string;
  dayIndex: number;
}

export type RecordDraft = Omit<AssetRecord, 'rev' | 'revisions'>;

export type { Revision, Snapshot };

/** A revision as a write hands it over: the store numbers and dates it. */
export type RevisionDraft = Pick<Revision, 'author' | 'changes'>;

/**
 * A create or an update, one atomic write: the record and the one revision it adds (every such write changes at
 * least `dateModified`). `text` is `record.asset` as served (`toJson`), stored as given by a store that keeps it.
 */
export interface RecordWrite {
  record: RecordDraft;
  revision: RevisionDraft;
  text?: string;
}

/** Its history is revisions 1 … n, the last dated `dateModified`; without one, revision 1 holds it as it stands. */
export type BulkRecord = RecordDraft & { history?: readonly Revision[] };

export type { ListedRow, ListMode };

export type { TransferMark };

export interface ListQuery {
  /** Exclusive bound (µs): `> after` ascending, `< after` descending; absent: from the start, or the end. */
  after?: number;
  descending: boolean;
  limit: number;
  mode: ListMode;
  /** Top-level fields to read too (`opt_fields`, identifiers only): each row's `fields`, JSON text, in this order. */
  fields: readonly string[];
}

/** An asset's JSON text as served, as the stored bytes (never decoded on the way), and its version, the ETag. */
export interface AssetText {
  bytes: Buffer;
  modified: number;
}

/** A transfer of ownership: `owner`, and the token hashes, become the asset's once it is applied. */
export interface TransferRecord {
  id: string;
  owner: string;
  ownerTokenHash: string;
  transferTokenHash: string;
  /** Microseconds since the epoch. */
  created: number;
  /**
   * Written before the asset changes owner, so that the same call sent again finishes one cut short; the asset's
   * `appliedTransfers`, not the mark, says whether it is used
   * (docs/decisions/0033-ownership-transfer-in-two-writes.md).
   */
  mark: TransferMark | null;
}

export interface TransferStore {
  create(record: TransferRecord): Promise<void>;
  get(id: string): Promise<TransferRecord | undefined>;
  /** Compare-and-set on the whole mark: false when it was not `expected`, or the transfer is unknown. */
  setMark(id: string, expected: TransferMark | null, next: TransferMark): Promise<boolean>;
}

export interface WriteWatch {
  /** How other processes' writes are noticed, for the logs. */
  readonly method: string;
  /** Signals other processes' writes now, where that costs no round trip: a reader that calls it first is exact. */
  check?(): void;
  close(): Promise<void>;
}

export interface AssetStore {
  readonly transfers: TransferStore;
  /**
   * `build` runs inside the store's write, so it must be synchronous and pure: its stamp's `now` becomes `modified`,
   * and its `dayIndex` is used up only if the write commits.
   */
  create(build: (stamp: CreateStamp) => RecordWrite): Promise<AssetRecord>;
  get(id: string): Promise<AssetRecord | undefined>;
  getText(id: string): Promise<AssetText | undefined>;
  /**
   * Compare-and-set on `rev`, the write's revision added in the same atomic write; 'conflict' when another write
   * came first (the caller re-reads and retries). `build` may run for an attempt that then writes nothing.
   */
  update(id: string, expectedRev: number, build: (stamp: WriteStamp) => RecordWrite): Promise<AssetRecord | 'conflict'>;
  /** One feed page of listed records, by `modified`. */
  list(query: ListQuery): Promise<ListedRow[]>;
  /** Records without HTTP (seeding, imports), each with its history or neither; `modified` values must be unique. */
  bulkInsert(records: readonly BulkRecord[]): Promise<void>;
  /**
   * Revisions above `after`, oldest first, at most `limit`, and none after the one whose changes take the total read
   * to `maxBytes` (`changesBytes` of their JSON text; docs/decisions/0055-history-pages-bounded-in-bytes.md);
   * `undefined` for an unknown asset.
   */
  revisions(id: string, after: number, limit: number, maxBytes?: number): Promise<Revision[] | undefined>;
  /**
   * The kept snapshot nearest at or below `rev` (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md);
   * `undefined` when none is kept (an unknown asset, a short history, or one written before snapshots).
   */
  snapshot(id: string, rev: number): Promise<Snapshot | undefined>;
  /**
   * Calls `onWrite` soon after writes committed by any process sharing the store (one call may stand for several,
   * or find nothing new to list). Resolves once watching: a write committed afterwards is signalled.
   */
  watchWrites(onWrite: () => void): Promise<WriteWatch>;
  ping(): Promise<void>;
  readonly files: FileStore;
  /** What the node's writes last met: refused while the store refuses them (`GET /health`); absent: not kept. */
  writeState?(): WriteState;
  /**
   * Failures of the store's own background work, which no request meets (the embedded store's WAL checkpoints),
   * the first of each run of them; those before the listener came are given to it. Absent: the store does none.
   */
  onBackgroundFailure?(listener: (message: string) => void): void;
  /** The transparency log of the revisions (docs/decisions/0066-log-order-and-integration.md). */
  readonly log: LogStore;
  /** Set where the log's integrator runs in a thread of its own, which opens the log again from it. */
  readonly logSource?: LogSource;
  close(): Promise<void>;
}

/** `accepted` until a write is refused by the store's state (full, unreachable), again after one succeeds. */
export type WriteState = { accepted: true } | { accepted: false; reason: string };

/** MongoDB when `mongodbUri` is set, else the embedded store in `dataDir`; `timeZone` numbers `assetID` per day. */
export interface StoreOptions {
  mongodbUri?: string;
  dataDir: string;
  timeZone: string;
  /** REQUEST_TIMEOUT: a store call unanswered for a share of it is refused (refusals.ts). */
  requestTimeoutMs?: number;
  /** SERVER_ID: on MongoDB, what this node's previous life left of its uploads is removed at start. */
  node?: string;
}

/**
 * A write the store refused whole: nothing of it was written, or (an engine that stopped answering mid-write) it
 * was applied whole. Answered 503 with `Retry-After` (docs/decisions/0073-store-refusals-answered-503.md).
 */
export abstract class StoreRefusal extends Error {
  /** What the error envelope and `GET /health` say. */
  abstract readonly description: string;
  abstract readonly retryAfterSeconds: number;
}

/** Nothing was written in time (a contended clock or write lock, a lease run out); the request may be repeated. */
export class StoreBusyError extends StoreRefusal {
  readonly description = 'The storage is busy, please retry.';
  readonly retryAfterSeconds = 1;
  constructor(message = 'the store is busy') {
    super(message);
    this.name = 'StoreBusyError';
  }
}

/** The engine did not answer (down, unreachable, failing over, or past its time bound). */
export class StoreUnavailableError extends StoreRefusal {
  readonly description = 'The store does not answer';
  readonly retryAfterSeconds = 1;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The embedded store's file system is full: reads go on, writes are refused until space is freed. */
export class StorageFullError extends StoreRefusal {
  readonly description = 'Storage full';
  readonly retryAfterSeconds = 10;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StorageFullError';
  }
}

/** In a JSON path or a projection a dot would reach inside a value: only identifiers are fields. */
export function requireFieldNames(fields: readonly string[]): void {
  for (const field of fields) if (!isFieldName(field)) throw new Error(`not a field name: ${field}`);
}

export function servedDateModified(draft: RecordDraft): string {
  const served = draft.asset.dateModified;
  if (typeof served !== 'string') throw new Error(`record ${draft.id} has no dateModified text`);
  return served;
}

/** A history handed to `bulkInsert` must be one the registry could have written. */
export function checkHistory(record: RecordDraft, history: readonly Revision[]): void {
  const gap = history.findIndex((revision, i) => revision.rev !== i + 1);
  if (history.length === 0 || gap !== -1)
    throw new Error(`the history of ${record.id} does not number its revisions 1 … n`);
  if (history[history.length - 1]!.date !== servedDateModified(record)) {
    throw new Error(`the last revision of ${record.id} is not dated with its dateModified`);
  }
}
