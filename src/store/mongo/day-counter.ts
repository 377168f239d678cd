/**
 * The per-day `assetID` counter: a document per day in `counters`, taken by `$inc` before the create it numbers. A
 * create that fails after taking its number gives it back; each asset's unique `counterKey` catches a number taken
 * twice.
 */
import type { Collection, Db } from 'mongodb';
import { inClockQueue, type Clock } from './clock.js';
import { isDuplicateKey } from './connection.js';

interface CounterDoc {
  _id: string;
  n: number;
  spare?: number[];
}

export interface DayCounter {
  readonly counters: Collection<CounterDoc>;
  /** The counter's updates go through the clock's queue. */
  readonly clock: Clock;
}

export function openDayCounter(db: Db, clock: Clock): DayCounter {
  return { counters: db.collection<CounterDoc>('counters'), clock };
}

export function takeIndex(counter: DayCounter, day: string): Promise<number> {
  return inClockQueue(counter.clock, () => takeIndexNow(counter, day));
}

/** A number given back earlier (`spare`) is used first, and the one just taken is given back in its place. */
async function takeIndexNow(counter: DayCounter, day: string): Promise<number> {
  const key = `assetID:${day}`;
  for (let attempt = 0; ; attempt++) {
    let taken: CounterDoc | null;
    try {
      taken = await counter.counters.findOneAndUpdate(
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
    const spare = await counter.counters.findOneAndUpdate(
      { _id: key, 'spare.0': { $exists: true } },
      { $pop: { spare: -1 } },
      { returnDocument: 'before' },
    );
    const reused = spare?.spare?.[0];
    if (reused === undefined) return taken.n; // another writer took the spare
    await giveBackIndexNow(counter, day, taken.n);
    return reused;
  }
}

/** The counter steps back when `index` is its last number, else keeps it as a spare. */
export async function giveBackIndex(counter: DayCounter, day: string, index: number): Promise<void> {
  return inClockQueue(counter.clock, () => giveBackIndexNow(counter, day, index));
}

async function giveBackIndexNow(counter: DayCounter, day: string, index: number): Promise<void> {
  const key = `assetID:${day}`;
  try {
    const back = await counter.counters.updateOne({ _id: key, n: index }, { $inc: { n: -1 } });
    if (back.matchedCount === 0) await counter.counters.updateOne({ _id: key }, { $push: { spare: index } });
  } catch {
    // At worst a gap; the caller reports the original failure.
  }
}

/** Never lowers the counter: after an import's numbers, the next create goes on after them. */
export async function raiseDayCounter(counter: DayCounter, day: string, index: number): Promise<void> {
  await counter.counters.updateOne({ _id: `assetID:${day}` }, { $max: { n: index } }, { upsert: true });
}
