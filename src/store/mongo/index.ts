/** The MongoDB store: no transactions, on any server; the clock orders its single-document writes (clock.ts). */
import type { Collection, CommandStartedEvent, Db } from 'mongodb';
import type { AssetStore } from '../types.js';
import type { AssetDoc } from './asset-document.js';
import { openAssets } from './assets.js';
import { openClock, type Clock } from './clock.js';
import { withDatabase } from './connection.js';
import { openDayCounter } from './day-counter.js';
import { chooseListingIndex, feedReader } from './feed.js';
import { openGridFsFileStore, sweepUnfinishedUploads } from './files.js';
import { openHistory, readRevisions, readSnapshot, type History } from './history.js';
import { ASSET_INDEXES, ensureIndexes, REVISION_INDEXES } from './indexes.js';
import { logCollections, openLog, prepareLog, type LogCollections } from './log.js';
import { queueRevisions } from './log-queue.js';
import { giveHistories } from './migrations.js';
import { openTransfers, transfersOf } from './transfers.js';
import { openWatch } from './watch.js';

export { databaseName, mongoRefusal } from './connection.js';
export { LEASE_MS } from './ticks.js';

export interface MongoStoreOptions {
  uri: string;
  timeZone: string;
  /** SERVER_ID: the node whose unfinished uploads are removed at start (none: nothing is removed). */
  node?: string;
  /** The driver's command monitoring: what round trips an operation costs (test/store/mongo/round-trips.test.ts). */
  onCommand?: (event: CommandStartedEvent) => void;
}

/** What the store and the import both work on. */
export interface Prepared {
  assets: Collection<AssetDoc>;
  history: History;
  clock: Clock;
  log: LogCollections;
}

/** The missing indexes, the upgrades of an earlier version's data (once), the clock. */
export async function prepare(db: Db): Promise<Prepared> {
  const assets = db.collection<AssetDoc>('assets');
  const history = openHistory(db, assets);
  await ensureIndexes(assets, ASSET_INDEXES);
  await ensureIndexes(history.revisions, REVISION_INDEXES);
  await giveHistories(db, history);
  const clock = await openClock(db, assets);
  const log = logCollections(db);
  await prepareLog(log, history, clock);
  return { assets, history, clock, log };
}

export async function openMongoStore(options: MongoStoreOptions): Promise<AssetStore> {
  return withDatabase(options, async (client, db: Db) => {
    const listingIndex = await chooseListingIndex(db);
    const { assets, history, clock, log } = await prepare(db);
    if (options.node !== undefined) await sweepUnfinishedUploads(db, options.node);
    const watch = openWatch(clock.clocks);
    const { signalWrites } = watch;
    const written = openAssets({
      assets,
      clock,
      dayCounter: openDayCounter(db, clock),
      history,
      timeZone: options.timeZone,
      signalWrites,
      // Its revisions are written around the clock: queued for the log once stored.
      queueStored: (revisions) => queueRevisions(clock, log.queue, revisions),
    });
    return {
      transfers: openTransfers(transfersOf(db)),
      ...written,
      log: openLog(log, { clock, assets, revisions: history.revisions, queue: log.queue }),
      list: feedReader({ assets, clock, listingIndex }),
      revisions: (id, after, limit, maxBytes) => readRevisions(history, id, after, limit, maxBytes),
      snapshot: (id, rev) => readSnapshot(history, id, rev),
      watchWrites: watch.watchWrites,
      async ping() {
        await db.command({ ping: 1 });
      },
      files: openGridFsFileStore(db, options.node),
      async close() {
        await watch.close();
        await client.close();
      },
    };
  });
}
