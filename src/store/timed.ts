/** The metrics' store latency, both engines alike; `files` and what no request calls are not timed. */
import type { AssetStore, TransferStore } from './types.js';

/** Asked once per operation, when the store is wrapped, for the recorder of its durations (seconds). */
export type OperationTimer = (operation: string) => (seconds: number) => void;

type AsyncMethod<T> = { [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

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
    log: store.log,
    create: timed(store, 'create', 'create', timer),
    get: timed(store, 'get', 'get', timer),
    getText: timed(store, 'getText', 'getText', timer),
    update: timed(store, 'update', 'update', timer),
    revisions: timed(store, 'revisions', 'revisions', timer),
    snapshot: timed(store, 'snapshot', 'snapshot', timer),
    list: timed(store, 'list', 'list', timer),
    ping: timed(store, 'ping', 'ping', timer),
    bulkInsert: (records) => store.bulkInsert(records),
    watchWrites: (onWrite) => store.watchWrites(onWrite),
    close: () => store.close(),
  };
}
