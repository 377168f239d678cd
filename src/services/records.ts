/** How the services turn an asset into the record a store writes. */
import type { JsonObject } from '../domain/json.js';
import type { AssetRecord, RecordDraft } from '../store/types.js';

/** What a write keeps of the stored record unless it changes it itself: never served, never sent by a client. */
export type KeptParts = Pick<AssetRecord, 'id' | 'ownerTokenHash' | 'documentHistory'>;

/**
 * The record a store writes for `asset` at the stamp `modified`: the listing flags follow the asset, and the
 * hidden parts of `kept` (the owner token's hash, superseded document versions) are carried over, so that no
 * write drops what another kind of write keeps there.
 */
export function recordDraft(kept: KeptParts, asset: JsonObject, modified: number): RecordDraft {
  const draft: RecordDraft = {
    id: kept.id,
    ownerTokenHash: kept.ownerTokenHash,
    modified,
    listed: asset.status !== 'draft',
    test: asset.mode === 'test',
    asset,
  };
  if (kept.documentHistory !== undefined) draft.documentHistory = kept.documentHistory;
  return draft;
}
