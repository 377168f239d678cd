/**
 * The feed, never past a tick still in flight (clock.ts), read through windows of `modified` rather than one range:
 * DocumentDB sorts what a range matches after its index scan, so a page would cost every row after its position
 * (docs/decisions/0025-feed-windows-on-documentdb.md).
 */
import type { Collection, Db } from 'mongodb';
import { type FeedLearned, type FeedWindow, learnFrom, readInWindows } from '../../domain/feed-windows.js';
import { toJson } from '../../domain/serialize.js';
import { requireFieldNames, type ListedRow, type ListQuery } from '../types.js';
import type { AssetDoc } from './asset-document.js';
import { readClock, type Clock } from './clock.js';
import { INDEX } from './indexes.js';

/**
 * Per mode (`all`, or `real`/`test`). DocumentDB matches each key of a compound index on its own, so an equality on
 * `listed` would read every listed entry: there `feed` bounds the scan by the window, and the rest is checked on its
 * rows; MongoDB reads the compound `listing` indexes in order.
 */
export interface ListingIndex {
  all: string;
  mode: string;
}

export async function chooseListingIndex(db: Db): Promise<ListingIndex> {
  const build = await db.command({ buildInfo: 1 });
  return build.ferretdb !== undefined
    ? { all: INDEX.feed, mode: INDEX.feed }
    : { all: INDEX.listing_all, mode: INDEX.listing };
}

export interface FeedContext {
  assets: Collection<AssetDoc>;
  clock: Clock;
  listingIndex: ListingIndex;
}

export function feedReader({ assets, clock, listingIndex }: FeedContext): (query: ListQuery) => Promise<ListedRow[]> {
  const feedLearned = new Map<string, FeedLearned>();
  /** While nothing is learned of a feed, its first page being read. */
  const feedLearning = new Map<string, Promise<void>>();

  async function readPage(query: ListQuery, key: string): Promise<ListedRow[]> {
    // The clock first: every tick it shows released was majority-committed before its release was sent, so the
    // majority reads below see every write up to the bound, with no session (docs/feed-completeness.md).
    const { t, live } = await readClock(clock);
    const bound = live.length > 0 ? Math.min(...live.map((tick) => Number(tick.t))) - 1 : t;
    const base: Record<string, unknown> = { listed: true };
    if (query.mode === 'real') base.test = false;
    else if (query.mode === 'test') base.test = true;
    const hint = query.mode === 'all' ? listingIndex.all : listingIndex.mode;
    /** One condition a side: with a third on `modified` DocumentDB no longer bounds its scan by the window. */
    const between = (from: number | undefined, to: number | undefined): Record<string, number> => {
      if (!query.descending) return from === undefined ? { $lte: to ?? bound } : { $gt: from, $lte: to ?? bound };
      const modified: Record<string, number> = from !== undefined && from <= bound ? { $lt: from } : { $lte: bound };
      if (to !== undefined) modified.$gte = to;
      return modified;
    };
    const projection: Record<string, 1> = { modified: 1, dateModified: 1 };
    for (const field of query.fields) projection[`asset.${field}`] = 1;
    const read = async (window: FeedWindow, limit: number): Promise<ListedRow[]> => {
      const docs = await assets
        .find(
          { ...base, modified: between(window.from ?? query.after, window.to) },
          {
            projection,
            sort: { modified: query.descending ? -1 : 1 },
            hint,
            limit,
            // The whole page in the first batch (the server's default is 101 documents): no getMore.
            batchSize: limit,
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
    // Unsorted: the first entry of an index scan, which every engine finds without reading the rest of the range.
    const probe = async (past?: number): Promise<number | undefined> => {
      const doc = await assets.findOne(
        { ...base, modified: between(past ?? query.after, undefined) },
        { projection: { _id: 0, modified: 1 }, hint },
      );
      return doc === null ? undefined : Number(doc.modified);
    };
    const page = { after: query.after, bound, descending: query.descending, limit: query.limit };
    const learned = feedLearned.get(key) ?? {};
    const rows = await readInWindows(page, learned, read, probe);
    feedLearned.set(key, learnFrom(learned, page, rows));
    return rows;
  }

  return async function list(query) {
    requireFieldNames(query.fields);
    const key = `${query.mode} ${query.descending}`;
    // Of the first pages of a feed nothing is learned of yet, one reads while the others wait for what it learns:
    // each would probe the whole range (on DocumentDB, every row of it).
    const learning = feedLearning.get(key);
    if (learning === undefined && !feedLearned.has(key)) {
      let learnt!: () => void;
      feedLearning.set(key, new Promise<void>((resolve) => (learnt = resolve)));
      try {
        return await readPage(query, key);
      } finally {
        feedLearning.delete(key);
        learnt();
      }
    }
    if (learning !== undefined) await learning;
    return readPage(query, key);
  };
}
