/**
 * The embedded store: one SQLite file shared by the processes of one machine, stamped under its single write lock
 * (clock.ts), the writes of one turn of the event loop sharing one COMMIT and one sync (write-queue.ts;
 * docs/decisions/0022-sqlite-group-commit-and-synced-wal.md); the document service's files in a folder beside it.
 */
import { join } from 'node:path';
import type { AssetStore } from '../types.js';
import { openAssets } from './assets.js';
import { openConnection } from './connection.js';
import { feedReader } from './feed.js';
import { openFolderFileStore } from './files.js';
import { revisionReader } from './history.js';
import { openLog } from './log.js';
import { openTransfers } from './transfers.js';
import { openWatch } from './watch.js';
import { openWriteQueue } from './write-queue.js';

export { sqliteRefusal } from './connection.js';

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** The zone of the per-day `assetID` counter. */
  timeZone: string;
}

export function openEmbeddedStore(options: EmbeddedStoreOptions): AssetStore {
  const { dataDir, timeZone } = options;
  const connection = openConnection(dataDir);
  const { db, writer, syncWal } = connection;
  const watch = openWatch(db);
  const { signalWrites } = watch;
  const queue = openWriteQueue({ writer, syncWal, signalWrites });
  // Reads a page of the file: a vanished or unreadable database shows.
  const ping = db.prepare('SELECT count(*) FROM counters').pluck();
  const log = openLog(db);

  return {
    transfers: openTransfers(db, writer, queue),
    ...openAssets({ connection, queue, signalWrites, timeZone }),
    list: feedReader(db),
    ...revisionReader(db),
    log,
    logSource: { engine: 'sqlite', file: db.name },
    watchWrites: watch.watchWrites,
    onBackgroundFailure: connection.onBackgroundFailure,
    async ping() {
      ping.get();
    },
    files: openFolderFileStore(join(dataDir, 'files')),
    async close() {
      // Its callers are waiting for the COMMIT.
      await queue.drain();
      watch.close();
      log.close();
      await connection.close();
    },
  };
}
