/**
 * Revisions written around the clock enter the log through `log_queue` (log-scan.ts): those of a bulk insert or an
 * import page under a tick taken after they are stored, and, on the first start of a version with the log, every
 * revision already stored, under the tick the log started at (docs/decisions/0066-log-order-and-integration.md).
 */
import { createHash } from 'node:crypto';
import type { Collection } from 'mongodb';
import { parseDateToMicros } from '../../domain/dates.js';
import { logEntry } from '../../domain/log/entry.js';
import type { Revision } from '../types.js';
import type { AssetDoc } from './asset-document.js';
import type { Clock } from './clock.js';
import { BULK_BATCH, isRepeatedInsert } from './connection.js';
import type { RevisionDoc } from './history.js';
import type { QueueDoc } from './log-scan.js';
import { abandon, finish, takeTick } from './ticks.js';

export interface QueuedRevision {
  asset: string;
  revision: Revision;
}

function queueDoc(asset: string, revision: Revision, t: number, i: number): QueueDoc {
  const e = logEntry(asset, revision);
  const digest = createHash('sha256').update(e).digest('hex').slice(0, 16);
  return { _id: `${asset}/${revision.rev}/${digest}`, t, i, a: asset, r: revision.rev, e };
}

/** Each document once: one queued before (a page written again) keeps its place. */
async function insertQueued(queue: Collection<QueueDoc>, docs: readonly QueueDoc[]): Promise<void> {
  if (docs.length === 0) return;
  try {
    await queue.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!isRepeatedInsert(error)) throw error;
  }
}

/** After the revisions are stored: a tick per batch, held while its items are written, so none is read past. */
export async function queueRevisions(
  clock: Clock,
  queue: Collection<QueueDoc>,
  revisions: readonly QueuedRevision[],
): Promise<void> {
  for (let at = 0; at < revisions.length; at += BULK_BATCH) {
    const held = await takeTick(clock);
    try {
      await insertQueued(
        queue,
        revisions
          .slice(at, at + BULK_BATCH)
          .map(({ asset, revision }, i) => queueDoc(asset, revision, held.entry.t, i)),
      );
    } catch (error) {
      await abandon(clock, held.entry);
      throw error;
    }
    await finish(clock, held.entry);
  }
}

/** The log's first tick: written after it, a revision is the scan's; before it, the migration's. */
export async function firstTick(clock: Clock): Promise<number> {
  const held = await takeTick(clock);
  // Waits for the writes with earlier ticks: their revisions are then there for the migration to read.
  await finish(clock, held.entry);
  return held.entry.t;
}

const MIGRATION_BATCH = 200;

/**
 * Queues, under tick `t`, every revision stored before it: by asset id, each asset's in `rev` order. Run again after
 * a start cut short, it adds what is missing after what was queued.
 */
export async function queueStoredRevisions(
  assets: Collection<AssetDoc>,
  revisions: Collection<RevisionDoc>,
  queue: Collection<QueueDoc>,
  t: number,
): Promise<void> {
  const last = await queue.find({ t }, { sort: { i: -1 }, limit: 1, projection: { i: 1 } }).next();
  let i = last === null ? 0 : Number(last.i) + 1;
  for (let after = ''; ; ) {
    const docs = await assets
      .find(
        { _id: { $gt: after } },
        { sort: { _id: 1 }, limit: MIGRATION_BATCH, projection: { revisions: 1, latestRevision: 1 } },
      )
      .toArray();
    if (docs.length === 0) return;
    const stored = await revisions
      .find({ asset: { $in: docs.map((doc) => doc._id) } }, { batchSize: BULK_BATCH })
      .toArray();
    const byAsset = new Map<string, Revision[]>();
    for (const doc of stored) {
      const revision = { rev: Number(doc.rev), date: doc.date, author: doc.author, changes: doc.changes };
      byAsset.set(doc.asset, [...(byAsset.get(doc.asset) ?? []), revision]);
    }
    const queued: QueueDoc[] = [];
    for (const doc of docs) {
      const history = new Map((byAsset.get(doc._id) ?? []).map((revision) => [revision.rev, revision]));
      const latest = doc.latestRevision;
      if (latest !== undefined && doc.revisions !== undefined) {
        history.set(Number(doc.revisions), { rev: Number(doc.revisions), ...latest });
      }
      for (const revision of [...history.values()].sort((a, b) => a.rev - b.rev)) {
        // A revision a write made since the log started is the scan's.
        if ((parseDateToMicros(revision.date, 'UTC') ?? 0) >= t) continue;
        queued.push(queueDoc(doc._id, revision, t, i++));
      }
    }
    await insertQueued(queue, queued);
    after = docs[docs.length - 1]!._id;
  }
}
