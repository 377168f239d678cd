/**
 * The history of an asset (decisions.md §12) as pure rules: a revision is who changed the served asset, when, and
 * how, as an RFC 6902 JSON Patch from the asset as served before to the asset as served after (from `{}` for
 * revision 1). Diffing and applying are fast-json-patch's; this module only checks that a diff keeps to what the
 * history promises (`add`, `remove`, `replace`, never the whole document) and folds revisions back into assets.
 */
import fastJsonPatch from 'fast-json-patch';
import type { JsonObject, JsonValue } from './json.js';

const { applyPatch, compare, deepClone } = fastJsonPatch;

/** One operation of a revision's `changes`: a JSON Patch operation the history uses (no `move`, `copy`, `test`). */
export type ChangeOperation =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'replace'; path: string; value: JsonValue }
  | { op: 'remove'; path: string };

/** One revision of an asset as kept and served. */
export interface Revision {
  /** 1, 2, 3 … per asset, without gaps, in the order of the writes. */
  rev: number;
  /** The `dateModified` the write gave the asset, as served. */
  date: string;
  /** The name of the API key that made the write. */
  author: string;
  /** Turns the asset as served before the write into the asset as served after it. */
  changes: ChangeOperation[];
}

/**
 * The operations turning `before` into `after`, touching only members whose value changed. Throws if the
 * library ever answered with an operation the history does not promise (a defect, never a client's doing).
 */
export function changesBetween(before: JsonObject, after: JsonObject): ChangeOperation[] {
  const operations = compare(before, after);
  for (const operation of operations) {
    const allowed = operation.op === 'add' || operation.op === 'remove' || operation.op === 'replace';
    if (!allowed || operation.path === '') throw new Error(`a diff gave an operation the history does not keep: ${JSON.stringify(operation)}`);
  }
  return operations as ChangeOperation[];
}

/** The revision a write adds after `revisions` earlier ones, turning `before` into `after` (served as dated). */
export function nextRevision(revisions: number, before: JsonObject, after: JsonObject, author: string): Revision {
  return { rev: revisions + 1, date: servedDate(after), author, changes: changesBetween(before, after) };
}

/**
 * Revision 1: the asset as it stands, from `{}`. For a creation its author is the creator; for an asset from before
 * history (or a seeded one) its owner, which `author` defaults to.
 */
export function firstRevision(asset: JsonObject, author: string = ownerOf(asset)): Revision {
  return nextRevision(0, {}, asset, author);
}

/** The asset as served after the last of `revisions` (revisions 1 … n in order), applied to `{}`. */
export function assetAfter(revisions: readonly Revision[]): JsonObject {
  let asset: JsonObject = {};
  for (const revision of revisions) {
    // The library shares values of `add` operations with the document: cloned so the revisions stay as read.
    asset = applyPatch(asset, deepClone(revision.changes), true, true).newDocument;
  }
  return asset;
}

function servedDate(asset: JsonObject): string {
  const date = asset.dateModified;
  if (typeof date !== 'string') throw new Error(`asset ${String(asset.id)} has no dateModified text`);
  return date;
}

function ownerOf(asset: JsonObject): string {
  const owner = asset.owner;
  if (typeof owner !== 'string') throw new Error(`asset ${String(asset.id)} has no owner`);
  return owner;
}
