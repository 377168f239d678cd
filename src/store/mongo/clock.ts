/**
 * Write stamps: one clock document in `counters` for every node, `{ _id: 'clock', t, v, inflight: [{ t, exp }] }`.
 * A write holds a tick of it while it writes (ticks.ts); a reader lists only below every unexpired tick, so it never
 * passes one yet to commit (docs/decisions/0023-mongodb-clock-document-and-leases.md).
 */
import type { Collection, Db } from 'mongodb';
import { StoreBusyError } from '../types.js';
import type { AssetDoc } from './asset-document.js';
import { isDuplicateKey } from './connection.js';
import { fenceExpired } from './fences.js';
import { INDEX } from './indexes.js';

export const CLOCK_ID = 'clock';

export interface Tick {
  t: number;
  /** Lease expiry, database-clock ms. */
  exp: number;
}

export interface ClockDoc {
  _id: string;
  t: number;
  v: number;
  inflight: Tick[];
}

export interface Clock {
  readonly db: Db;
  readonly clocks: Collection<ClockDoc>;
  readonly assets: Collection<AssetDoc>;
  /** The clock as this node's last update left it, so that the next compare-and-set need not read it. */
  seen: ClockDoc | undefined;
  /** This node's clock and day-counter updates, one at a time. */
  queue: Promise<unknown>;
  /** The push past records written around the store: the first write of the node waits for it. */
  catchingUp: Promise<void> | undefined;
  atOpen: number;
  /** The stamps of expired ticks this node has fenced (fences.ts). */
  readonly fenced: Set<number>;
}

/**
 * The database's clock: every engine reports it in `hello`, where only some take `$$NOW` in an update; one code
 * path on every engine (docs/decisions/0075-one-code-path-on-every-mongodb-engine.md).
 */
export async function helloTime(db: Db): Promise<number> {
  const hello = await db.command({ hello: 1 });
  const t = hello.localTime;
  if (t instanceof Date) return t.getTime();
  throw new Error('the server reports no localTime in hello');
}

/** Made when missing; reads no asset, whatever they hold. */
export async function openClock(db: Db, assets: Collection<AssetDoc>): Promise<Clock> {
  const clocks = db.collection<ClockDoc>('counters');
  const opened = await clockDocument(clocks);
  const clock: Clock = {
    db,
    clocks,
    assets,
    seen: opened,
    queue: Promise.resolve(),
    catchingUp: undefined,
    atOpen: Number(opened.t),
    fenced: new Set(),
  };
  void caughtUp(clock).catch(() => undefined);
  return clock;
}

async function clockDocument(clocks: Collection<ClockDoc>): Promise<ClockDoc> {
  for (let attempt = 1; ; attempt++) {
    try {
      const doc = await clocks.findOneAndUpdate(
        { _id: CLOCK_ID },
        { $setOnInsert: { t: 0, v: 0, inflight: [] } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!doc) throw new Error('the clock document is missing');
      return doc;
    } catch (error) {
      // Two nodes starting on a fresh database race to insert the clock; the loser finds it there.
      if (!isDuplicateKey(error) || attempt >= 3) throw error;
    }
  }
}

export function caughtUp(clock: Clock): Promise<void> {
  clock.catchingUp ??= catchUp(clock).catch((error: unknown) => {
    clock.catchingUp = undefined; // the next write tries again
    throw error;
  });
  return clock.catchingUp;
}

/**
 * Records written around the store (restores, imports) push the clock past them, so stamps stay unique and
 * increasing; readers need not wait, they list nothing above the clock. Bounded below by the clock, so an engine
 * that sorts after its index scan (DocumentDB) reads only the records above it, usually none.
 */
async function catchUp(clock: Clock): Promise<void> {
  const latest = await clock.assets
    .find(
      { modified: { $gt: clock.atOpen } },
      { projection: { modified: 1 }, sort: { modified: -1 }, limit: 1, hint: INDEX.feed },
    )
    .next();
  if (latest === null || Number(latest.modified) <= clock.atOpen) return;
  await pushClock(clock, Number(latest.modified));
}

/** For records written without a stamp: bulk inserts, restores, the import. */
export async function pushClock(clock: Clock, t: number): Promise<void> {
  await inClockQueue(clock, async () => {
    clock.seen =
      (await clock.clocks.findOneAndUpdate(
        { _id: CLOCK_ID },
        { $max: { t }, $inc: { v: 1 } },
        { returnDocument: 'after' },
      )) ?? undefined;
  });
}

/**
 * Concurrent compare-and-sets of one node would only fail against each other; nodes still race through `v`. With
 * `waitMs`, work whose turn has not come by then is refused (StoreBusyError) and never runs.
 */
export function inClockQueue<T>(clock: Clock, work: () => Promise<T>, waitMs?: number): Promise<T> {
  let refused = false;
  let started = false;
  const turn = () => {
    if (refused) return Promise.reject(new StoreBusyError('refused before its turn'));
    started = true;
    return work();
  };
  const run = clock.queue.then(turn, turn);
  clock.queue = run.catch(() => undefined);
  if (waitMs === undefined) return run;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (started) return;
      refused = true;
      reject(new StoreBusyError(`the clock was not free within ${waitMs} ms`));
    }, waitMs);
  });
  return Promise.race([run.finally(() => clearTimeout(timer)), late]);
}

/**
 * The clock's stamp and its live ticks; the database's time is asked only when some tick is in flight. An expired
 * tick is fenced before it is left out (fences.ts).
 */
export async function readClock(clock: Clock): Promise<{ t: number; live: Tick[] }> {
  const doc = await clock.clocks.findOne({ _id: CLOCK_ID });
  if (!doc) throw new Error('the clock document is missing');
  const dbMs = doc.inflight.length > 0 ? await helloTime(clock.db) : 0;
  await fenceExpired(clock, doc.inflight, dbMs);
  return { t: Number(doc.t), live: doc.inflight.filter((tick) => tick.exp > dbMs) };
}
