/**
 * What the integrator appends next on MongoDB (docs/decisions/0066-log-order-and-integration.md). Without
 * transactions the log follows the feed's order, the write stamps: a registry write's revision is logged at its
 * `modified` stamp, and revisions written around the clock (bulk inserts, the import, the first start with the log)
 * are queued in `log_queue` under a tick of their own, `i` numbering them within it. Only stamps below every tick
 * still in flight are read, as the feed reads (docs/decisions/0023-mongodb-clock-document-and-leases.md), so no
 * revision can still commit before the point read up to.
 */
import type { Binary, Collection } from 'mongodb';
import { logEntries } from '../../domain/log/entry.js';
import type { Revision } from '../types.js';
import { BULK_KEY, loggedByStamp, type AssetDoc } from './asset-document.js';
import { readClock, type Clock } from './clock.js';
import type { RevisionDoc } from './history.js';
import { INDEX } from './indexes.js';

/** A place in the log's order: a stamp, and within a queued tick the item's number. */
export interface LogPosition {
  t: number;
  i: number;
}

/** Past every item of its stamp. */
const WHOLE_STAMP = Number.MAX_SAFE_INTEGER;

export interface QueueDoc {
  /** `<asset>/<rev>/<digest of the entry>`: the same entry queued again is the same document. */
  _id: string;
  t: number;
  i: number;
  a: string;
  r: number;
  e: Binary | Buffer;
}

export interface PendingItem extends LogPosition {
  asset: string;
  rev: number;
  entry: Buffer;
}

/** An item found in the assets or `revisions`: its entry is written once the batch is chosen. */
interface FoundRevision extends LogPosition {
  asset: string;
  revision: Revision;
}

export function bytesOf(value: Binary | Buffer): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer);
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  return a.t - b.t || a.i - b.i;
}

export interface ScanContext {
  clock: Clock;
  assets: Collection<AssetDoc>;
  revisions: Collection<RevisionDoc>;
  queue: Collection<QueueDoc>;
}

function readQueue(context: ScanContext, filter: Record<string, unknown>, limit: number): Promise<QueueDoc[]> {
  return context.queue.find(filter, { sort: { t: 1, i: 1 }, limit, hint: 'log_queue_order' }).toArray();
}

/**
 * The items after `cursor`, in order, at most `max`, and the position the log has then read up to. A registry
 * revision is either still its asset's latest (in the asset's document) or was copied into `revisions`, with its
 * stamp, before the write that displaced it: the assets are read first, so it is found in one or the other.
 */
export async function scanPending(
  context: ScanContext,
  cursor: LogPosition,
  max: number,
): Promise<{ items: PendingItem[]; reached: LogPosition }> {
  const { t, live } = await readClock(context.clock);
  const bound = live.length > 0 ? Math.min(...live.map((tick) => Number(tick.t))) - 1 : t;
  let complete: LogPosition = { t: bound, i: WHOLE_STAMP };
  if (bound < cursor.t) return { items: [], reached: cursor };
  const found = new Map<string, FoundRevision>();
  /** A source cut at `max` is complete up to its last item only. */
  const cut = (count: number, last: LogPosition | undefined): void => {
    if (count >= max && last !== undefined && comparePositions(last, complete) < 0) complete = last;
  };

  const assetDocs = await context.assets
    .find(
      {
        modified: { $gt: cursor.t, $lte: bound },
        $or: [{ rev: { $gt: 1 } }, { counterKey: { $not: BULK_KEY } }],
      },
      {
        projection: { rev: 1, counterKey: 1, modified: 1, revisions: 1, latestRevision: 1 },
        sort: { modified: 1 },
        limit: max,
        hint: INDEX.feed,
      },
    )
    .toArray();
  for (const doc of assetDocs) {
    const { latestRevision } = doc;
    if (!loggedByStamp(doc) || latestRevision === undefined || doc.revisions === undefined) continue;
    const rev = Number(doc.revisions);
    const revision = { rev, date: latestRevision.date, author: latestRevision.author, changes: latestRevision.changes };
    found.set(`${doc._id}/${rev}`, { t: Number(doc.modified), i: 0, asset: doc._id, revision });
  }
  const lastAsset = assetDocs[assetDocs.length - 1];
  cut(assetDocs.length, lastAsset && { t: Number(lastAsset.modified), i: 0 });

  const copies = await context.revisions
    .find({ t: { $gt: cursor.t, $lte: complete.t } }, { sort: { t: 1 }, limit: max, hint: 'log_order' })
    .toArray();
  for (const doc of copies) {
    const key = `${doc.asset}/${doc.rev}`;
    if (found.has(key)) continue;
    const revision = { rev: Number(doc.rev), date: doc.date, author: doc.author, changes: doc.changes };
    found.set(key, { t: Number(doc.t), i: 0, asset: doc.asset, revision });
  }
  const lastCopy = copies[copies.length - 1];
  cut(copies.length, lastCopy && { t: Number(lastCopy.t), i: 0 });

  const items: (PendingItem | FoundRevision)[] = [...found.values()];
  // The rest of a queued tick read in part, then the ticks after it.
  const rest = cursor.i === WHOLE_STAMP ? [] : await readQueue(context, { t: cursor.t, i: { $gt: cursor.i } }, max);
  const queued =
    rest.length >= max ? [] : await readQueue(context, { t: { $gt: cursor.t, $lte: complete.t } }, max - rest.length);
  for (const doc of [...rest, ...queued]) {
    items.push({ t: Number(doc.t), i: Number(doc.i), asset: doc.a, rev: Number(doc.r), entry: bytesOf(doc.e) });
  }
  const lastQueued = (queued.length > 0 ? queued : rest).at(-1);
  cut(rest.length + queued.length, lastQueued && { t: Number(lastQueued.t), i: Number(lastQueued.i) });

  const ordered = items
    .filter((item) => comparePositions(item, cursor) > 0 && comparePositions(item, complete) <= 0)
    .sort(comparePositions)
    .slice(0, max);
  const last = ordered[ordered.length - 1];
  const toWrite = ordered.filter((item): item is FoundRevision => 'revision' in item);
  const entries = await logEntries(toWrite);
  const written = new Map(toWrite.map((item, i) => [item, entries[i]!]));
  return {
    items: ordered.map((item) =>
      'revision' in item
        ? { t: item.t, i: item.i, asset: item.asset, rev: item.revision.rev, entry: written.get(item)! }
        : item,
    ),
    reached: ordered.length === max && last !== undefined ? last : complete,
  };
}
