/**
 * The transparency log on MongoDB (docs/decisions/0066-log-order-and-integration.md). The integrator fixes the
 * order of what it appends by inserting the entries under their indexes first (`log_entries`, insert only: an index
 * once taken never changes), then writes the tiles, then publishes the checkpoint by a compare-and-set on the
 * state's size and position. Entries left by an integrator that stopped in between are taken up by the next.
 */
import type { Binary, Collection, Db } from 'mongodb';
import type { LogBatch, LogHead, LogStore } from '../log.js';
import type { Clock } from './clock.js';
import { isDuplicateKey, isRepeatedInsert } from './connection.js';
import type { History } from './history.js';
import { ensureIndexes } from './indexes.js';
import { firstTick, queueStoredRevisions } from './log-queue.js';
import {
  bytesOf,
  comparePositions,
  scanPending,
  type LogPosition,
  type PendingItem,
  type QueueDoc,
  type ScanContext,
} from './log-scan.js';

const STATE_ID = 'state';

interface StateDoc {
  _id: string;
  size: number;
  root?: Binary | Buffer;
  checkpoint?: string;
  vkey?: string;
  holder?: string;
  leaseUntil?: number;
  /** Everything up to here is in the log (at indexes below `size`), or was found to hold nothing. */
  cursor: LogPosition;
  /** The tick the log started at; `migrated` once every revision stored before it is queued. */
  startTick: number;
  migrated: boolean;
}

interface EntryDoc extends LogPosition {
  _id: number;
  a: string;
  r: number;
  e: Binary | Buffer;
}

interface TileDoc {
  _id: string;
  w: number;
  h: Binary | Buffer;
}

export interface LogCollections {
  state: Collection<StateDoc>;
  entries: Collection<EntryDoc>;
  tiles: Collection<TileDoc>;
  queue: Collection<QueueDoc>;
}

export function logCollections(db: Db): LogCollections {
  return {
    state: db.collection<StateDoc>('log_state'),
    entries: db.collection<EntryDoc>('log_entries'),
    tiles: db.collection<TileDoc>('log_tiles'),
    queue: db.collection<QueueDoc>('log_queue'),
  };
}

