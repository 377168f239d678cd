/**
 * A write's tick of the clock (clock.ts): taken with a lease in one single-document update, `max(now, t + 1)` where
 * `now` is the database's clock with the node's microsecond digits inside its millisecond; released after the asset
 * write, which starts only while enough of the lease is left.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreBusyError } from '../types.js';
import { CLOCK_ID, caughtUp, helloTime, inClockQueue, readClock, type Clock, type Tick } from './clock.js';
import { fenceExpired } from './fences.js';

/** Database-clock ms a tick may stay in flight before readers ignore it (its writer crashed). */
export const LEASE_MS = 30_000;
/** Lease left (local monotonic ms) below which a writer no longer starts its asset write. */
const WRITE_MARGIN_MS = 15_000;
/**
 * How long a finished writer waits for earlier ticks before answering anyway: a node stopped holding a tick delays
 * the others' writes no longer (docs/decisions/0076-a-stalled-node-delays-others-at-most-2-s.md).
 */
const WAIT_EARLIER_MAX_MS = 1_500;

export interface HeldTick {
  entry: Tick;
  /** performance.now() after which the asset write must not start. */
  deadline: number;
}

function busyError(): StoreBusyError {
  return new StoreBusyError('the shared clock or a write lease could not be had in time');
}

/** A µs moment inside the database's millisecond, with the node's digits when they fall inside it. */
function withinMillisecond(dbMs: number, nodeMicros: number): number {
  return Math.min(Math.max(nodeMicros, dbMs * 1000), dbMs * 1000 + 999);
}

function nodeMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** Refused (nothing taken) when this node's clock updates do not reach it in this long: an engine too slow. */
const TICK_QUEUE_WAIT_MS = 5_000;

export async function takeTick(clock: Clock): Promise<HeldTick> {
  await caughtUp(clock);
  return inClockQueue(clock, () => takeTickCas(clock), TICK_QUEUE_WAIT_MS);
}

async function takeTickCas(clock: Clock): Promise<HeldTick> {
  for (let attempt = 0; ; attempt++) {
    const sent = performance.now();
    const [dbMs, current] = await Promise.all([
      helloTime(clock.db),
      clock.seen ?? clock.clocks.findOne({ _id: CLOCK_ID }),
    ]);
    if (!current) throw new Error('the clock document is missing');
    const t = Math.max(withinMillisecond(dbMs, nodeMicros()), Number(current.t) + 1);
    const entry: Tick = { t, exp: dbMs + LEASE_MS };
    // Dropped from the clock below: fenced first, so that no reader passes one unfenced.
    await fenceExpired(clock, current.inflight, dbMs);
    const live = current.inflight.filter((tick) => tick.exp > dbMs);
    const after = await clock.clocks.findOneAndUpdate(
      { _id: CLOCK_ID, v: current.v },
      { $set: { t, inflight: [...live, entry] }, $inc: { v: 1 } },
      { returnDocument: 'after' },
    );
    clock.seen = after ?? undefined;
    if (after) return { entry, deadline: sent + LEASE_MS - WRITE_MARGIN_MS };
    if (attempt > 1000) throw busyError();
    if (attempt > 3) await sleep(Math.random() * Math.min(attempt, 20));
  }
}

/** Answers the live ticks earlier than `entry`. */
async function releaseTick(clock: Clock, entry: Tick): Promise<Tick[]> {
  const doc = await inClockQueue(clock, async () => {
    const after = await clock.clocks.findOneAndUpdate(
      { _id: CLOCK_ID },
      { $pull: { inflight: entry }, $inc: { v: 1 } },
      { returnDocument: 'after' },
    );
    clock.seen = after ?? undefined;
    return after;
  });
  const earlier = (doc?.inflight ?? []).filter((tick) => tick.t < entry.t);
  if (earlier.length === 0) return earlier;
  const dbMs = await helloTime(clock.db);
  return earlier.filter((tick) => tick.exp > dbMs);
}

/** Waits (bounded) for earlier ticks, so that the change is listed by the time its response is sent. */
export async function finish(clock: Clock, entry: Tick): Promise<void> {
  let earlier = await releaseTick(clock, entry);
  const started = performance.now();
  let pause = 1;
  while (earlier.length > 0 && performance.now() - started < WAIT_EARLIER_MAX_MS) {
    await sleep(pause);
    pause = Math.min(pause * 2, 25);
    earlier = (await readClock(clock)).live.filter((tick) => tick.t < entry.t);
  }
}

/** Never throws over the failure that made the writer give up. */
export async function abandon(clock: Clock, entry: Tick): Promise<void> {
  try {
    await releaseTick(clock, entry);
  } catch {
    // The lease expires on its own.
  }
}

export function checkLease(held: HeldTick): void {
  if (performance.now() > held.deadline) throw busyError();
}
