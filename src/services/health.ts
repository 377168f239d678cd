/** Whether the registry can serve: its store answers a ping; and whether it takes writes, as the last one found. */
import type { AssetStore, WriteState } from '../store/types.js';
import type { components } from '../contract/generated/openapi.js';
import { ApiError } from '../domain/errors.js';

type Health = components['schemas']['Health'];

export class HealthService {
  constructor(
    private readonly store: Pick<AssetStore, 'ping'>,
    private readonly writeState: () => WriteState = () => ({ accepted: true }),
  ) {}

  /** Resolves while the store answers; 503 when it does not (the cause is returned for the log). */
  async check(): Promise<Health> {
    try {
      await this.store.ping();
    } catch (cause) {
      throw Object.assign(ApiError.one(503, 'url', 'store', 'The store does not answer'), { cause });
    }
    const writes = this.writeState();
    return writes.accepted
      ? { status: 'ok', writes: 'accepted' }
      : { status: 'ok', writes: 'refused', writesRefused: writes.reason };
  }
}
