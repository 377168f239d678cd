/**
 * The MongoDB store (production: a replica set). One document per asset in `assets`, counters and the shared
 * clock in `counters`. Works without transactions; see docs/feed-completeness.md for why the feed never skips.
 *
 * The clock document `{ _id: 'clock', t, v, inflight: [{ t, exp }] }` is the one clock of every node:
 * - a write takes a tick `t' = max(now, t + 1)` and records it in `inflight` with a lease expiry, in ONE
 *   single-document update (atomic on MongoDB); `now` is the database's clock (`$$NOW`, or `hello.localTime`
 *   on servers without update pipelines), with the node's microsecond digits inside the database's millisecond;
 * - it writes the asset (write concern majority) with `modified = t'`, then removes its tick;
 * - a feed reader reads the clock first and lists only `modified < min(unexpired inflight ticks)` (or `<= t`
 *   when nothing is in flight), so it never passes a tick that has yet to commit.
 *
 * The history of each asset is in its own collection, `revisions`, one document per revision, read by (asset, rev).
 * Without multi-document transactions, a write stays atomic through its asset's document: the update that changes
 * the asset also sets its count of revisions and its latest revision (`latestRevision`, one revision, so the
 * document never grows with the history); right after, that revision is copied into `revisions` (an idempotent
 * upsert). Before anything moves `latestRevision` on (the next write) or serves a page of the history, the
 * document's latest revision is made sure of in the collection, so a crash between the two writes loses nothing:
 * every revision below the document's latest is always in the collection.
 *
 * Transfers of ownership are documents of their own collection, `transfers`, read and marked by `_id` only.
 * The document service's files are in GridFS, bucket `files` (gridfs.ts).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  Timestamp,
  type ClientSession,
  type Collection,
  type CommandStartedEvent,
  type Db,
  type Document,
  type IndexDescription,
} from 'mongodb';
import { dayOf } from '../domain/dates.js';
import { type FeedLearned, type FeedWindow, learnFrom, readInWindows } from '../domain/feed-windows.js';
import { firstRevision } from '../domain/history.js';
import type { JsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import type { FileStore } from './files.js';
import { openGridFsFileStore } from './gridfs.js';
import {
  checkHistory,
  requireFieldNames,
  servedDateModified,
  StoreBusyError,
  type AssetRecord,
  type AssetText,
  type AssetStore,
  type BulkRecord,
  type CreateStamp,
  type ImportPage,
  type ImportReport,
  type ImportState,
  type ImportStore,
  type ListQuery,
  type ListedRow,
  type RecordDraft,
  type RecordWrite,
  type Revision,
  type RevisionDraft,
  type TransferMark,
  type TransferRecord,
  type TransferStore,
  type WriteStamp,
  type WriteWatch,
} from './types.js';

/** How long a tick may stay in flight before readers ignore it (a crashed writer). Database-clock ms. */
export const LEASE_MS = 30_000;
/** A writer starts its asset write only with at least this much of its lease left (local monotonic time). */
const WRITE_MARGIN_MS = 15_000;
/** Bounds the asset write itself (server-side wait for the majority), well inside the margin. */
const WRITE_TIMEOUT_MS = 10_000;
/** How long a finished writer waits for earlier ticks before answering anyway. */
const WAIT_EARLIER_MAX_MS = 5_000;
const MAX_ATTEMPTS = 20;
/** Without change streams, how often a watched store reads the clock's version (`watchWrites`). */
const WATCH_POLL_MS = 20;
/**
 * A watched store also signals this often with no write seen: a lease that runs out (a crashed writer) lets the
 * feed go on without any document changing.
 */
const WATCH_TICK_MS = 1000;
const BULK_BATCH = 1000;
const CLOCK_ID = 'clock';

/** The feed (unique: every `modified` is), the listing filters, and the assetID numbers (unique). */
export const ASSET_INDEXES = [
  { key: { modified: 1 }, name: 'feed', unique: true },
  { key: { listed: 1, test: 1, modified: 1 }, name: 'listing' },
  { key: { listed: 1, modified: 1 }, name: 'listing_all' },
  { key: { counterKey: 1 }, name: 'asset_id_counter', unique: true },
] as const satisfies IndexDescription[];

/**
 * The index names, for the hints of the queries that more than one index could serve (a range on `modified`):
 * the plan is then the same on every engine and every run, not the outcome of a planner's trial
 * (test/store/mongo-explain.test.ts checks each query's plan).
 */
const INDEX = Object.fromEntries(ASSET_INDEXES.map((spec) => [spec.name, spec.name])) as {
  [Name in (typeof ASSET_INDEXES)[number]['name']]: Name;
};

/**
 * A page of an asset's history is one range of this index. Not unique: `_id` (`asset/rev`) already is. A unique
 * compound index on DocumentDB checks every entry sharing `rev` on each insert (4.6 ms an insert at 16,000
 * revisions, in proportion beyond), and it was unique until 2026-11: `init` makes it plain.
 */
export const REVISION_INDEXES = [{ key: { asset: 1, rev: 1 }, name: 'history' }] as const satisfies IndexDescription[];

/** The marker in `counters` of a database whose every asset has its history (revision 1 at least). */
const HISTORY_MARKER = 'history';
const HISTORY_BATCH = 500;
/** How many assets' copied revisions a node remembers (`copiedRevisions`). */
const COPIED_REMEMBERED = 10_000;

export type ClockMode = 'pipeline' | 'cas';

export interface MongoStoreOptions {
  uri: string;
  timeZone: string;
  /** How ticks are taken; `auto` (default) uses an update pipeline with `$$NOW` when the server has one. */
  clock?: 'auto' | ClockMode;
  /**
   * Called with every command the store's client sends (the driver's command monitoring): how many round trips an
   * operation costs (test/store/mongo-round-trips.test.ts).
   */
  onCommand?: (event: CommandStartedEvent) => void;
}

/** The store adds `modified`-ordering and counter internals; `asset` is the public document. */
interface AssetDoc {
  _id: string;
  rev: number;
  ownerTokenHash: string;
  /** Missing on assets written before ownership transfers existed. */
  transferTokenHash?: string | null;
  /** Missing on assets written before ownership transfers existed. */
  appliedTransfers?: string[];
  modified: number;
  listed: boolean;
  test: boolean;
  /** The served `dateModified` string, for listings without the document. */
  dateModified: string;
  /** `YYYY-MM-DD#index` of the assetID counter (`bulk#<id>` for bulk inserts): unique, catches double numbers. */
  counterKey: string;
  asset: JsonObject;
  /** Superseded document versions; missing on assets written before documents existed. */
  documentHistory?: JsonObject[];
  /** How many revisions the history holds; missing on assets from before history until the first start gives them one. */
  revisions?: number;
  /** Revision `revisions` (its number is that count), also copied into `revisions`: see the module comment. */
  latestRevision?: RevisionDraft & { date: string };
}

