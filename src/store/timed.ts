/**
 * A store that times its operations: the same store, each call of an asset or transfer operation measured and
 * handed to `timer` (the metrics' store latency). It wraps the interface, so both stores are timed alike and
 * neither knows of it; a node without metrics never builds it. Calls that fail are timed too.
 *
 * Not timed: `files` (an upload's `put` lasts as long as the client takes to send the file), `bulkInsert` and
 * `imports` (seeding and the import, no request), `watchWrites` and `close` (once per process).
 */
import type { AssetStore, TransferStore } from './types.js';

/** Gives the recorder of one operation's durations (seconds), asked once per operation when the store is wrapped. */
export type OperationTimer = (operation: string) => (seconds: number) => void;

type AsyncMethod<T> = { [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

/** `target[name]`, timed under `operation`. */
function timed<T, K extends AsyncMethod<T>>(target: T, name: K, operation: string, timer: OperationTimer): T[K] {
  const record = timer(operation);
  const method = target[name] as (...args: unknown[]) => Promise<unknown>;
  const call = async (...args: unknown[]): Promise<unknown> => {
    const start = performance.now();
    try {
      return await method.apply(target, args);
    } finally {
      record((performance.now() - start) / 1000);
    }
  };
  return call as T[K];
}

export function timedStore(store: AssetStore, timer: OperationTimer): AssetStore {
  const transfers: TransferStore = {
    create: timed(store.transfers, 'create', 'transfers.create', timer),
    get: timed(store.transfers, 'get', 'transfers.get', timer),
    setMark: timed(store.transfers, 'setMark', 'transfers.setMark', timer),
  };
  return {
    transfers,
    files: store.files,
    imports: store.imports,
    create: timed(store, 'create', 'create', timer),
    get: timed(store, 'get', 'get', timer),
    getText: timed(store, 'getText', 'getText', timer),
    update: timed(store, 'update', 'update', timer),
    revisions: timed(store, 'revisions', 'revisions', timer),
    list: timed(store, 'list', 'list', timer),
    ping: timed(store, 'ping', 'ping', timer),
    bulkInsert: (records) => store.bulkInsert(records),
    watchWrites: (onWrite) => store.watchWrites(onWrite),
    close: () => store.close(),
  };
}
