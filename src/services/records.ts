/**
 * What every writing service shares: the request's `data`, the retry budget, the record a store writes and the
 * revision of the asset's history it adds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, refusals } from '../domain/errors.js';
import { changesBetween } from '../domain/history.js';
import { isJsonObject, type JsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import type { AssetRecord, RecordDraft, RecordWrite } from '../store/types.js';

/**
 * How long (ms) a write that keeps losing compare-and-set races to other writes of its asset is decided again on
 * the newer version before it is answered 409. A time, not a count of attempts: on a slow store (FerretDB) a
 * count runs out while the others are still being written, however fair the turns.
 */
export const UPDATE_RETRY_BUDGET_MS = 5_000;
/** The longest pause between two attempts; the first pauses are shorter (a race is usually lost to one write). */
const MAX_RETRY_PAUSE_MS = 50;

/** An attempt that lost its compare-and-set: the asset changed since it was read. */
export const LOST_RACE = 'conflict';

const conflict = (): ApiError =>
  ApiError.one(409, 'body', 'data', 'The asset was changed by concurrent requests; repeat the request');

/**
 * Runs `attempt` (read, decide, compare-and-set) until it does not lose the race, or 409 once `budgetMs` have
 * passed. After each lost race it pauses a random time (up to a bound that doubles, capped), so that the writers
 * of one asset do not collide again in step and each gets its turn.
 */
export async function retryLostRaces<T>(attempt: () => Promise<T | typeof LOST_RACE>, budgetMs = UPDATE_RETRY_BUDGET_MS): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let bound = 2; ; bound = Math.min(bound * 2, MAX_RETRY_PAUSE_MS)) {
    const result = await attempt();
    if (result !== LOST_RACE) return result;
    if (performance.now() >= deadline) throw conflict();
    await sleep(Math.random() * bound);
  }
}

/** `{ data: {...} }` with an object `data`, as every write must send (spec: one top-level object named data). */
export function requestData(body: unknown): JsonObject {
  if (!isJsonObject(body) || !isJsonObject(body.data)) throw refusals.notDecodable();
  return body.data;
}

/**
 * What a write keeps of the stored record unless it changes it itself: the credentials (owner token hash,
 * transfer state) and the superseded document versions. Never served, never sent by a client.
 */
export type KeptParts = Pick<AssetRecord, 'id' | 'ownerTokenHash' | 'transferTokenHash' | 'appliedTransfers' | 'documentHistory'>;

/**
 * The record a store writes for `asset` at the stamp `modified`: the listing flags follow the asset, and the
 * hidden parts of `kept` are carried over, so that no kind of write drops what another keeps there.
 */
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

/**
 * A write of `record` by `author` (the API key's name) over the asset as served before it (`{}` for a creation):
 * the revision it adds holds the changes of the served asset (decisions.md §12). The asset's served text is written
 * here, once: the store keeps it and the write's answer is it.
 */
export function recordWrite(before: JsonObject, record: RecordDraft, author: string): RecordWrite & { text: string } {
  return { record, revision: { author, changes: changesBetween(before, record.asset) }, text: toJson(record.asset) };
}

/**
 * `build`, remembering the served text of the write it built last. A store calls a build once per attempt and writes
 * what the last call built (or nothing, when it answers a lost race): `text()` is then the written asset's text.
 */
export function rememberingText<S>(build: (stamp: S) => RecordWrite & { text: string }): { build: (stamp: S) => RecordWrite; text: () => string } {
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
