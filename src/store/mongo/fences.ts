/**
 * A tick whose lease ran out is fenced before a reader passes it or a writer drops it
 * (docs/decisions/0081-an-expired-tick-is-fenced.md): a document in `assets` takes its stamp in the unique `feed`
 * index, so a write still holding the tick (its node stopped after the lease check) can no longer commit at it,
 * behind what the feed, the streams and the transparency log have read. That write fails as a clash on `modified`
 * and is written again under a fresh tick, or not at all.
 */
import type { Db } from 'mongodb';
import { isRepeatedInsert } from './connection.js';

/** Its stamp in `feed`, a key of its own in `asset_id_counter`; no `listed`, no revision: no reader lists it. */
export interface FenceDoc {
  _id: string;
  modified: number;
  counterKey: string;
  fence: true;
}

export interface Fencing {
  readonly db: Db;
  /** The stamps this node fenced, while their ticks are still in the clock's `inflight`. */
  readonly fenced: Set<number>;
}

/**
 * Resolves once no write can commit at the stamp of any tick of `inflight` expired at `dbMs`: fenced now, fenced
 * before, or committed already (then the insert finds the stamp taken).
 */
export async function fenceExpired(fencing: Fencing, inflight: readonly { t: number; exp: number }[], dbMs: number) {
  const stamps = new Set(inflight.map((tick) => Number(tick.t)));
  for (const t of fencing.fenced) if (!stamps.has(t)) fencing.fenced.delete(t);
  const expired = inflight.filter((tick) => tick.exp <= dbMs && !fencing.fenced.has(Number(tick.t)));
  if (expired.length === 0) return;
  try {
    await fencing.db.collection<FenceDoc>('assets').insertMany(
      expired.map(({ t }) => ({ _id: `fence:${t}`, modified: Number(t), counterKey: `fence#${t}`, fence: true })),
      { ordered: false },
    );
  } catch (error) {
    if (!isRepeatedInsert(error)) throw error;
  }
  for (const { t } of expired) fencing.fenced.add(Number(t));
}
