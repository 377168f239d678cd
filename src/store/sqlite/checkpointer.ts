/**
 * WAL checkpoints in a worker thread with its own connection: inside a COMMIT (SQLite's automatic checkpoints) the
 * copy and its syncs would stop the event loop. A PASSIVE checkpoint waits for no one, and costs next to nothing
 * with nothing to copy, so one runs every CHECKPOINT_INTERVAL_MS.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 200;

// Inline (eval): it runs the same from the sources (tsx, vitest) and from the compiled service.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
let failed = false;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failed = false;
  } catch (error) {
    if (!failed) parentPort.postMessage({ error: String(error) });
    failed = true;
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

/** Failures go to `onError` once per run of them, and are retried. */
export function startCheckpointer(file: string, onError: (message: string) => void = () => undefined): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
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
