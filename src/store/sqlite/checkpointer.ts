/**
 * WAL checkpoints in a worker thread with its own connection: inside a COMMIT (SQLite's automatic checkpoints) the
 * copy and its syncs would stop the event loop. A PASSIVE checkpoint waits for no one, and costs next to nothing
 * with nothing to copy, so one runs every CHECKPOINT_INTERVAL_MS. Under steady writes a PASSIVE checkpoint never
 * lets the WAL start again from its beginning, so past MAX_WAL_FRAMES a TRUNCATE checkpoint that waits for no one
 * empties it whenever it finds a moment without a writer or a reader in the WAL
 * (docs/decisions/0080-the-wal-is-bounded.md).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 200;
/** About 64 MiB of 4-KiB pages: a disk nearly full is not filled by the WAL alone. */
const MAX_WAL_FRAMES = 16_384;

// Inline (eval): it runs the same from the sources (tsx, vitest) and from the compiled service.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const open = () => new Database(workerData.file, { timeout: 5000 });
let db = open();
let failed = false;
const timer = setInterval(() => {
  try {
    db ??= open();
    const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
    if (log > workerData.maxFrames) {
      // Without a busy handler: tried again next time rather than holding back the writers while it waits.
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma('busy_timeout = 5000');
      }
    }
    failed = false;
  } catch (error) {
    if (!failed) parentPort.postMessage({ error: String(error) });
    failed = true;
    // A connection that met an I/O error may go on failing after its cause is gone: the next try opens another.
    try {
      db?.close();
    } catch {}
    db = undefined;
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db?.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  /** Frames past which the WAL is emptied; MAX_WAL_FRAMES unless told. */
  maxWalFrames?: number;
  /** Failures go here once per run of them, and are retried. */
  onError?: (message: string) => void;
}

export function startCheckpointer(file: string, options: CheckpointerOptions = {}): Checkpointer {
  const { maxWalFrames = MAX_WAL_FRAMES, onError = () => undefined } = options;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS, maxFrames: maxWalFrames },
  });
  worker.unref();
  worker.on('message', (message: { error: string }) => onError(message.error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async close() {
      // Kept alive until its connection is closed: a process waiting only for that must not end first.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
