/**
 * The writes: one at a time across processes, several to a COMMIT within one
 * (docs/decisions/0022-sqlite-group-commit-and-synced-wal.md). Every COMMIT is followed by a sync of the WAL, so a
 * commit per write would cap writes at the disk's syncs per second: the writes asked for in one turn of the event
 * loop run in order, each in its own savepoint, inside one `BEGIN IMMEDIATE` transaction with one COMMIT and one
 * sync, and no caller hears of its write before that sync.
 *
 * A read of an asset whose update is queued or committing waits for that COMMIT, and such readers go one per turn: a
 * PATCH reads, decides and queues within one turn, so PATCHes of one asset in this process never race for its `rev`.
 */
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { StoreBusyError } from '../types.js';

/** Another process may hold the lock through a long bulk insert: a bulk insert or an import waits rather than fail. */
export const WRITE_WAIT_MS = 60_000;
/**
 * A request's write waits this long for another process's lock, then is refused (503): a process stopped while it
 * holds the lock (SIGSTOP, a stalled VM) must not stall the other nodes' writes for longer
 * (docs/decisions/0076-a-stalled-node-delays-others-at-most-2-s.md).
 */
const REQUEST_WRITE_WAIT_MS = 1_500;
const MAX_RETRY_PAUSE_MS = 8;

/**
 * The pause before the `attempt`-th retry (from 0), in ms: none before the first but a turn of the event loop, as the
 * usual holder is this process's own log integrator or checkpointer, for a millisecond or two; then a random pause
 * whose bound doubles up to MAX_RETRY_PAUSE_MS, so processes that met do not try again in step
 * (docs/decisions/0082-a-busy-write-lock-is-tried-again-at-once.md).
 */
export function retryPauseMs(attempt: number): number {
  if (attempt === 0) return 0;
  const bound = Math.min(MAX_RETRY_PAUSE_MS, 2 ** (attempt - 1));
  return bound * (0.5 + Math.random() / 2);
}

/** BEGIN, the only step that meets another process's lock, fails before the body runs: a retry repeats nothing. */
export async function withWriteLock<T>(transaction: () => T, waitMs = WRITE_WAIT_MS): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return transaction();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (performance.now() >= deadline) {
        throw new StoreBusyError(`another process held the write lock for ${waitMs} ms`);
      }
    }
    const pause = retryPauseMs(attempt);
    await new Promise((resolve) => (pause === 0 ? setImmediate(resolve) : setTimeout(resolve, pause)));
  }
}

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

export interface WriteQueueContext {
  writer: Database.Database;
  syncWal(): Promise<void>;
  signalWrites(): void;
}

export interface WriteQueue {
  /** `run` is a nested better-sqlite3 transaction, so a savepoint of the next group commit. */
  queueWrite<T>(run: () => T, id?: string): Promise<T>;
  updating(id: string): boolean;
  waitForUpdates(id: string): Promise<void>;
  /** Resolves once every write asked for so far has committed or failed. */
  drain(): Promise<void>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface QueuedWrite {
  run: () => unknown;
  /** The record an update changes; creates make ids nobody can read yet. */
  id: string | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function openWriteQueue({ writer, syncWal, signalWrites }: WriteQueueContext): WriteQueue {
  let queue: QueuedWrite[] = [];
  const flushes = new Set<Promise<void>>();

  const batchTransaction = writer.transaction((writes: QueuedWrite[]): Outcome[] =>
    writes.map((write): Outcome => {
      try {
        return { ok: true, value: write.run() };
      } catch (error) {
        // Should anything but BEGIN meet another process's lock, the batch is retried.
        if (isBusy(error)) throw error;
        return { ok: false, error };
      }
    }),
  );

  const updating = new Map<string, number>();
  const waitingReads = new Map<string, (() => void)[]>();

  function waitForUpdates(id: string): Promise<void> {
    return new Promise((resolve) => {
      const waiting = waitingReads.get(id);
      if (waiting) waiting.push(resolve);
      else waitingReads.set(id, [resolve]);
    });
  }

  /** One waiting read now, the next one turn later (unless an update of `id` came meanwhile). */
  function releaseReads(id: string): void {
    if (updating.has(id)) return;
    const waiting = waitingReads.get(id);
    const next = waiting?.shift();
    if (next === undefined) return;
    if (waiting!.length === 0) waitingReads.delete(id);
    next();
    setImmediate(() => releaseReads(id));
  }

  async function flush(writes: QueuedWrite[]): Promise<void> {
    let outcomes: Outcome[] | undefined;
    let failure: unknown;
    try {
      outcomes = await withWriteLock(() => batchTransaction.immediate(writes), REQUEST_WRITE_WAIT_MS);
      await syncWal();
    } catch (error) {
      failure = error;
      // Committed but perhaps not on the disk: no write of the batch is acknowledged.
      outcomes = undefined;
    }
    writes.forEach((write, i) => {
      const outcome = outcomes?.[i];
      if (outcome === undefined) write.reject(failure);
      else if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
    for (const { id } of writes) {
      if (id === undefined) continue;
      const count = (updating.get(id) ?? 1) - 1;
      if (count > 0) updating.set(id, count);
      else updating.delete(id);
      releaseReads(id);
    }
    if (outcomes?.some((outcome) => outcome.ok)) signalWrites();
  }

  function queueWrite<T>(run: () => T, id?: string): Promise<T> {
    if (id !== undefined) updating.set(id, (updating.get(id) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) {
        setImmediate(() => {
          const writes = queue;
          queue = [];
          const done = flush(writes);
          flushes.add(done);
          void done.finally(() => flushes.delete(done));
        });
      }
      queue.push({ run, id, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  return {
    queueWrite,
    updating: (id) => updating.has(id),
    waitForUpdates,
    async drain() {
      while (queue.length > 0 || flushes.size > 0) {
        if (flushes.size > 0) await Promise.all(flushes);
        else await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
