/**
 * Any other connection's commit, this process's writer's included, changes what `PRAGMA data_version` answers on the
 * read connection: polling it notices every process's writes for a look at the WAL index. This process's own
 * commits are signalled at once (`signalWrites`).
 */
import type Database from 'better-sqlite3';
import type { AssetStore } from '../types.js';

const WATCH_POLL_MS = 10;

export interface Watch {
  watchWrites: AssetStore['watchWrites'];
  signalWrites(): void;
  close(): void;
}

export function openWatch(db: Database.Database): Watch {
  const watchers = new Set<() => void>();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenVersion = 0;
  let watchTimer: NodeJS.Timeout | undefined;

  function signalWrites(): void {
    for (const onWrite of watchers) onWrite();
  }

  function pollDataVersion(): void {
    const version = dataVersion.get() as number;
    if (version === seenVersion) return;
    seenVersion = version;
    signalWrites();
  }

  function stopWatching(): void {
    clearInterval(watchTimer);
    watchTimer = undefined;
  }

  return {
    signalWrites,
    async watchWrites(onWrite) {
      const watcher = () => onWrite();
      watchers.add(watcher);
      if (watchTimer === undefined) {
        seenVersion = dataVersion.get() as number;
        watchTimer = setInterval(pollDataVersion, WATCH_POLL_MS);
        // A watch alone does not keep a process alive.
        watchTimer.unref();
      }
      return {
        method: 'data_version poll',
        check: pollDataVersion,
        async close() {
          watchers.delete(watcher);
          if (watchers.size === 0) stopWatching();
        },
      };
    },
    close() {
      stopWatching();
      watchers.clear();
    },
  };
}
