/** What every writing service shares: the request's `data`, the retry of a lost race, the record and its revision. */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, refusals } from '../domain/errors.js';
import { changesBetween } from '../domain/history.js';
import { isJsonObject, type JsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import type { AssetRecord, RecordDraft, RecordWrite } from '../store/types.js';

/**
 * Not a count: on a slow store a count runs out while the others are still served
 * (docs/decisions/0026-compare-and-set-writes-with-a-retry-budget.md).
 */
export const UPDATE_RETRY_BUDGET_MS = 5_000;
/** The first pauses are shorter: a race is usually lost to one write. */
const MAX_RETRY_PAUSE_MS = 50;

export const LOST_RACE = 'conflict';

const conflict = (): ApiError =>
  ApiError.one(409, 'body', 'data', 'The asset was changed by concurrent requests; repeat the request');

/**
 * Runs `attempt` (read, decide, compare-and-set) until it wins, or 409 once `budgetMs` have passed. A random pause
 * after each lost race, its bound doubling to a cap, keeps the writers of one asset from colliding again in step.
 */
export async function retryLostRaces<T>(
  attempt: () => Promise<T | typeof LOST_RACE>,
  budgetMs = UPDATE_RETRY_BUDGET_MS,
): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let bound = 2; ; bound = Math.min(bound * 2, MAX_RETRY_PAUSE_MS)) {
    const result = await attempt();
    if (result !== LOST_RACE) return result;
    if (performance.now() >= deadline) throw conflict();
    await sleep(Math.random() * bound);
  }
}

/** Every write sends one top-level object named `data`. */
export function requestData(body: unknown): JsonObject {
  if (!isJsonObject(body) || !isJsonObject(body.data)) throw refusals.notDecodable();
  return body.data;
}

/** Never served, never sent by a client: what a write carries over unless it changes it itself. */
export type KeptParts = Pick<
  AssetRecord,
  'id' | 'ownerTokenHash' | 'transferTokenHash' | 'appliedTransfers' | 'documentHistory'
>;

/** The hidden parts of `kept` are carried over, so that no kind of write drops what another keeps there. */
export function recordDraft(kept: KeptParts, asset: JsonObject, modified: number): RecordDraft {
  return {
    id: kept.id,
    ownerTokenHash: kept.ownerTokenHash,
    transferTokenHash: kept.transferTokenHash,
    appliedTransfers: kept.appliedTransfers,
    documentHistory: kept.documentHistory,
    modified,
    listed: asset.status !== 'draft',
    test: asset.mode === 'test',
    asset,
  };
}

/** The revision holds the served asset's changes; its text is written once here, kept by the store and answered. */
export function recordWrite(before: JsonObject, record: RecordDraft, author: string): RecordWrite & { text: string } {
  return { record, revision: { author, changes: changesBetween(before, record.asset) }, text: toJson(record.asset) };
}

/** A store writes what its last call of `build` built (nothing for a lost race): `text()` is the written asset's. */
export function rememberingText<S>(build: (stamp: S) => RecordWrite & { text: string }): {
  build: (stamp: S) => RecordWrite;
  text: () => string;
} {
  let text = '';
  return {
    build: (stamp) => {
      const write = build(stamp);
      text = write.text;
      return write;
    },
    text: () => text,
  };
}
