/** Syncs of a store's WAL file outside SQLite's COMMIT, so no write lock is held while the disk works. */
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';

/** Resolves after a sync begun after the call; the commits made while one runs share the next. */
export function walSync(wal: number): () => Promise<void> {
  let syncRunning: Promise<void> | undefined;
  let syncQueued: Promise<void> | undefined;
  const startSync = (): Promise<void> =>
    new Promise((resolve, reject) =>
      fsync(wal, (error) => {
        syncRunning = undefined;
        if (error) reject(error);
        else resolve();
      }),
    );
  function syncWal(): Promise<void> {
    if (syncRunning === undefined) {
      syncRunning = startSync();
      return syncRunning;
    }
    syncQueued ??= syncRunning
      .catch(() => undefined)
      .then(() => {
        syncQueued = undefined;
        return syncWal();
      });
    return syncQueued;
  }
  return syncWal;
}

/** The WAL of the database in `file` on the disk now; none (its content checkpointed and synced) is fine. */
export function syncWalFileNow(file: string): void {
  let wal: number;
  try {
    wal = openSync(`${file}-wal`, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fsyncSync(wal);
  } finally {
    closeSync(wal);
  }
}
