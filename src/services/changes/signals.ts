/** Write signals turned into reads on the next turn: a burst makes one read, and holds no writer's answer up. */
import type { AssetStore, WriteWatch } from '../../store/types.js';

const RETRY_READ_MS = 1000;

export class WriteSignals {
  private watching: Promise<WriteWatch> | undefined;
  private pending = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: AssetStore,
    private readonly readAll: () => void,
  ) {}

  /** Watches once, before the first stream reads anything (again after a failure). */
  watch(): Promise<WriteWatch> {
    this.watching ??= this.store
      .watchWrites(() => this.wake())
      .catch((error: unknown) => {
        this.watching = undefined;
        throw error;
      });
    return this.watching;
  }

  wake(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.readAll();
    });
  }

  /** After a failed read: one wake later, however many reads failed meanwhile. */
  retryLater(): void {
    this.retryTimer ??= setTimeout(() => {
      this.retryTimer = undefined;
      this.wake();
    }, RETRY_READ_MS);
  }

  stopRetrying(): void {
    clearTimeout(this.retryTimer);
  }

  async close(): Promise<void> {
    const watching = this.watching;
    this.watching = undefined;
    if (watching) await (await watching.catch(() => undefined))?.close();
  }
}
