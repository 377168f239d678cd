/**
 * What an engine's failures become at the store's edge (docs/decisions/0073-store-refusals-answered-503.md): a
 * failure the engine's classifier recognises (down, unreachable, full) is a `StoreRefusal`, answered 503 with
 * `Retry-After`; a call the engine has not answered within its bound is refused the same way, so that no request
 * hangs on a silent engine. What the node's writes last met is kept for `GET /health`.
 */
import {
  StoreBusyError,
  StoreRefusal,
  StoreUnavailableError,
  type AssetStore,
  type TransferStore,
  type WriteState,
} from './types.js';
import type { LogStore } from './log.js';

/** The engine's own reading of a failure: a refusal, or undefined for a failure that is a fault of the registry. */
type Classify = (error: unknown) => StoreRefusal | undefined;

export interface RefusalOptions {
  classify: Classify;
  /** How long one store call may go unanswered before the request is refused (the call itself goes on). */
  deadlineMs: number;
}

type Call<A extends unknown[], R> = (...args: A) => Promise<R>;

export function refusingStore(store: AssetStore, { classify, deadlineMs }: RefusalOptions): AssetStore {
  let state: WriteState = { accepted: true };

  const translate = (error: unknown): unknown => (error instanceof StoreRefusal ? error : (classify(error) ?? error));

  /** A call bounded in time, its failures translated. */
  function guarded<A extends unknown[], R>(call: Call<A, R>, bounded = true): Call<A, R> {
    return async (...args) => {
      const running = call(...args);
      if (!bounded) return running.catch((error: unknown) => Promise.reject(translate(error)));
      // A plain timer: an aborted `timers/promises` sleep would build an AbortError, stack and all, on every call.
      let timer: NodeJS.Timeout | undefined;
      const overdue = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Whatever the call does later is applied whole or not at all: the store's own rule.
          running.catch(() => undefined);
          reject(new StoreUnavailableError(`the store did not answer within ${deadlineMs} ms`));
        }, deadlineMs);
      });
      try {
        return await Promise.race([running, overdue]);
      } catch (error) {
        throw translate(error);
      } finally {
        clearTimeout(timer);
      }
    };
  }

  /** A write: as `guarded`, and what it met is remembered (contention is no state of the store: not kept). */
  function write<A extends unknown[], R>(call: Call<A, R>, bounded = true): Call<A, R> {
    const run = guarded(call, bounded);
    return async (...args) => {
      try {
        const result = await run(...args);
        state = { accepted: true };
        return result;
      } catch (error) {
        if (error instanceof StoreRefusal && !(error instanceof StoreBusyError)) {
          state = { accepted: false, reason: error.description };
        }
        throw error;
      }
    };
  }

  const transfers: TransferStore = {
    create: write((record) => store.transfers.create(record)),
    get: guarded((id) => store.transfers.get(id)),
    setMark: write((id, expected, next) => store.transfers.setMark(id, expected, next)),
  };
  // The integrator's calls are not requests' writes: what they meet is not the node's write state.
  const log: LogStore = {
    head: guarded(() => store.log.head()),
    claimKey: guarded((vkey) => store.log.claimKey(vkey)),
    start: guarded((root, checkpoint) => store.log.start(root, checkpoint)),
    lead: guarded((holder, ms) => store.log.lead(holder, ms)),
    next: guarded((max) => store.log.next(max)),
    tile: guarded((level, index) => store.log.tile(level, index)),
    entries: guarded((from, to) => store.log.entries(from, to)),
    indexes: guarded((asset, after, upTo) => store.log.indexes(asset, after, upTo)),
  };
  return {
    transfers,
    log,
    ...(store.logSource === undefined ? {} : { logSource: store.logSource }),
    ...(store.onBackgroundFailure === undefined ? {} : { onBackgroundFailure: store.onBackgroundFailure.bind(store) }),
    files: {
      // Uploads stream for as long as the client sends: no bound of time.
      put: write((file, source) => store.files.put(file, source), false),
      stat: guarded((key) => store.files.stat(key)),
      read: (key) => store.files.read(key),
    },
    create: write((build) => store.create(build)),
    update: write((id, expectedRev, build) => store.update(id, expectedRev, build)),
    get: guarded((id) => store.get(id)),
    getText: guarded((id) => store.getText(id)),
    list: guarded((query) => store.list(query)),
    revisions: guarded((id, after, limit, maxBytes) => store.revisions(id, after, limit, maxBytes)),
    snapshot: guarded((id, rev) => store.snapshot(id, rev)),
    ping: guarded(() => store.ping()),
    // Seeding and imports: as long as they take.
    bulkInsert: write((records) => store.bulkInsert(records), false),
    watchWrites: guarded((onWrite) => store.watchWrites(onWrite)),
    writeState: () => state,
    close: () => store.close(),
  };
}
