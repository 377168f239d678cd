/**
 * Revisions as JSON Patches of the served asset (docs/decisions/0036-revisions-are-json-patches.md). Diffing and
 * applying are fast-json-patch's; this module checks a diff keeps to `add`, `remove`, `replace` below the root.
 */
import fastJsonPatch from 'fast-json-patch';
import { ApiError } from './errors.js';
import type { JsonObject, JsonValue } from './json.js';
import { lastValue } from './listing.js';
import { toJson } from './serialize.js';

const { applyPatch, compare, deepClone, escapePathComponent } = fastJsonPatch;

export type ChangeOperation =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'replace'; path: string; value: JsonValue }
  | { op: 'remove'; path: string };

export interface Revision {
  /** 1, 2, 3 … per asset, without gaps. */
  rev: number;
  /** The `dateModified` the write gave the asset. */
  date: string;
  /** The name of the API key that made the write. */
  author: string;
  changes: ChangeOperation[];
}

/** Throws if the library ever answered an operation the history does not promise: a defect, never a client's. */
export function changesBetween(before: JsonObject, after: JsonObject): ChangeOperation[] {
  if (Object.keys(before).length === 0) return addedMembers(after);
  const operations = compare(before, after);
  for (const operation of operations) {
    const allowed = operation.op === 'add' || operation.op === 'remove' || operation.op === 'replace';
    if (!allowed || operation.path === '')
      throw new Error(`a diff gave an operation the history does not keep: ${JSON.stringify(operation)}`);
  }
  return operations as ChangeOperation[];
}

/**
 * What the library's diff from `{}` gives, without copying the values: a revision is written, never changed, and a
 * creation's revision is its whole asset.
 */
function addedMembers(after: JsonObject): ChangeOperation[] {
  const operations: ChangeOperation[] = [];
  for (const [name, value] of Object.entries(after)) {
    if (value !== undefined) operations.push({ op: 'add', path: `/${escapePathComponent(name)}`, value });
  }
  return operations;
}

export function nextRevision(revisions: number, before: JsonObject, after: JsonObject, author: string): Revision {
  return { rev: revisions + 1, date: servedDate(after), author, changes: changesBetween(before, after) };
}

/** `author` defaults to the owner, for assets from before history (or seeded ones). */
export function firstRevision(asset: JsonObject, author: string = ownerOf(asset)): Revision {
  return nextRevision(0, {}, asset, author);
}

/** `from` (the asset after the revision before the first of `revisions`) is changed in place. */
export function assetAfter(revisions: readonly Revision[], from: JsonObject = {}): JsonObject {
  let asset = from;
  for (const revision of revisions) {
    // The library shares values of `add` operations with the document: cloned so the revisions stay as read.
    asset = applyPatch(asset, deepClone(revision.changes), true, true).newDocument;
  }
  return asset;
}

/**
 * `asset` changed in place by revisions read for this alone: their values become the asset's, not copied, and
 * they are not checked again (the store's own, checked when written; the result is checked as a served asset).
 */
export function applyRevisions(asset: JsonObject, revisions: readonly Revision[]): JsonObject {
  let applied = asset;
  for (const revision of revisions) applied = applyPatch(applied, revision.changes, false, true).newDocument;
  return applied;
}

/**
 * A store keeps the asset whole after every revision numbered a multiple of this, so that reading one revision
 * applies at most this many revisions' changes (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md).
 */
export const SNAPSHOT_EVERY = 100;

export function keepsSnapshot(rev: number): boolean {
  return rev % SNAPSHOT_EVERY === 0;
}

/** The asset as served right after revision `rev`, kept whole. */
export interface Snapshot {
  rev: number;
  asset: JsonObject;
}

/** The snapshots of a history handed over whole (a seed, an import): its fold at every `keepsSnapshot` rev. */
export function snapshotsOf(history: readonly Revision[]): { rev: number; text: string }[] {
  const snapshots: { rev: number; text: string }[] = [];
  if (history.length < SNAPSHOT_EVERY) return snapshots;
  let asset: JsonObject = {};
  for (const revision of history) {
    asset = assetAfter([revision], asset);
    if (keepsSnapshot(revision.rev)) snapshots.push({ rev: revision.rev, text: toJson(asset) });
  }
  return snapshots;
}

/** What a store counts of a revision against a page's bound: its changes as JSON text, in UTF-8 bytes. */
export function changesBytes(changesText: string): number {
  return Buffer.byteLength(changesText);
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

const DEFAULT_REVISIONS_PAGE = 100;
export const MAX_REVISIONS_PAGE = 1000;

export interface RevisionsQuery {
  after: number;
  limit: number;
}

/** Throws ApiError 400 naming the parameter that is not a whole number in range. */
export function parseRevisionsQuery(query: Record<string, unknown>): RevisionsQuery {
  const offset = lastValue(query.offset);
  const limit = lastValue(query.limit);
  if (offset !== '' && (!WHOLE_NUMBER.test(offset) || Number(offset) > Number.MAX_SAFE_INTEGER)) {
    throw ApiError.one(
      400,
      'querystring',
      'offset',
      'Invalid offset: expected a whole number from 0 to 2^53 - 1 (a rev)',
    );
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

/** An empty page's `next_page` stays at its offset, so the client polls there. */
export function revisionsPage(
  query: RevisionsQuery,
  revisions: Revision[],
  base: { path: string; origin: string },
): { data: Revision[]; next_page: { path: string; uri: string; offset: number } } {
  const offset = revisions.length === 0 ? query.after : revisions[revisions.length - 1]!.rev;
  const path = `${base.path}?limit=${query.limit}&offset=${offset}`;
  return { data: revisions, next_page: { path, uri: base.origin + path, offset } };
}