/** Indexes, the state; on the first start with the log, the revisions already stored are queued. */
export async function prepareLog(collections: LogCollections, history: History, clock: Clock): Promise<void> {
  await ensureIndexes(history.revisions, [{ key: { t: 1 }, name: 'log_order' }]);
  await ensureIndexes(collections.entries, [{ key: { a: 1, r: 1 }, name: 'log_revision' }]);
  await ensureIndexes(collections.queue, [{ key: { t: 1, i: 1 }, name: 'log_queue_order' }]);
  let state = await collections.state.findOne({ _id: STATE_ID });
  if (state?.migrated) return;
  if (state === null) {
    const t = await firstTick(clock);
    try {
      await collections.state.insertOne({
        _id: STATE_ID,
        size: 0,
        cursor: { t, i: -1 },
        startTick: t,
        migrated: false,
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // another node started it first
    }
    state = (await collections.state.findOne({ _id: STATE_ID }))!;
  }
  await queueStoredRevisions(history.assets, history.revisions, collections.queue, state.startTick);
  await collections.state.updateOne({ _id: STATE_ID }, { $set: { migrated: true } });
}

export function openLog(collections: LogCollections, scan: ScanContext): LogStore {
  const { state: states, entries, tiles } = collections;
  const readState = async (): Promise<StateDoc> => {
    const state = await states.findOne({ _id: STATE_ID });
    if (state === null) throw new Error('the log has no state document');
    return state;
  };

  function batchOf(state: StateDoc, items: readonly Pick<PendingItem, 'entry'>[], reached: LogPosition): LogBatch {
    const { size, cursor } = state;
    return {
      size,
      entries: items.map((item) => item.entry),
      async append(written, root, checkpoint) {
        if (written.length > 0) {
          try {
            // A tile only grows: a stale integrator's shorter copy never replaces a longer one.
            await tiles.bulkWrite(
              written.map((tile) => ({
                updateOne: {
                  filter: { _id: `${tile.level}/${tile.index}`, w: { $lt: tile.hashes.length / 32 } },
                  update: { $set: { w: tile.hashes.length / 32, h: tile.hashes } },
                  upsert: true,
                },
              })),
              { ordered: false },
            );
          } catch (error) {
            if (!isRepeatedInsert(error)) throw error;
          }
        }
        const result = await states.updateOne(
          { _id: STATE_ID, size, 'cursor.t': cursor.t, 'cursor.i': cursor.i },
          { $set: { size: size + items.length, root, checkpoint, cursor: reached } },
        );
        return result.matchedCount === 1;
      },
    };
  }

  return {
    async head(): Promise<LogHead> {
      const state = await readState();
      return {
        size: Number(state.size),
        ...(state.root === undefined ? {} : { root: bytesOf(state.root) }),
        ...(state.checkpoint === undefined ? {} : { checkpoint: state.checkpoint }),
        ...(state.vkey === undefined ? {} : { vkey: state.vkey }),
      };
    },
    async claimKey(vkey) {
      await states.updateOne({ _id: STATE_ID, vkey: { $exists: false } }, { $set: { vkey } });
      return (await readState()).vkey!;
    },
    async start(root, checkpoint) {
      const result = await states.updateOne(
        { _id: STATE_ID, size: 0, checkpoint: { $exists: false } },
        { $set: { root, checkpoint } },
      );
      return result.matchedCount === 1;
    },
    /** Read first: the state is written only to take the lease or renew it past its half. */
    async lead(holder, ms) {
      const now = Date.now();
      const lease = await states.findOne({ _id: STATE_ID }, { projection: { holder: 1, leaseUntil: 1 } });
      const until = Number(lease?.leaseUntil ?? 0);
      if (lease?.holder === holder && until - now > ms / 2) return true;
      if (lease?.holder !== undefined && lease.holder !== holder && until >= now) return false;
      const result = await states.updateOne(
        { _id: STATE_ID, $or: [{ holder }, { holder: { $exists: false } }, { leaseUntil: { $lt: now } }] },
        { $set: { holder, leaseUntil: now + ms } },
      );
      return result.matchedCount === 1;
    },
    async next(max) {
      const state = await readState();
      if (!state.migrated) return undefined;
      const size = Number(state.size);
      const left = await entries.find({ _id: { $gte: size } }, { sort: { _id: 1 }, limit: max }).toArray();
      if (left.length > 0) {
        left.forEach((doc, i) => {
          if (Number(doc._id) !== size + i) throw new Error(`the log's entries skip index ${size + i}`);
        });
        const last = left[left.length - 1]!;
        const position = { t: Number(last.t), i: Number(last.i) };
        const reached = comparePositions(position, state.cursor) > 0 ? position : state.cursor;
        return batchOf(
          state,
          left.map((doc) => ({ entry: bytesOf(doc.e) })),
          reached,
        );
      }
      const { items, reached } = await scanPending(scan, state.cursor, max);
      if (items.length === 0) {
        if (comparePositions(reached, state.cursor) > 0) {
          await states.updateOne(
            { _id: STATE_ID, size, 'cursor.t': state.cursor.t, 'cursor.i': state.cursor.i },
            { $set: { cursor: reached } },
          );
        }
        return undefined;
      }
      try {
        await entries.insertMany(
          items.map((item, i) => ({ _id: size + i, a: item.asset, r: item.rev, e: item.entry, t: item.t, i: item.i })),
          { ordered: true },
        );
      } catch (error) {
        if (isRepeatedInsert(error)) return undefined; // another integrator took these indexes first
        throw error;
      }
      return batchOf(state, items, reached);
    },
    async tile(level, index) {
      const doc = await tiles.findOne({ _id: `${level}/${index}` });
      return doc === null ? undefined : bytesOf(doc.h);
    },
    async entries(from, to) {
      const docs = await entries.find({ _id: { $gte: from, $lt: to } }, { sort: { _id: 1 } }).toArray();
      return docs.map((doc) => bytesOf(doc.e));
    },
    async indexes(asset, after, upTo) {
      const { size } = await readState();
      const found = new Map<number, number>();
      const docs = entries.find(
        { a: asset, r: { $gt: after, $lte: upTo } },
        { projection: { r: 1 }, hint: 'log_revision' },
      );
      // A revision imported again with other content has a later entry: only that one names it.
      for await (const doc of docs) found.set(Number(doc.r), Math.max(Number(doc._id), found.get(Number(doc.r)) ?? -1));
      for (const [rev, index] of found) if (index >= Number(size)) found.delete(rev);
      return found;
    },
  };
}
