/**
 * A change becomes listable when its tick is released: the clock's version is polled, on every engine (a change
 * stream needs a replica set: docs/decisions/0075-one-code-path-on-every-mongodb-engine.md,
 * docs/decisions/0029-write-watch.md).
 */
import type { Collection } from 'mongodb';
import type { AssetStore, WriteWatch } from '../types.js';
import { CLOCK_ID, type ClockDoc } from './clock.js';

const WATCH_POLL_MS = 20;
/** Signalled with no write seen too: a lease that runs out (a crashed writer) lets the feed go on without a write. */
const WATCH_TICK_MS = 1000;

/** The one watch of the clock behind every `watchWrites` of the store. */
interface ClockWatch {
  method: string;
  stop(): Promise<void>;
}

export interface Watch {
  watchWrites: AssetStore['watchWrites'];
  signalWrites(): void;
  close(): Promise<void>;
}

export function openWatch(clocks: Collection<ClockDoc>): Watch {
  const watchers = new Set<() => void>();
  let watching: Promise<ClockWatch> | undefined;

  function signalWrites(): void {
    for (const onWrite of watchers) onWrite();
  }

  async function watchClock(): Promise<ClockWatch> {
    const tick = setInterval(() => signalWrites(), WATCH_TICK_MS);
    tick.unref();
    let inner: ClockWatch;
    try {
      inner = await clockPoll();
    } catch (error) {
      clearInterval(tick);
      throw error;
    }
    return {
      method: inner.method,
      stop: async () => {
        clearInterval(tick);
        await inner.stop();
      },
    };
  }

  /** A change of the clock's version or stamp is a write. */
  async function clockPoll(): Promise<ClockWatch> {
    const read = async () => {
      const doc = await clocks.findOne({ _id: CLOCK_ID }, { projection: { t: 1, v: 1 } });
      return doc ? `${doc.t}:${doc.v}` : '';
    };
    let seen = await read();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const poll = async () => {
      try {
        const now = await read();
        if (now !== seen) {
          seen = now;
          signalWrites();
        }
      } catch {
        // The periodic signal goes on; the next poll tries again.
      }
      if (!stopped) timer = setTimeout(() => void poll(), WATCH_POLL_MS).unref();
    };
    timer = setTimeout(() => void poll(), WATCH_POLL_MS).unref();
    return {
      method: 'clock poll',
      stop: async () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  return {
    signalWrites,

    async watchWrites(onWrite): Promise<WriteWatch> {
      const watcher = () => onWrite();
      watchers.add(watcher);
      watching ??= watchClock();
      let clock: ClockWatch;
      try {
        clock = await watching;
      } catch (error) {
        watchers.delete(watcher);
        watching = undefined;
        throw error;
      }
      return {
        method: clock.method,
        close: async () => {
          watchers.delete(watcher);
          if (watchers.size > 0 || watching === undefined) return;
          watching = undefined;
          await clock.stop();
        },
      };
    },

    async close() {
      const running = watching;
      watching = undefined;
      watchers.clear();
      if (running) await (await running.catch(() => undefined))?.stop();
    },
  };
}
