/** MongoDB when MONGODB_URI is set, the embedded SQLite store otherwise; the import's store on the same data. */
import type { ImportStore } from './import.js';
import type { LogSource, LogStore } from './log.js';
import { refusingStore } from './refusals.js';
import type { AssetStore, StoreOptions } from './types.js';

/** REQUEST_TIMEOUT's default; a request makes a few store calls, so each may take a third of it. */
const REQUEST_TIMEOUT_MS = 30_000;
const CALLS_PER_REQUEST = 3;

export async function openStore(options: StoreOptions): Promise<AssetStore> {
  const deadlineMs = Math.ceil((options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) / CALLS_PER_REQUEST);
  if (options.mongodbUri) {
    // Loaded on demand: the embedded default should not pay for the MongoDB driver at start-up.
    const { openMongoStore, mongoRefusal } = await import('./mongo/index.js');
    const store = await openMongoStore({
      uri: options.mongodbUri,
      timeZone: options.timeZone,
      ...(options.node === undefined ? {} : { node: options.node }),
    });
    return refusingStore(store, { classify: mongoRefusal, deadlineMs });
  }
  const { openEmbeddedStore, sqliteRefusal } = await import('./sqlite/index.js');
  const store = await openEmbeddedStore({ dataDir: options.dataDir, timeZone: options.timeZone });
  return refusingStore(store, { classify: sqliteRefusal, deadlineMs });
}

export async function openImportStore(options: StoreOptions): Promise<ImportStore> {
  if (options.mongodbUri) {
    const { openMongoImportStore } = await import('./mongo/import.js');
    return openMongoImportStore({ uri: options.mongodbUri, timeZone: options.timeZone });
  }
  const { openEmbeddedImportStore } = await import('./sqlite/import.js');
  return openEmbeddedImportStore({ dataDir: options.dataDir, timeZone: options.timeZone });
}

/** The log of a store opened again in another thread, from the store's `logSource`. */
export async function openLogSource(source: LogSource): Promise<LogStore & { close(): void }> {
  const { openLogFile } = await import('./sqlite/log.js');
  return openLogFile(source.file);
}
