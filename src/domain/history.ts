/**
 * The history of an asset (decisions.md §12) as pure rules: a revision is who changed the served asset, when, and
 * how, as an RFC 6902 JSON Patch from the asset as served before to the asset as served after (from `{}` for
 * revision 1). Diffing and applying are fast-json-patch's; this module only checks that a diff keeps to what the
 * history promises (`add`, `remove`, `replace`, never the whole document), folds revisions back into assets, and
 * reads the query of a history page.
 */
import fastJsonPatch from 'fast-json-patch';
import { ApiError } from './errors.js';
import type { JsonObject, JsonValue } from './json.js';
import { lastValue } from './listing.js';

const { applyPatch, compare, deepClone, escapePathComponent } = fastJsonPatch;

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
  if (Object.keys(before).length === 0) return addedMembers(after);
  const operations = compare(before, after);
  for (const operation of operations) {
    const allowed = operation.op === 'add' || operation.op === 'remove' || operation.op === 'replace';
    if (!allowed || operation.path === '') throw new Error(`a diff gave an operation the history does not keep: ${JSON.stringify(operation)}`);
  }
  return operations as ChangeOperation[];
}

/**
 * From `{}`: one `add` per member, in the asset's order, as the library's diff gives them. Written directly, with
 * the values shared rather than copied (a revision is written, never changed): a creation's revision is its whole
 * asset, and copying it cost as much as writing it.
 */
function addedMembers(after: JsonObject): ChangeOperation[] {
  const operations: ChangeOperation[] = [];
  for (const [name, value] of Object.entries(after)) {
    if (value !== undefined) operations.push({ op: 'add', path: `/${escapePathComponent(name)}`, value });
  }
  return operations;
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

export const DEFAULT_REVISIONS_PAGE = 100;
export const MAX_REVISIONS_PAGE = 1000;

/** Which page of a history was asked for: the revisions after `after`, at most `limit` of them. */
export interface RevisionsQuery {
  after: number;
  limit: number;
}

/**
 * Reads `offset` (a `rev`, the page starts after it; 0 by default; at most 2^53 − 1) and `limit` (1 … , above 1000 served as 1000;
 * 100 by default) of a history page. Throws ApiError 400 (`querystring`) naming the parameter that is not a
 * whole number in range.
 */
export function parseRevisionsQuery(query: Record<string, unknown>): RevisionsQuery {
  const offset = lastValue(query.offset);
  const limit = lastValue(query.limit);
  if (offset !== '' && (!WHOLE_NUMBER.test(offset) || Number(offset) > Number.MAX_SAFE_INTEGER)) {
    throw ApiError.one(400, 'querystring', 'offset', 'Invalid offset: expected a whole number from 0 to 2^53 - 1 (a rev)');
  }
  if (limit !== '' && (!WHOLE_NUMBER.test(limit) || Number(limit) < 1)) {
    throw ApiError.one(400, 'querystring', 'limit', 'Invalid limit: expected a whole number of at least 1');
  }
  return {
    after: offset === '' ? 0 : Number(offset),
    limit: limit === '' ? DEFAULT_REVISIONS_PAGE : Math.min(Number(limit), MAX_REVISIONS_PAGE),
  };
}

const WHOLE_NUMBER = /^[0-9]+$/;

/**
 * One page of a history: the revisions read, and `next_page` after the last of them (at the same offset when the
 * page is empty, so the client polls there), its query carrying `limit`.
 */
export function revisionsPage(
  query: RevisionsQuery,
  revisions: Revision[],
  base: { path: string; origin: string },
): { data: Revision[]; next_page: { path: string; uri: string; offset: number } } {
  const offset = revisions.length === 0 ? query.after : revisions[revisions.length - 1]!.rev;
  const path = `${base.path}?limit=${query.limit}&offset=${offset}`;
  return { data: revisions, next_page: { path, uri: base.origin + path, offset } };
}
