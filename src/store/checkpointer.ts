/**
 * WAL checkpoints of the embedded store, in a worker thread with a connection of its own. A checkpoint copies the
 * WAL into the database file and syncs both; inside a COMMIT (SQLite's automatic checkpoints) that would stop the
 * event loop for several milliseconds every few hundred writes. A PASSIVE checkpoint never waits for readers or
 * the writer, and one with nothing to copy costs next to nothing, so the worker simply runs one every
 * CHECKPOINT_INTERVAL_MS.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_INTERVAL_MS = 200;

// Inline (eval) so that it runs the same from the sources under tsx or vitest and from the compiled service.
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

/** Starts checkpointing `file`; failures are reported to `onError` once per run of them, and retried. */
export function startCheckpointer(file: string, onError: (message: string) => void = () => undefined): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  worker.on('message', (message: { error: string }) => onError(message.error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async close() {
      // Kept alive until it has closed its connection: a process that is only waiting for that must not end.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
