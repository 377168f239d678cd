/** Whether the registry can serve: its store answers a ping. */
import type { AssetStore } from '../store/types.js';
import { ApiError } from '../domain/errors.js';

export class HealthService {
  constructor(private readonly store: Pick<AssetStore, 'ping'>) {}

  /** Resolves while the store answers; 503 when it does not (the cause is returned for the log). */
  async check(): Promise<{ status: 'ok' }> {
    try {
      await this.store.ping();
    } catch (cause) {
      throw Object.assign(ApiError.one(503, 'url', 'store', 'The store does not answer'), { cause });
    }
    return { status: 'ok' };
  }
}