/** One revision of one asset in `revisions`. */
interface RevisionDoc extends Revision {
  /** `<asset>/<rev>`: a copy repeated is the same document. */
  _id: string;
  asset: string;
}

interface MarkerDoc {
  _id: string;
  done: boolean;
}

interface TransferDoc {
  _id: string;
  owner: string;
  ownerTokenHash: string;
  transferTokenHash: string;
  created: number;
  mark: TransferMark | null;
}

/** The import's state (`_id: 'state'`) in the `import` collection. */
interface ImportStateDoc extends ImportState {
  _id: string;
}

/** One report of the import, `_id` `<outcome>:<document id>`, in `import_reports`. */
interface ImportReportDoc extends ImportReport {
  _id: string;
}

interface Tick {
  t: number;
  /** Lease expiry, database-clock milliseconds since the epoch. */
  exp: number;
}

interface ClockDoc {
  _id: string;
  t: number;
  v: number;
  inflight: Tick[];
  now?: Date;
}

interface CounterDoc {
  _id: string;
  n: number;
  spare?: number[];
}

/** The running watch of the clock behind every `watchWrites` of one store. */
interface ClockWatch {
  method: string;
  stop(): Promise<void>;
}

interface HeldTick {
  entry: Tick;
  /** Local monotonic deadline (performance.now()) after which the asset write must not start. */
  deadline: number;
}

/** The database named in the URI's path, `registry` when none. */
export function databaseName(uri: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name || 'registry';
}

function busyError(): StoreBusyError {
  return new StoreBusyError('the shared clock or a write lease could not be had in time');
}

/**
 * Creates the collection's missing indexes in one command, after dropping any whose uniqueness is not the one asked
 * for: a restart with its indexes in place sends only the read.
 */
async function ensureIndexes<Doc extends Document>(collection: Collection<Doc>, specs: readonly IndexDescription[]): Promise<void> {
  const existing = new Map((await collection.indexes().catch(() => [])).map((index) => [index.name, index]));
  const wanted = specs.filter((spec) => {
    const index = existing.get(spec.name!);
    return index === undefined || Boolean(index.unique) !== Boolean(spec.unique);
  });
  for (const spec of wanted) if (existing.has(spec.name!)) await collection.dropIndex(spec.name!);
  if (wanted.length > 0) await collection.createIndexes([...wanted]);
}

/** Errors after which the write certainly did not happen (so its tick may be released at once). */
function isDuplicateKey(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && error.code === 11000;
}

/** The database's clock, ms, as `hello` reports it (servers without `$$NOW` in updates). */
async function helloTime(db: Db): Promise<number> {
  const hello = await db.command({ hello: 1 });
  const t = hello.localTime;
  if (t instanceof Date) return t.getTime();
  throw new Error('the server reports no localTime in hello');
}

/** A µs moment inside the database's millisecond `dbMs`, with the node's digits when they fall inside it. */
function withinMillisecond(dbMs: number, nodeMicros: number): number {
  return Math.min(Math.max(nodeMicros, dbMs * 1000), dbMs * 1000 + 999);
}

function nodeMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** Runs `work` after the work queued before it under the same key (in `queues`) has settled. */
function oneAtATime<T>(queues: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/** The transfers collection: one document per transfer, its mark changed by compare-and-set. */
class MongoTransfers implements TransferStore {
  constructor(private readonly collection: Collection<TransferDoc>) {}

  async create(record: TransferRecord): Promise<void> {
    await this.collection.insertOne({
      _id: record.id,
      owner: record.owner,
      ownerTokenHash: record.ownerTokenHash,
      transferTokenHash: record.transferTokenHash,
      created: record.created,
      mark: record.mark,
    });
  }

  async get(id: string): Promise<TransferRecord | undefined> {
    const doc = await this.collection.findOne({ _id: id });
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
  }

  async setMark(id: string, expected: TransferMark | null, next: TransferMark): Promise<boolean> {
    // Field by field: an equality on the whole subdocument would also depend on the order of its keys.
    const current =
      expected === null
        ? { mark: null }
        : { 'mark.assetId': expected.assetId, 'mark.fromHash': expected.fromHash, 'mark.at': expected.at };
    const result = await this.collection.updateOne(
      { _id: id, ...current },
      { $set: { mark: { assetId: next.assetId, fromHash: next.fromHash, at: next.at } } },
    );
    return result.matchedCount === 1;
  }
}

export async function openMongoStore(options: MongoStoreOptions): Promise<AssetStore & { clockMode: ClockMode }> {
  const client = new MongoClient(options.uri, {
    writeConcern: { w: 'majority', wtimeoutMS: WRITE_TIMEOUT_MS },
    readConcern: { level: 'majority' },
    readPreference: 'primary',
    monitorCommands: options.onCommand !== undefined,
  });
  if (options.onCommand) client.on('commandStarted', options.onCommand);
  await client.connect();
  try {
    const db = client.db(databaseName(options.uri));
    const store = new MongoStore(client, db, options.timeZone);
    await store.init(options.clock ?? 'auto');
    return store;
  } catch (error) {
    await client.close();
    throw error;
  }
}

class MongoStore implements AssetStore {
  readonly assets: Collection<AssetDoc>;
  /** The clock document and the day counters of `counters`, each as its own type. */
  private readonly clock: Collection<ClockDoc>;
  private readonly dayCounters: Collection<CounterDoc>;
  readonly history: Collection<RevisionDoc>;
  /** The markers of `counters` (a database whose every asset has its history). */
  private readonly markers: Collection<MarkerDoc>;
  readonly transfers: MongoTransfers;
  readonly files: FileStore;
  clockMode: ClockMode = 'cas';
  /**
   * The index a listing page reads through, per mode (`all`, or `real`/`test`). On MongoDB the compound `listing`
   * indexes: the equalities, then the window of `modified`, in index order. DocumentDB (behind FerretDB) matches
   * each key of a compound index on its own, so an equality on `listed` reads every listed entry (a window of 200
   * rows cost 44 ms at 100,000 assets against 10 at 10,000): there `feed` bounds the scan by the window, and
   * `listed` and `test` are checked on its rows. Chosen at start-up from `buildInfo`.
   */
  private listingIndex: { all: string; mode: string } = { all: INDEX.listing_all, mode: INDEX.listing };

  /**
   * The import's writes. No transactions (FerretDB 1.x has none): each write of a page is idempotent (replace by
   * `_id`, `$max`, recomputed lists) and the state is written last, so a page cut short is written again whole.
   */
  readonly imports: ImportStore = {
    state: async () => {
      const doc = await this.importState.findOne({ _id: 'state' });
      if (doc === null) return undefined;
      const { _id: _ignored, ...state } = doc;
      return state;
    },
    holdsOwnData: async () => {
      if ((await this.importState.countDocuments({ _id: 'state' })) > 0) return false;
      const asset = await this.assets.findOne({}, { projection: { _id: 1 } });
      const transfer = asset ? null : await this.db.collection('transfers').findOne({}, { projection: { _id: 1 } });
      return asset !== null || transfer !== null;
    },
    idsAt: async (modified) => {
      const found = new Map<number, string>();
      const docs = this.assets.find({ modified: { $in: [...modified] } }, { projection: { _id: 1, modified: 1 } });
      for await (const doc of docs) found.set(Number(doc.modified), doc._id);
      return found;
    },
    writePage: (page) => this.writeImportPage(page),
    reports: async () => {
      const docs = await this.importReports.find({}, { sort: { _id: 1 } }).toArray();
      return docs.map(({ id, outcome, detail }) => ({ id, outcome, detail }));
    },
  };

  private get importState(): Collection<ImportStateDoc> {
    return this.db.collection<ImportStateDoc>('import');
  }

  private get importReports(): Collection<ImportReportDoc> {
    return this.db.collection<ImportReportDoc>('import_reports');
  }

  private async writeImportPage(page: ImportPage): Promise<void> {
    const transfers = this.db.collection<TransferDoc>('transfers');
    if (page.assets.length > 0) {
      // Histories first (idempotent upserts), as in bulkInsert: until its asset is there, a history serves nothing.
      const revisions: RevisionDoc[] = [];
      const replacements = page.assets.map(({ history, ...record }) => {
        checkHistory(record, history);
        for (const revision of history) revisions.push(revisionDoc(record.id, revision));
        const replacement = this.toDoc({ ...record, rev: 1, revisions: history.length }, `import#${record.id}`, history[history.length - 1]!);
        return { replaceOne: { filter: { _id: record.id }, replacement, upsert: true } };
      });
      await this.keepRevisions(revisions);
      await this.assets.bulkWrite(replacements, { ordered: true });
    }
    if (page.transfers.length > 0) {
      await transfers.bulkWrite(
        page.transfers.map((transfer) => ({
          replaceOne: {
            filter: { _id: transfer.id },
            replacement: {
              owner: transfer.owner,
              ownerTokenHash: transfer.ownerTokenHash,
              transferTokenHash: transfer.transferTokenHash,
              created: transfer.created,
              mark: transfer.mark,
            },
            upsert: true,
          },
        })),
        { ordered: true },
      );
    }
    const marked = new Set<string>(page.assets.map((record) => record.id));
    for (const transfer of page.transfers) if (transfer.mark !== null) marked.add(transfer.mark.assetId);
    if (marked.size > 0) {
      const applied = new Map<string, string[]>([...marked].map((id) => [id, []]));
      const markedTransfers = transfers.find({ 'mark.assetId': { $in: [...marked] } }, { sort: { created: 1, _id: 1 } });
      for await (const transfer of markedTransfers) applied.get(transfer.mark!.assetId)?.push(transfer._id);
      await this.assets.bulkWrite(
        [...applied].map(([id, ids]) => ({ updateOne: { filter: { _id: id }, update: { $set: { appliedTransfers: ids } } } })),
        { ordered: false },
      );
    }
    for (const [day, index] of Object.entries(page.dayCounters)) {
      await this.dayCounters.updateOne({ _id: `assetID:${day}` }, { $max: { n: index } }, { upsert: true });
    }
    if (page.reports.length > 0) {
      await this.importReports.bulkWrite(
        page.reports.map((report) => ({
          replaceOne: { filter: { _id: `${report.outcome}:${report.id}` }, replacement: { ...report }, upsert: true },
        })),
        { ordered: true },
      );
    }
    const latest = Math.max(...page.assets.map((record) => record.modified));
    if (Number.isFinite(latest)) await this.pushClock(latest);
    await this.importState.replaceOne({ _id: 'state' }, page.state, { upsert: true });
    this.signalWrites();
  }

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly timeZone: string,
  ) {
    this.assets = db.collection<AssetDoc>('assets');
    this.clock = db.collection<ClockDoc>('counters');
    this.dayCounters = db.collection<CounterDoc>('counters');
    this.history = db.collection<RevisionDoc>('revisions');
    this.markers = db.collection<MarkerDoc>('counters');
    this.transfers = new MongoTransfers(db.collection<TransferDoc>('transfers'));
    this.files = openGridFsFileStore(db);
  }


  /**
   * Start-up: the missing indexes, then the clock document (made when missing) in one update, which on MongoDB also
   * shows that update pipelines work. Nothing here reads the assets: the check for records written around the store
   * starts behind it (`clockCaughtUp`), so start-up costs the same whatever the collection holds.
   */
  async init(mode: 'auto' | ClockMode): Promise<void> {
    const build = await this.db.command({ buildInfo: 1 });
    if (build.ferretdb !== undefined) this.listingIndex = { all: INDEX.feed, mode: INDEX.feed };
    await ensureIndexes(this.assets, ASSET_INDEXES);
    await ensureIndexes(this.history, REVISION_INDEXES);
    await this.giveHistories();
    let opened: ClockDoc;
    if (mode === 'cas') {
      this.clockMode = 'cas';
      opened = this.clockSeen = await this.openClock('cas');
    } else {
      try {
        opened = await this.openClock('pipeline');
        this.clockMode = 'pipeline';
      } catch (error) {
        if (!(error instanceof MongoServerError) || mode === 'pipeline') throw error;
        this.clockMode = 'cas'; // e.g. FerretDB: no $$NOW in update pipelines
        opened = this.clockSeen = await this.openClock('cas');
      }
    }
    this.clockAtOpen = Number(opened.t);
    void this.clockCaughtUp().catch(() => undefined);
  }

  /** The clock document as it is, made first when missing (a fresh database). */
  private async openClock(mode: ClockMode): Promise<ClockDoc> {
    const update =
      mode === 'pipeline'
        ? [{ $set: { t: { $ifNull: ['$t', 0] }, v: { $ifNull: ['$v', 0] }, inflight: { $ifNull: ['$inflight', []] }, now: '$$NOW' } }]
        : { $setOnInsert: { t: 0, v: 0, inflight: [] } };
    for (let attempt = 1; ; attempt++) {
      try {
        const doc = await this.clock.findOneAndUpdate({ _id: CLOCK_ID }, update, { upsert: true, returnDocument: 'after' });
        if (!doc) throw new Error('the clock document is missing');
        return doc;
      } catch (error) {
        // Two nodes starting on a fresh database race to insert the clock; the loser finds it there.
        if (!isDuplicateKey(error) || attempt >= 3) throw error;
      }
    }
  }

  /** The check for records written around the store: settles before the first write of this node takes a stamp. */
  private catchingUp: Promise<void> | undefined;
  /** The clock's `t` when the store opened. */
  private clockAtOpen = 0;

  private clockCaughtUp(): Promise<void> {
    this.catchingUp ??= this.catchUpClock().catch((error: unknown) => {
      this.catchingUp = undefined; // the next write tries again
      throw error;
    });
    return this.catchingUp;
  }

  /**
   * Records written around the store (restores, imports) still push the clock past them, so that stamps stay
   * unique and increasing. Readers need not wait for it: they list nothing above the clock. One query on the
   * `feed` index, bounded below by the clock: an engine that sorts after its index scan (DocumentDB) reads only
   * the records above the clock, usually none.
   */
  private async catchUpClock(): Promise<void> {
    const latest = await this.assets
      .find(
        { modified: { $gt: this.clockAtOpen } },
        { projection: { modified: 1 }, sort: { modified: -1 }, limit: 1, hint: INDEX.feed },
      )
      .next();
    if (latest === null || Number(latest.modified) <= this.clockAtOpen) return;
    await this.pushClock(Number(latest.modified));
  }

  /** Moves the clock to at least `t` (records written without a stamp: bulk inserts, restores). */
  private async pushClock(t: number): Promise<void> {
    const push = () =>
      this.clock.findOneAndUpdate({ _id: CLOCK_ID }, { $max: { t }, $inc: { v: 1 } }, { returnDocument: 'after' });
    if (this.clockMode === 'pipeline') {
      await push();
      return;
    }
    await this.inClockQueue(async () => {
      this.clockSeen = (await push()) ?? undefined;
    });
  }

  // ---------------------------------------------------------------- the clock

  private async takeTick(): Promise<HeldTick> {
    await this.clockCaughtUp();
    return this.clockMode === 'pipeline' ? this.takeTickPipeline() : this.inClockQueue(() => this.takeTickCas());
  }

  /** The tail of this node's queue of clock and day-counter updates in CAS mode. */
  private clockQueue: Promise<unknown> = Promise.resolve();

  /**
   * In CAS mode this node's clock and day-counter updates go one at a time: concurrent clock updates would only
   * fail and retry against each other. Nodes still race one another (through the compare-and-set on `v`, and
   * `$inc`).
   */
  private inClockQueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.clockQueue.then(work, work);
    this.clockQueue = run.catch(() => undefined);
    return run;
  }

  /** One atomic update: t = max(now, t + 1), expired leases dropped, the new lease pushed. */
  private async takeTickPipeline(): Promise<HeldTick> {
    const sent = performance.now();
    const node = nodeMicros();
    const nowMs = { $toLong: '$now' };
    const doc = await this.clock.findOneAndUpdate(
      { _id: CLOCK_ID },
      [
        { $set: { now: '$$NOW' } },
        {
          $set: {
            t: {
              $max: [
                { $min: [{ $max: [node, { $multiply: [nowMs, 1000] }] }, { $add: [{ $multiply: [nowMs, 1000] }, 999] }] },
                { $add: ['$t', 1] },
              ],
            },
          },
        },
        {
          $set: {
            v: { $add: ['$v', 1] },
            inflight: {
              $concatArrays: [
                { $filter: { input: { $ifNull: ['$inflight', []] }, cond: { $gt: ['$$this.exp', nowMs] } } },
                [{ t: '$t', exp: { $add: [nowMs, LEASE_MS] } }],
              ],
            },
          },
        },
      ],
      { returnDocument: 'after' },
    );
    if (!doc) throw new Error('the clock document is missing');
    const entry = doc.inflight.find((tick) => tick.t === doc.t);
    if (!entry) throw new Error('the clock lost the tick it just handed out');
    return { entry: { t: Number(entry.t), exp: Number(entry.exp) }, deadline: sent + LEASE_MS - WRITE_MARGIN_MS };
  }

  /**
   * The clock document as this node's last clock update left it (CAS mode): the next compare-and-set starts from it
   * without reading it again. When another node moved the clock since, the compare-and-set fails and it is re-read.
   */
  private clockSeen: ClockDoc | undefined;

  /** Compare-and-set on the clock's version, for servers without update pipelines. */
  private async takeTickCas(): Promise<HeldTick> {
    for (let attempt = 0; ; attempt++) {
      const sent = performance.now();
      const [dbMs, current] = await Promise.all([
        helloTime(this.db),
        this.clockSeen ?? this.clock.findOne({ _id: CLOCK_ID }),
      ]);
      if (!current) throw new Error('the clock document is missing');
      const t = Math.max(withinMillisecond(dbMs, nodeMicros()), Number(current.t) + 1);
      const entry: Tick = { t, exp: dbMs + LEASE_MS };
      const live = current.inflight.filter((tick) => tick.exp > dbMs);
      const after = await this.clock.findOneAndUpdate(
        { _id: CLOCK_ID, v: current.v },
        { $set: { t, inflight: [...live, entry] }, $inc: { v: 1 } },
        { returnDocument: 'after' },
      );
      this.clockSeen = after ?? undefined;
      if (after) return { entry, deadline: sent + LEASE_MS - WRITE_MARGIN_MS };
      if (attempt > 1000) throw busyError();
      if (attempt > 3) await sleep(Math.random() * Math.min(attempt, 20));
    }
  }

  /** Removes the tick (and, with pipelines, expired ones); answers the live ticks earlier than it. */
  private async releaseTick(entry: Tick): Promise<Tick[]> {
    if (this.clockMode === 'pipeline') {
      const nowMs = { $toLong: '$now' };
      const doc = await this.clock.findOneAndUpdate(
        { _id: CLOCK_ID },
        [
          { $set: { now: '$$NOW' } },
          {
            $set: {
              v: { $add: ['$v', 1] },
              inflight: {
                $filter: {
                  input: { $ifNull: ['$inflight', []] },
                  cond: { $and: [{ $ne: ['$$this.t', entry.t] }, { $gt: ['$$this.exp', nowMs] }] },
                },
              },
            },
          },
        ],
        { returnDocument: 'after' },
      );
      return (doc?.inflight ?? []).filter((tick) => tick.t < entry.t);
    }
    const doc = await this.inClockQueue(async () => {
      const after = await this.clock.findOneAndUpdate(
        { _id: CLOCK_ID },
        { $pull: { inflight: entry }, $inc: { v: 1 } },
        { returnDocument: 'after' },
      );
      this.clockSeen = after ?? undefined;
      return after;
    });
    const earlier = (doc?.inflight ?? []).filter((tick) => tick.t < entry.t);
    if (earlier.length === 0) return earlier;
    const dbMs = await helloTime(this.db);
    return earlier.filter((tick) => tick.exp > dbMs);
  }

  /** The clock as a reader sees it: its value, the live ticks and the database's time. */
  private async readClock(session?: ClientSession): Promise<{ t: number; live: Tick[] }> {
    let doc: ClockDoc | null;
    let dbMs: number;
    if (this.clockMode === 'pipeline') {
      doc = (await this.clock
        .aggregate<ClockDoc>([{ $match: { _id: CLOCK_ID } }, { $set: { now: '$$NOW' } }], session ? { session } : {})
        .next()) as ClockDoc | null;
      dbMs = doc?.now instanceof Date ? doc.now.getTime() : Date.now();
    } else {
      doc = await this.clock.findOne({ _id: CLOCK_ID }, session ? { session } : {});
      dbMs = doc && doc.inflight.length > 0 ? await helloTime(this.db) : 0;
    }
    if (!doc) throw new Error('the clock document is missing');
    return { t: Number(doc.t), live: doc.inflight.filter((tick) => tick.exp > dbMs) };
  }

  /**
   * After its own tick is released, a writer waits (bounded) until no earlier tick is in flight, so that
   * its change is in the listing by the time its response is sent.
   */
  private async finish(entry: Tick): Promise<void> {
    let earlier = await this.releaseTick(entry);
    const started = performance.now();
    let pause = 1;
    while (earlier.length > 0 && performance.now() - started < WAIT_EARLIER_MAX_MS) {
      await sleep(pause);
      pause = Math.min(pause * 2, 25);
      earlier = (await this.readClock()).live.filter((tick) => tick.t < entry.t);
    }
  }

  /** Gives the tick back when nothing was written; never throws over the original failure. */
  private async abandon(entry: Tick): Promise<void> {
    try {
      await this.releaseTick(entry);
    } catch {
      // The lease expires on its own.
    }
  }

  private checkLease(held: HeldTick): void {
    if (performance.now() > held.deadline) throw busyError();
  }

  // ---------------------------------------------------------------- the assetID counter

  private takeIndex(day: string): Promise<number> {
    return this.clockMode === 'pipeline' ? this.takeIndexNow(day) : this.inClockQueue(() => this.takeIndexNow(day));
  }

  /**
   * The next number of the day: one `$inc`. A number given back earlier (`spare`, rare: a create that failed after
   * taking it while later numbers were taken) is used first; the one just taken is then given back in its place.
   */
  private async takeIndexNow(day: string): Promise<number> {
    const key = `assetID:${day}`;
    for (let attempt = 0; ; attempt++) {
      let taken: CounterDoc | null;
      try {
        taken = await this.dayCounters.findOneAndUpdate(
          { _id: key },
          { $inc: { n: 1 } },
          { upsert: true, returnDocument: 'after' },
        );
      } catch (error) {
        // Two first-of-the-day upserts may race on the _id (MongoDB retries that itself; others may not).
        if (!isDuplicateKey(error) || attempt >= 5) throw error;
        continue;
      }
      if (!taken) throw new Error('the day counter is missing');
      if ((taken.spare ?? []).length === 0) return taken.n;
      const spare = await this.dayCounters.findOneAndUpdate(
        { _id: key, 'spare.0': { $exists: true } },
        { $pop: { spare: -1 } },
        { returnDocument: 'before' },
      );
      const reused = spare?.spare?.[0];
      if (reused === undefined) return taken.n; // another writer took the spare
      await this.giveBackIndexNow(day, taken.n);
      return reused;
    }
  }

  /** Returns an unused number: the counter steps back when it is the last one, else it is kept as a spare. */
  private async giveBackIndex(day: string, index: number): Promise<void> {
    if (this.clockMode === 'cas') return this.inClockQueue(() => this.giveBackIndexNow(day, index));
    return this.giveBackIndexNow(day, index);
  }

  private async giveBackIndexNow(day: string, index: number): Promise<void> {
    const key = `assetID:${day}`;
    try {
      const back = await this.dayCounters.updateOne({ _id: key, n: index }, { $inc: { n: -1 } });
      if (back.matchedCount === 0) await this.dayCounters.updateOne({ _id: key }, { $push: { spare: index } });
    } catch {
      // At worst a gap; the caller reports the original failure.
    }
  }

  // ---------------------------------------------------------------- AssetStore

  async create(build: (stamp: CreateStamp) => RecordWrite): Promise<AssetRecord> {
    for (let attempt = 1; ; attempt++) {
      const held = await this.takeTick();
      const now = held.entry.t;
      const day = dayOf(now, this.timeZone);
      let dayIndex: number;
      let draft: RecordDraft;
      let revision: RevisionDraft;
      try {
        dayIndex = await this.takeIndex(day);
      } catch (error) {
        await this.abandon(held.entry);
        throw error;
      }
      try {
        ({ record: draft, revision } = build({ now, day, dayIndex }));
        this.checkLease(held);
      } catch (error) {
        await this.giveBackIndex(day, dayIndex);
        await this.abandon(held.entry);
        throw error;
      }
      const record: AssetRecord = { ...draft, modified: now, rev: 1, revisions: 1 };
      const latest = { rev: 1, date: servedDateModified(record), ...revision };
      const counterKey = `${day}#${dayIndex}`;
      try {
        await this.assets.insertOne(this.toDoc(record, counterKey, latest));
      } catch (error) {
        if (!isDuplicateKey(error)) throw error; // outcome unknown: the tick stays in flight until its lease ends
        const clash = await this.whichDuplicate(error, record, counterKey);
        if (clash !== 'counter') await this.giveBackIndex(day, dayIndex);
        await this.abandon(held.entry);
        // A clash on modified or on the day number can only come from records written around the clock and the
        // counter (a bulk insert on another node before it pushes the clock, a restore); take a fresh tick and number.
        if (clash === 'id' || attempt >= MAX_ATTEMPTS) throw error;
        continue;
      }
      await Promise.all([this.finish(held.entry), this.copyLatest(record.id, record.rev, latest)]);
      this.signalWrites();
      return record;
    }
  }

  private async whichDuplicate(
    error: MongoServerError,
    record: AssetRecord,
    counterKey: string,
  ): Promise<'id' | 'modified' | 'counter'> {
    // MongoDB names the clashing index's keys; DocumentDB does not, and then the record's keys are looked up.
    const pattern = error.keyPattern as Record<string, unknown> | undefined;
    if (pattern) {
      if ('counterKey' in pattern) return 'counter';
      if ('modified' in pattern) return 'modified';
      return 'id';
    }
    if (await this.assets.findOne({ counterKey }, { projection: { _id: 1 } })) return 'counter';
    if (await this.assets.findOne({ modified: record.modified }, { projection: { _id: 1 } })) return 'modified';
    return 'id';
  }

  async get(id: string): Promise<AssetRecord | undefined> {
    const doc = await this.assets.findOne({ _id: id });
    return doc ? this.toRecord(doc) : undefined;
  }

  /** The document arrives as BSON: its text is written here (`toJson`, the wire format). */
  async getText(id: string): Promise<AssetText | undefined> {
    const doc = await this.assets.findOne({ _id: id }, { projection: { asset: 1, modified: 1 } });
    return doc ? { bytes: Buffer.from(toJson(doc.asset)), modified: Number(doc.modified) } : undefined;
  }

  /** The tail of each asset's queue of updates from this node. */
  private readonly updatesInFlight = new Map<string, Promise<unknown>>();

  /**
   * Updates of one asset from this node go one at a time: all but the first of a concurrent group would lose the
   * compare-and-set anyway. Updates from other nodes still meet this one in the compare-and-set on `rev`.
   */
  update(id: string, expectedRev: number, build: (stamp: WriteStamp) => RecordWrite): Promise<AssetRecord | 'conflict'> {
    const run = oneAtATime(this.updatesInFlight, id, async () => {
      // Lost already to an update queued before it: no need to take a stamp and ask the server to find out.
      if (expectedRev < (this.revsAtLeast.get(id) ?? 0)) return 'conflict' as const;
      const result = await this.updateNow(id, expectedRev, build);
      const atLeast = result === 'conflict' ? expectedRev + 1 : result.rev;
      this.revsAtLeast.set(id, Math.max(atLeast, this.revsAtLeast.get(id) ?? 0));
      return result;
    });
    // After the queue has let go of the finished update (a later turn of the event loop).
    const forget = (): void => void setImmediate(() => this.forgetRevOnceIdle(id));
    void run.then(forget, forget);
    return run;
  }

  /**
   * While updates of an asset are queued on this node: the lowest `rev` the asset is known to have reached. A rev
   * only grows, so an update that expects an older one has lost its compare-and-set before it is sent; on a slow
   * server, answering it at once is what lets the writers of one asset take their turns within their budget.
   */
  private readonly revsAtLeast = new Map<string, number>();

  private forgetRevOnceIdle(id: string): void {
    if (!this.updatesInFlight.has(id)) this.revsAtLeast.delete(id);
  }

  private async updateNow(
    id: string,
    expectedRev: number,
    build: (stamp: WriteStamp) => RecordWrite,
  ): Promise<AssetRecord | 'conflict'> {
    // The revision the write replaces as the document's latest must be in the collection first. This node usually
    // knows it is (it copied it itself); else one read, which also tells a stale rev before any stamp is taken.
    // Then the compare-and-set on `rev` decides: a stale rev costs a stamp taken and given back, and a build whose
    // result is thrown away.
    const revisions = await this.copiedBefore(id, expectedRev);
    if (revisions === undefined) return 'conflict';
    for (let attempt = 1; ; attempt++) {
      const held = await this.takeTick();
      const now = held.entry.t;
      let draft: RecordDraft;
      let revision: RevisionDraft;
      try {
        ({ record: draft, revision } = build({ now }));
        this.checkLease(held);
      } catch (error) {
        await this.abandon(held.entry);
        throw error;
      }
      const record: AssetRecord = { ...draft, id, modified: now, rev: expectedRev + 1, revisions: revisions + 1 };
      const latest = { rev: record.revisions, date: servedDateModified(record), ...revision };
      let matched: number;
      try {
        const result = await this.assets.updateOne(
          { _id: id, rev: expectedRev },
          {
            $set: {
              rev: record.rev,
              ownerTokenHash: record.ownerTokenHash,
              transferTokenHash: record.transferTokenHash,
              appliedTransfers: record.appliedTransfers,
              modified: now,
              listed: record.listed,
              test: record.test,
              dateModified: servedDateModified(record),
              asset: record.asset,
              documentHistory: record.documentHistory,
              revisions: record.revisions,
              latestRevision: { date: latest.date, author: latest.author, changes: latest.changes },
            },
          },
        );
        matched = result.matchedCount;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error; // outcome unknown: the tick stays in flight until its lease ends
        await this.abandon(held.entry);
        if (attempt >= MAX_ATTEMPTS) throw error;
        continue; // a clash on modified: a record written around the clock (see create)
      }
      if (matched === 0) {
        await this.abandon(held.entry);
        return 'conflict';
      }
      await Promise.all([this.finish(held.entry), this.copyLatest(id, record.rev, latest)]);
      this.signalWrites();
      return record;
    }
  }

  /** What the pages read so far tell the next one, per mode and direction (domain/feed-windows.ts). */
  private readonly feedLearned = new Map<string, FeedLearned>();
  /** The first page of a feed being read, per mode and direction, while nothing is learned of it. */
  private readonly feedLearning = new Map<string, Promise<void>>();

  /**
   * A page is read through windows of `modified`, not as one range: DocumentDB sorts what a range matches after
   * its index scan, so a page would cost every row after its position; a window costs about its own rows, and a
   * real MongoDB reads each in index order all the same.
   */
  async list(query: ListQuery): Promise<ListedRow[]> {
    requireFieldNames(query.fields);
    const key = `${query.mode} ${query.descending}`;
    // Of the pages of a feed nothing is learned of yet, one reads while the others wait for what it learns: each of
    // them would probe the whole range (on DocumentDB, every row of it).
    const learning = this.feedLearning.get(key);
    if (learning === undefined && !this.feedLearned.has(key)) {
      let learnt!: () => void;
      this.feedLearning.set(key, new Promise<void>((resolve) => (learnt = resolve)));
      try {
        return await this.readPage(query, key);
      } finally {
        this.feedLearning.delete(key);
        learnt();
      }
    }
    if (learning !== undefined) await learning;
    return this.readPage(query, key);
  }

  private async readPage(query: ListQuery, key: string): Promise<ListedRow[]> {
    // One causally consistent session: the asset read sees at least what the clock read saw.
    const session = this.client.startSession({ causalConsistency: true });
    try {
      const clock = await this.readClock(session);
      const bound = clock.live.length > 0 ? Math.min(...clock.live.map((tick) => Number(tick.t))) - 1 : clock.t;
      const base: Record<string, unknown> = { listed: true };
      if (query.mode === 'real') base.test = false;
      else if (query.mode === 'test') base.test = true;
      const hint = query.mode === 'all' ? this.listingIndex.all : this.listingIndex.mode;
      /**
       * The rows of the range past `from` (exclusive) up to `to` (inclusive) in the feed's direction, absent sides
       * the range's own: one condition a side, the tighter one. With a third condition on `modified` DocumentDB no
       * longer bounds its index scan by the window (at 100,000 assets a window cost 53 ms instead of 17).
       */
      const between = (from: number | undefined, to: number | undefined): Record<string, number> => {
        if (!query.descending) return from === undefined ? { $lte: to ?? bound } : { $gt: from, $lte: to ?? bound };
        const modified: Record<string, number> = from !== undefined && from <= bound ? { $lt: from } : { $lte: bound };
        if (to !== undefined) modified.$gte = to;
        return modified;
      };
      const projection: Record<string, 1> = { modified: 1, dateModified: 1 };
      for (const field of query.fields) projection[`asset.${field}`] = 1;
      const read = async (window: FeedWindow, limit: number): Promise<ListedRow[]> => {
        const docs = await this.assets
          .find(
            { ...base, modified: between(window.from ?? query.after, window.to) },
            {
              projection,
              sort: { modified: query.descending ? -1 : 1 },
              hint,
              limit,
              // The whole page in the first batch (the server's default is 101 documents): no getMore.
              batchSize: limit,
              session,
            },
          )
          .toArray();
        return docs.map((doc) => {
          const row: ListedRow = { id: doc._id, modified: Number(doc.modified), dateModified: doc.dateModified };
          if (query.fields.length > 0) {
            const asset = doc.asset ?? {};
            row.fields = query.fields.map((field) => (Object.hasOwn(asset, field) ? toJson(asset[field]) : undefined));
          }
          return row;
        });
      };
      // Unsorted: an index scan's first entry, which every engine finds without reading the rest of the range.
      const probe = async (past?: number): Promise<number | undefined> => {
        const doc = await this.assets.findOne(
          { ...base, modified: between(past ?? query.after, undefined) },
          { projection: { _id: 0, modified: 1 }, hint, session },
        );
        return doc === null ? undefined : Number(doc.modified);
      };
      const page = { after: query.after, bound, descending: query.descending, limit: query.limit };
      const learned = this.feedLearned.get(key) ?? {};
      const rows = await readInWindows(page, learned, read, probe);
      this.feedLearned.set(key, learnFrom(learned, page, rows));
      return rows;
    } finally {
      await session.endSession();
    }
  }

  /**
   * Each batch's histories go in first, then its assets: until its asset is there, a history serves nothing (and
   * a repeated insert writes the same revisions again).
   */
  async bulkInsert(records: readonly BulkRecord[]): Promise<void> {
    if (records.length === 0) return;
    let max = -Infinity;
    for (let i = 0; i < records.length; i += BULK_BATCH) {
      const revisions: RevisionDoc[] = [];
      const docs = records.slice(i, i + BULK_BATCH).map(({ history, ...draft }) => {
        if (draft.modified > max) max = draft.modified;
        const kept = history ?? [firstRevision(draft.asset)];
        checkHistory(draft, kept);
        for (const revision of kept) revisions.push(revisionDoc(draft.id, revision));
        return this.toDoc({ ...draft, rev: 1, revisions: kept.length }, `bulk#${draft.id}`, kept[kept.length - 1]!);
      });
      await this.insertRevisions(revisions);
      await this.assets.insertMany(docs, { ordered: true });
    }
    await this.pushClock(max);
    this.signalWrites();
  }

  // ---------------------------------------------------------------- history

  /**
   * For each asset, the record `rev` at which this node last saw its latest revision copied into `revisions`, and
   * that revision's number. Copies are never removed, so what it holds stays true; it only spares the read.
   */
  private readonly copiedRevisions = new Map<string, { rev: number; revisions: number }>();

  private rememberCopied(id: string, rev: number, revisions: number): void {
    this.copiedRevisions.delete(id);
    this.copiedRevisions.set(id, { rev, revisions });
    if (this.copiedRevisions.size > COPIED_REMEMBERED) {
      this.copiedRevisions.delete(this.copiedRevisions.keys().next().value as string);
    }
  }

  /** Writes revisions into the collection, each an idempotent upsert on its `_id`. */
  private async keepRevisions(docs: readonly RevisionDoc[]): Promise<void> {
    if (docs.length === 0) return;
    const operations = docs.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }));
    for (let attempt = 1; ; attempt++) {
      try {
        await this.history.bulkWrite(operations, { ordered: false });
        return;
      } catch (error) {
        // Two upserts of one revision at once (two readers repairing it): the second finds it there when repeated.
        if (!isDuplicateKey(error) || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Inserts the revisions of records not yet written, skipping any already there (a repeated bulk insert writes
   * the same ones again). One insert instead of an upsert each: on DocumentDB an upsert costs about ten times more.
   */
  private async insertRevisions(docs: readonly RevisionDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.history.insertMany(docs, { ordered: false });
    } catch (error) {
      const skipped = error instanceof MongoBulkWriteError && [error.writeErrors].flat().every((e) => e.code === 11000);
      if (!skipped) throw error;
    }
  }

  /** Copies the asset's latest revision (written with record `rev`) into the collection. */
  private async copyLatest(id: string, rev: number, latest: Revision): Promise<void> {
    try {
      await this.keepRevisions([revisionDoc(id, latest)]);
      this.rememberCopied(id, rev, latest.rev);
    } catch {
      // The write itself is done and its revision is kept in the asset's document: the next reader or writer copies it.
    }
  }

  /**
   * Makes sure the latest revision of the asset at record `rev` is in the collection, and answers how many revisions
   * it has; `undefined` when the asset is gone or no longer at `rev` (the caller's compare-and-set would fail).
   */
  private async copiedBefore(id: string, rev: number): Promise<number | undefined> {
    const known = this.copiedRevisions.get(id);
    if (known?.rev === rev) return known.revisions;
    const doc = await this.assets.findOne({ _id: id }, { projection: { rev: 1, revisions: 1, latestRevision: 1 } });
    if (doc === null || Number(doc.rev) !== rev) return undefined;
    const latest = latestOf(doc);
    await this.keepRevisions([revisionDoc(id, latest)]);
    this.rememberCopied(id, rev, latest.rev);
    return latest.rev;
  }

  async revisions(id: string, after: number, limit: number): Promise<Revision[] | undefined> {
    const doc = await this.assets.findOne({ _id: id }, { projection: { rev: 1, revisions: 1, latestRevision: 1 } });
    if (doc === null) return undefined;
    const latest = latestOf(doc);
    const docs = await this.history
      // A page (up to 1,000) in one batch; a longer read (the asset at a revision) in batches of that size.
      // Revs are gap-free, so the page is exactly this range: an engine that sorts what the range matches (DocumentDB)
      // sorts one page, not the rest of the history.
      .find(
        { asset: id, rev: { $gt: after, $lte: Math.min(latest.rev, after + limit) } },
        { sort: { rev: 1 }, limit, batchSize: Math.min(limit, BULK_BATCH) },
      )
      .toArray();
    const page: Revision[] = docs.map((kept) => ({ rev: Number(kept.rev), date: kept.date, author: kept.author, changes: kept.changes }));
    // Every revision below the latest is in the collection; the latest may not be yet (a write cut short).
    const wanted = Math.max(0, Math.min(limit, latest.rev - after));
    if (page.length < wanted) {
      if (page.length !== wanted - 1 || (page.length > 0 && page[page.length - 1]!.rev !== latest.rev - 1)) {
        throw new Error(`the history of ${id} misses revisions below its latest, ${latest.rev}`);
      }
      await this.keepRevisions([revisionDoc(id, latest)]);
      this.rememberCopied(id, Number(doc.rev), latest.rev);
      page.push(latest);
    }
    return page;
  }

  /**
   * Gives every asset from before history its revision 1, holding it as it stands (author its owner, date its
   * `dateModified`), once, before the store serves: a batch of revisions copied first, then their assets marked
   * (`revisions: 1`) only where still unmarked. A start cut short goes on with the unmarked ones (copying again
   * writes the same revisions); the marker in `counters` spares later starts the scan.
   */
  private async giveHistories(): Promise<void> {
    if ((await this.markers.findOne({ _id: HISTORY_MARKER }))?.done) return;
    for (let after = ''; ; ) {
      const docs = await this.assets
        .find({ _id: { $gt: after }, revisions: { $exists: false } }, { sort: { _id: 1 }, limit: HISTORY_BATCH, projection: { asset: 1 } })
        .toArray();
      if (docs.length === 0) break;
      const firsts = docs.map((doc) => ({ id: doc._id, revision: firstRevision(doc.asset) }));
      await this.keepRevisions(firsts.map(({ id, revision }) => revisionDoc(id, revision)));
      await this.assets.bulkWrite(
        firsts.map(({ id, revision }) => ({
          updateOne: {
            filter: { _id: id, revisions: { $exists: false } },
            update: { $set: { revisions: 1, latestRevision: { date: revision.date, author: revision.author, changes: revision.changes } } },
          },
        })),
        { ordered: false },
      );
      after = docs[docs.length - 1]!._id;
    }
    await this.markers.updateOne({ _id: HISTORY_MARKER }, { $set: { done: true } }, { upsert: true });
  }

  // ---------------------------------------------------------------- watching writes

  private readonly watchers = new Set<() => void>();
  private watching: Promise<ClockWatch> | undefined;

  /**
   * A change becomes listable when its tick is released, which is an update of the clock document, so the clock is
   * what is watched: with a change stream where the server has them (a replica set or a sharded cluster), else by
   * reading its version every WATCH_POLL_MS (FerretDB, a standalone server). This node's own writes are signalled
   * as soon as they are finished, and every watch also signals every WATCH_TICK_MS (leases that run out).
   */
  async watchWrites(onWrite: () => void): Promise<WriteWatch> {
    const watcher = () => onWrite();
    this.watchers.add(watcher);
    this.watching ??= this.watchClock();
    let clock: ClockWatch;
    try {
      clock = await this.watching;
    } catch (error) {
      this.watchers.delete(watcher);
      this.watching = undefined;
      throw error;
    }
    return {
      method: clock.method,
      close: async () => {
        this.watchers.delete(watcher);
        if (this.watchers.size > 0 || this.watching === undefined) return;
        this.watching = undefined;
        await clock.stop();
      },
    };
  }

  private signalWrites(): void {
    for (const onWrite of this.watchers) onWrite();
  }

  private async watchClock(): Promise<ClockWatch> {
    const tick = setInterval(() => this.signalWrites(), WATCH_TICK_MS);
    tick.unref();
    let inner: ClockWatch | undefined;
    try {
      const hello = await this.db.command({ hello: 1 });
      const hasChangeStreams = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
      inner = hasChangeStreams && hello.operationTime instanceof Timestamp
        ? this.clockChangeStream(hello.operationTime)
        : await this.clockPoll();
    } finally {
      if (inner === undefined) clearInterval(tick);
    }
    const { method, stop } = inner;
    return {
      method,
      stop: async () => {
        clearInterval(tick);
        await stop();
      },
    };
  }

  /**
   * A change stream on the clock document from `since` (a moment read before watching was reported ready), so that
   * no write after it is missed however long the stream takes to open. Should the stream fail for good (the driver
   * itself resumes it after the errors that allow it), the clock is polled instead.
   */
  private clockChangeStream(since: Timestamp): ClockWatch {
    const stream = this.clock.watch([{ $match: { 'documentKey._id': CLOCK_ID } }], { startAtOperationTime: since });
    let stopped = false;
    let fallback: ClockWatch | undefined;
    void (async () => {
      try {
        for (;;) {
          await stream.next();
          this.signalWrites();
        }
      } catch {
        if (stopped) return;
        await stream.close().catch(() => undefined);
        fallback = await this.clockPoll().catch(() => undefined);
        this.signalWrites();
        if (stopped) await fallback?.stop();
      }
    })();
    return {
      method: 'change stream',
      stop: async () => {
        stopped = true;
        await stream.close().catch(() => undefined);
        await fallback?.stop();
      },
    };
  }

  /** Reads the clock's version and stamp every WATCH_POLL_MS; a difference is a write. */
  private async clockPoll(): Promise<ClockWatch> {
    const read = async () => {
      const doc = await this.clock.findOne({ _id: CLOCK_ID }, { projection: { t: 1, v: 1 } });
      return doc ? `${doc.t}:${doc.v}` : '';
    };
    let seen = await read();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const poll = async () => {
      try {
        const now = await read();
        if (now !== seen) {
          seen = now;
          this.signalWrites();
        }
      } catch {
        // The periodic tick keeps signalling; the next poll tries again.
      }
      if (!stopped) timer = setTimeout(() => void poll(), WATCH_POLL_MS).unref();
    };
    timer = setTimeout(() => void poll(), WATCH_POLL_MS).unref();
    return {
      method: 'clock poll',
      stop: async () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    const watching = this.watching;
    this.watching = undefined;
    this.watchers.clear();
    if (watching) await (await watching.catch(() => undefined))?.stop();
    await this.client.close();
  }

  // ---------------------------------------------------------------- mapping

  private toDoc(record: AssetRecord, counterKey: string, latest: Revision): AssetDoc {
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

  private toRecord(doc: AssetDoc): AssetRecord {
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
}

/** The document's latest revision, with its number. */
function latestOf(doc: Pick<AssetDoc, '_id' | 'revisions' | 'latestRevision'>): Revision {
  const { latestRevision } = doc;
  if (latestRevision === undefined || doc.revisions === undefined) throw new Error(`asset ${doc._id} has no history`);
  return { rev: Number(doc.revisions), date: latestRevision.date, author: latestRevision.author, changes: latestRevision.changes };
}

function revisionDoc(asset: string, revision: Revision): RevisionDoc {
  return { _id: `${asset}/${revision.rev}`, asset, rev: revision.rev, date: revision.date, author: revision.author, changes: revision.changes };
}
