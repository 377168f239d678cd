/** A write takes a tick (ticks.ts), writes the asset with its latest revision, then copies it (history.ts). */
import type { Collection, MongoServerError } from 'mongodb';
import { dayOf } from '../../domain/dates.js';
import { firstRevision, snapshotsOf } from '../../domain/history.js';
import { toJson } from '../../domain/serialize.js';
import {
  checkHistory,
  servedDateModified,
  type AssetRecord,
  type AssetStore,
  type RecordDraft,
  type RevisionDraft,
} from '../types.js';
import { toDoc, toRecord, type AssetDoc } from './asset-document.js';
import { pushClock, type Clock } from './clock.js';
import { BULK_BATCH, certainlyNotApplied, isDuplicateKey } from './connection.js';
import { giveBackIndex, takeIndex, type DayCounter } from './day-counter.js';
import {
  copiedBefore,
  copyLatest,
  insertRevisions,
  keepSnapshots,
  revisionDoc,
  snapshotAfterWrite,
  type History,
  type RevisionDoc,
} from './history.js';
import { abandon, checkLease, finish, takeTick } from './ticks.js';
import type { QueuedRevision } from './log-queue.js';

const MAX_ATTEMPTS = 20;

function oneAtATime<T>(queues: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

export interface AssetsContext {
  assets: Collection<AssetDoc>;
  clock: Clock;
  dayCounter: DayCounter;
  history: History;
  timeZone: string;
  signalWrites(): void;
  /** Queues a bulk insert's revisions for the log: after they are stored, before the clock passes them. */
  queueStored(revisions: QueuedRevision[]): Promise<void>;
}

export type Assets = Pick<AssetStore, 'create' | 'get' | 'getText' | 'update' | 'bulkInsert'>;

export function openAssets(context: AssetsContext): Assets {
  const { assets, clock, dayCounter, history, timeZone, signalWrites, queueStored } = context;

  async function whichDuplicate(
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
    if (await assets.findOne({ counterKey }, { projection: { _id: 1 } })) return 'counter';
    if (await assets.findOne({ modified: record.modified }, { projection: { _id: 1 } })) return 'modified';
    return 'id';
  }

  const updatesInFlight = new Map<string, Promise<unknown>>();
  /**
   * While updates of an asset are queued on this node: the lowest `rev` it is known to have reached. An update that
   * expects an older one has lost before it is sent; answering it at once lets the writers of one asset take their
   * turns within their budget on a slow server.
   */
  const revsAtLeast = new Map<string, number>();

  function forgetRevOnceIdle(id: string): void {
    if (!updatesInFlight.has(id)) revsAtLeast.delete(id);
  }

  const updateNow: AssetStore['update'] = async (id, expectedRev, build) => {
    // The revision this write displaces as the document's latest must be in the collection first: this node usually
    // copied it itself, else one read, which also tells a stale rev before any stamp is taken.
    const revisions = await copiedBefore(history, id, expectedRev);
    if (revisions === undefined) return 'conflict';
    for (let attempt = 1; ; attempt++) {
      const held = await takeTick(clock);
      const now = held.entry.t;
      let draft: RecordDraft;
      let revision: RevisionDraft;
      let text: string | undefined;
      try {
        ({ record: draft, revision, text } = build({ now }));
        checkLease(held);
      } catch (error) {
        await abandon(clock, held.entry);
        throw error;
      }
      const record: AssetRecord = { ...draft, id, modified: now, rev: expectedRev + 1, revisions: revisions + 1 };
      const latest = { rev: record.revisions, date: servedDateModified(record), ...revision };
      let matched: number;
      try {
        const result = await assets.updateOne(
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
        if (!isDuplicateKey(error)) {
          // Outcome unknown: the tick stays in flight until its lease ends.
          if (certainlyNotApplied(error)) await abandon(clock, held.entry);
          throw error;
        }
        await abandon(clock, held.entry);
        if (attempt >= MAX_ATTEMPTS) throw error;
        continue; // a clash on modified: a record written around the clock (see create)
      }
      if (matched === 0) {
        await abandon(clock, held.entry);
        return 'conflict';
      }
      await Promise.all([
        finish(clock, held.entry),
        copyLatest(history, id, record.rev, latest, now),
        snapshotAfterWrite(history, id, record.revisions, () => text ?? toJson(record.asset)),
      ]);
      signalWrites();
      return record;
    }
  };

  return {
    async create(build) {
      for (let attempt = 1; ; attempt++) {
        const held = await takeTick(clock);
        const now = held.entry.t;
        const day = dayOf(now, timeZone);
        let dayIndex: number;
        let draft: RecordDraft;
        let revision: RevisionDraft;
        try {
          dayIndex = await takeIndex(dayCounter, day);
        } catch (error) {
          await abandon(clock, held.entry);
          throw error;
        }
        try {
          ({ record: draft, revision } = build({ now, day, dayIndex }));
          checkLease(held);
        } catch (error) {
          await giveBackIndex(dayCounter, day, dayIndex);
          await abandon(clock, held.entry);
          throw error;
        }
        const record: AssetRecord = { ...draft, modified: now, rev: 1, revisions: 1 };
        const latest = { rev: 1, date: servedDateModified(record), ...revision };
        const counterKey = `${day}#${dayIndex}`;
        try {
          await assets.insertOne(toDoc(record, counterKey, latest));
        } catch (error) {
          if (!isDuplicateKey(error)) {
            // Outcome unknown: the tick and the number stay taken (until the lease ends; a gap at worst).
            if (certainlyNotApplied(error)) {
              await giveBackIndex(dayCounter, day, dayIndex);
              await abandon(clock, held.entry);
            }
            throw error;
          }
          const clash = await whichDuplicate(error, record, counterKey);
          if (clash !== 'counter') await giveBackIndex(dayCounter, day, dayIndex);
          await abandon(clock, held.entry);
          // A clash on modified or on the day number comes from records written around the clock and the counter
          // (a bulk insert on another node before it pushes the clock, a restore): a fresh tick and number.
          if (clash === 'id' || attempt >= MAX_ATTEMPTS) throw error;
          continue;
        }
        await Promise.all([finish(clock, held.entry), copyLatest(history, record.id, record.rev, latest, now)]);
        signalWrites();
        return record;
      }
    },

    async get(id) {
      const doc = await assets.findOne({ _id: id });
      return doc ? toRecord(doc) : undefined;
    },

    /** The document arrives as BSON: its text is written here (`toJson`). */
    async getText(id) {
      const doc = await assets.findOne({ _id: id }, { projection: { asset: 1, modified: 1 } });
      return doc ? { bytes: Buffer.from(toJson(doc.asset)), modified: Number(doc.modified) } : undefined;
    },

    /** One at a time per asset from this node: all but the first of a concurrent group would lose anyway. */
    update(id, expectedRev, build) {
      const run = oneAtATime(updatesInFlight, id, async () => {
        // Lost already to an update queued before it: no stamp, no round trip.
        if (expectedRev < (revsAtLeast.get(id) ?? 0)) return 'conflict' as const;
        const result = await updateNow(id, expectedRev, build);
        const atLeast = result === 'conflict' ? expectedRev + 1 : result.rev;
        revsAtLeast.set(id, Math.max(atLeast, revsAtLeast.get(id) ?? 0));
        return result;
      });
      // Once the queue has let go of the finished update (a later turn).
      const forget = (): void => void setImmediate(() => forgetRevOnceIdle(id));
      void run.then(forget, forget);
      return run;
    },

    /** Histories first, then assets: until its asset is there, a history serves nothing. */
    async bulkInsert(records) {
      if (records.length === 0) return;
      let max = -Infinity;
      const queued: QueuedRevision[] = [];
      for (let i = 0; i < records.length; i += BULK_BATCH) {
        const revisions: RevisionDoc[] = [];
        const snapshots: { id: string; snapshots: { rev: number; text: string }[] }[] = [];
        const docs = records.slice(i, i + BULK_BATCH).map(({ history: given, ...draft }) => {
          if (draft.modified > max) max = draft.modified;
          const kept = given ?? [firstRevision(draft.asset)];
          checkHistory(draft, kept);
          for (const revision of kept) {
            revisions.push(revisionDoc(draft.id, revision));
            queued.push({ asset: draft.id, revision });
          }
          snapshots.push({ id: draft.id, snapshots: snapshotsOf(kept) });
          return toDoc({ ...draft, rev: 1, revisions: kept.length }, `bulk#${draft.id}`, kept[kept.length - 1]!);
        });
        await insertRevisions(history, revisions);
        for (const kept of snapshots) await keepSnapshots(history, kept.id, kept.snapshots);
        await assets.insertMany(docs, { ordered: true });
      }
      // Queued first: the next write then stamps right after the latest inserted `modified`.
      await queueStored(queued);
      await pushClock(clock, max);
      signalWrites();
    },
  };
}
