/**
 * What every writing service shares: the request's `data`, the retry budget, the record a store writes and the
 * revision of the asset's history it adds.
 */
import { refusals } from '../domain/errors.js';
import { changesBetween } from '../domain/history.js';
import { isJsonObject, type JsonObject } from '../domain/json.js';
import type { AssetRecord, RecordDraft, RecordWrite } from '../store/types.js';

/** How often a write that lost a compare-and-set race is re-applied to the newer version before answering 409. */
export const UPDATE_ATTEMPTS = 5;

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
 * the revision it adds holds the changes of the served asset (decisions.md §12).
 */
export function recordWrite(before: JsonObject, record: RecordDraft, author: string): RecordWrite {
  return { record, revision: { author, changes: changesBetween(before, record.asset) } };
}
