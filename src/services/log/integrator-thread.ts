/**
 * The integrator in a worker thread (docs/decisions/0079-the-integrator-runs-in-a-thread-of-its-own.md), on a log
 * that another thread can open again (the embedded store): its synced COMMITs block that thread, not the requests'.
 * It is started and stopped as the in-process `LogIntegrator` is.
 */
import { Worker } from 'node:worker_threads';
import type { LogSource } from '../../store/log.js';
import type { LogIdentity } from './identity.js';
import type { IntegratorLog } from './integrator.js';

export interface IntegratorThreadData {
  source: LogSource;
  identity: LogIdentity;
}

export type IntegratorThreadMessage =
  | { started: true }
  | { log: keyof IntegratorLog; details: object; message: string };

/** A thread that ended unasked is started again after this long: the log must go on being integrated. */
const RESTART_MS = 1_000;

// From the sources (tsx, vitest) the thread loads TypeScript through tsx; the compiled service runs its .js.
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./integrator-worker.${FROM_SOURCES ? 'ts' : 'js'}`, import.meta.url);

export class IntegratorThread {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopped = false;
  private restart: NodeJS.Timeout | undefined;

  constructor(
    private readonly data: IntegratorThreadData,
    private readonly log: IntegratorLog,
  ) {}

  /** Resolves after the thread's first pass, or once it has failed (logged, and started again). */
  start(): Promise<void> {
    return new Promise((resolve) => {
      const worker = new Worker(WORKER_URL, {
        workerData: this.data,
        // The node's own flags (a profiler's, a loader's) apply to the thread too.
        execArgv: [...process.execArgv, ...(FROM_SOURCES ? ['--import', 'tsx'] : [])],
      });
      this.worker = worker;
      worker.on('message', (message: IntegratorThreadMessage) => {
        if ('started' in message) resolve();
        else this.log[message.log](message.details, message.message);
      });
      worker.on('error', (error) => this.log.error({ err: error }, "the transparency log's integrator failed"));
      this.exited = new Promise((exited) =>
        worker.once('exit', (code) => {
          resolve();
          exited();
          if (this.stopped) return;
          this.log.error({ code }, "the transparency log's integrator thread ended; it starts again");
          this.restart = setTimeout(() => void this.start(), RESTART_MS);
        }),
      );
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restart);
    this.worker?.postMessage('stop');
    await this.exited;
  }
}
