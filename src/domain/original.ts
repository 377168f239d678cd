/**
 * The original's CouchDB documents and what the import makes of them: the rows it takes
 * (docs/decisions/0039-import-resumable-into-an-empty-store.md), what an asset keeps
 * (docs/decisions/0040-what-the-import-keeps.md), its history (docs/decisions/0041-import-rebuilds-histories.md).
 */
import type { Operation } from 'fast-json-patch';
import schemas from '../contract/generated/schemas.json' with { type: 'json' };
import { withAddedDocument, withNewVersion, findLatest, type DocumentSet } from './documents.js';
import { applyBounded, jsonSize, MAX_OPERATIONS, VersionTooLarge } from './bounded-patch.js';
import { changesBetween, firstRevision, type ChangeOperation, type Revision } from './history.js';
import { originalTokenDigest, SHA512_DIGEST } from './ids.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { withoutUnservedMembers } from './served-members.js';

/** Fields the original kept in an asset or a transfer and never served (behaviour §3.1). */
const HIDDEN_FIELDS: readonly string[] = [
  '_id',
  '_rev',
  'doc_type',
  'revisions',
  'owner_token',
  'transfer_token',
  '_attachments',
];

/** Counted, not reported: no reason to exit 1. */
type Skipped = 'design document' | 'deleted document' | 'no doc_type' | 'other doc_type' | 'other assetType';

export type Classified =
  | { kind: 'asset'; doc: JsonObject }
  | { kind: 'transfer'; doc: JsonObject }
  | { kind: 'skipped'; reason: Skipped }
  /** Reported and left out. */
  | { kind: 'refused'; reason: string };

/** One row of `_changes` with `include_docs=true`. */
export interface ChangeRow {
  id: string;
  deleted?: boolean;
  doc?: unknown;
}

const ASSET_SCHEMA = schemas.$defs.Asset as { required: string[]; properties: Record<string, unknown> };

function jsonTypeOf(schema: unknown): string | undefined {
  for (let current = schema; isJsonObject(current as JsonValue); ) {
    const node = current as Record<string, unknown>;
    if (typeof node.type === 'string') return node.type;
    if (typeof node.$ref !== 'string') return undefined;
    current = (schemas.$defs as Record<string, unknown>)[node.$ref.replace('#/$defs/', '')];
  }
  return undefined;
}

const REQUIRED_TYPES: readonly [field: string, type: string | undefined][] = ASSET_SCHEMA.required.map((field) => [
  field,
  jsonTypeOf(ASSET_SCHEMA.properties[field]),
]);

function hasJsonType(value: JsonValue, type: string | undefined): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** A document without `doc_type` is the original's `assetID` counter: skipped, as are other types. */
export function classify(row: ChangeRow): Classified {
  if (row.id.startsWith('_design/')) return { kind: 'skipped', reason: 'design document' };
  if (row.deleted === true) return { kind: 'skipped', reason: 'deleted document' };
  const doc = row.doc;
  if (!isJsonObject(doc as JsonValue)) return { kind: 'refused', reason: 'not a JSON object' };
  const object = doc as JsonObject;
  if (typeof object._id !== 'string' || object._id === '') return { kind: 'refused', reason: 'no _id' };
  if (object.doc_type === undefined) return { kind: 'skipped', reason: 'no doc_type' };
  if (object.doc_type === 'Transfer')
    return transferProblem(object) ?? idProblem(object) ?? { kind: 'transfer', doc: object };
  if (object.doc_type !== 'Asset') return { kind: 'skipped', reason: 'other doc_type' };
  if (object.assetType !== 'claimRights') return { kind: 'skipped', reason: 'other assetType' };
  const served = servedForm(object);
  for (const [field, type] of REQUIRED_TYPES) {
    const value = served[field];
    if (value === undefined || value === null) return { kind: 'refused', reason: `${field} is missing` };
    if (!hasJsonType(value, type)) return { kind: 'refused', reason: `${field} is not of type ${type}` };
  }
  return idProblem(object) ?? { kind: 'asset', doc: object };
}

/** The ids the registry issues (docs/decisions/0063-import-reads-hostile-input-safely.md): served, PATCHed, printed. */
const ISSUED_ID = /^[0-9a-f]{32}$/;

function idProblem(doc: JsonObject): { kind: 'refused'; reason: string } | undefined {
  return ISSUED_ID.test(String(doc._id))
    ? undefined
    : { kind: 'refused', reason: '_id is not 32 lowercase hexadecimal characters' };
}

function transferProblem(doc: JsonObject): { kind: 'refused'; reason: string } | undefined {
  for (const field of ['owner', 'date'] as const) {
    if (typeof doc[field] !== 'string') return { kind: 'refused', reason: `transfer ${field} is missing` };
  }
  for (const field of ['access_token', 'transfer_token'] as const) {
    const digest = doc[field];
    if (typeof digest !== 'string' || !SHA512_DIGEST.test(digest)) {
      return { kind: 'refused', reason: `transfer ${field} is not a SHA-512 hex digest` };
    }
  }
  return undefined;
}

/** `id` first, as the registry serves it. */
function withIdForUnderscoreId(doc: JsonObject): JsonObject {
  const { _id, dateModified: _dateModified, id: _id2, ...rest } = doc;
  return { id: _id ?? null, ...rest };
}

function servedVersion(version: JsonObject, dateModified: JsonValue | undefined): JsonObject {
  return withoutUnservedMembers('Asset', storedVersion(version, dateModified)).value;
}

function storedVersion(version: JsonObject, dateModified: JsonValue | undefined): JsonObject {
  const served: JsonObject = {};
  for (const [key, value] of Object.entries(version)) if (!HIDDEN_FIELDS.includes(key)) served[key] = value;
  if (dateModified !== undefined) served.dateModified = dateModified;
  if (Array.isArray(served.documents)) {
    const latest = documentSet(served.documents).latest;
    if (latest.length > 0) served.documents = latest;
    else delete served.documents;
  }
  return served;
}

/** In the original's flat list a PUT appended a version with the same `id`. */
export function documentSet(documents: JsonValue | undefined): DocumentSet {
  let set: DocumentSet = { latest: [], history: [] };
  if (!Array.isArray(documents)) return set;
  for (const document of documents) {
    if (!isJsonObject(document)) continue;
    set =
      findLatest(set, String(document.id)) === undefined
        ? withAddedDocument(set, document)
        : withNewVersion(set, document);
  }
  return set;
}

export function servedForm(doc: JsonObject): JsonObject {
  return servedVersion({ ...withIdForUnderscoreId(doc) }, doc.dateModified);
}

export interface KeptAsset {
  asset: JsonObject;
  documentHistory: JsonObject[];
  /** JSON Pointers of what was left out; in earlier document versions `/documents/{id}/…`. */
  unserved: string[];
}

export function keptAsset(doc: JsonObject): KeptAsset {
  const { value: asset, dropped } = withoutUnservedMembers(
    'Asset',
    storedVersion({ ...withIdForUnderscoreId(doc) }, doc.dateModified),
  );
  const earlier = documentSet(doc.documents).history.map((version) => ({
    id: String(version.id),
    ...withoutUnservedMembers('Document', version),
  }));
  const unserved = [
    ...dropped,
    ...earlier.flatMap(({ id, dropped: gone }) => gone.map((pointer) => `/documents/${id}${pointer}`)),
  ];
  return { asset, documentHistory: earlier.map(({ value }) => value), unserved: [...new Set(unserved)] };
}

export interface ImportedHistory {
  revisions: Revision[];
  /** Why the original's revisions did not rebuild; the history is then one revision holding the asset. */
  fallback?: string;
}

interface OriginalRevision {
  author: string;
  date: string;
  changes: Operation[];
}

const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** By its shape only: whether it applies is the rebuild's to find out. */
function isOperation(value: JsonValue): value is JsonObject & Operation {
  return (
    isJsonObject(value) && typeof value.op === 'string' && PATCH_OPS.has(value.op) && typeof value.path === 'string'
  );
}

function originalRevisions(value: JsonValue | undefined): OriginalRevision[] | string {
  if (!Array.isArray(value)) return 'no revisions';
  if (value.length === 0) return 'no revisions';
  const revisions: OriginalRevision[] = [];
  for (const [index, revision] of value.entries()) {
    if (!isJsonObject(revision) || typeof revision.date !== 'string' || !Array.isArray(revision.changes)) {
      return `revision ${index + 1} has no date or changes`;
    }
    const changes = revision.changes;
    if (changes.length > MAX_OPERATIONS) {
      return `revision ${index + 1} has ${changes.length} operations, more than ${MAX_OPERATIONS}`;
    }
    if (!changes.every(isOperation)) return `revision ${index + 1} has a change that is no JSON Patch operation`;
    const author = typeof revision.author === 'string' ? revision.author : '';
    revisions.push({ author, date: revision.date, changes });
  }
  return revisions;
}

/** The rebuilt history of an asset is at most this many times the original's document, plus a floor. */
const HISTORY_FACTOR = 4;
const HISTORY_FLOOR = 64 * 1024;

/**
 * Versions rebuilt backwards by the original's reverse patches, each revision's `changes` recomputed forward as
 * served as soon as the version before it is known: one version is held at a time, each within `versionLimit`
 * (BODY_LIMIT) bytes, and the whole history within a multiple of the document's size
 * (docs/decisions/0063-import-reads-hostile-input-safely.md). Where a patch does not apply or a bound is passed,
 * one revision holding the asset as it stands, and why.
 */
export function rebuildHistory(doc: JsonObject, versionLimit: number): ImportedHistory {
  const served = servedForm(doc);
  const standing = (fallback: string): ImportedHistory => ({ revisions: [firstRevision(served)], fallback });
  const revisions = originalRevisions(doc.revisions);
  if (typeof revisions === 'string') return standing(revisions);

  const last = revisions.length - 1;
  const dateOf = (k: number): string => (k === last ? String(doc.dateModified) : revisions[k]!.date);
  const historyLimit = HISTORY_FACTOR * jsonSize(doc) + HISTORY_FLOOR;
  // The document after revision k, hidden fields still in (the patches touch them), `revisions` out (they never do).
  const { revisions: _revisions, ...current } = withIdForUnderscoreId(doc);
  let version: JsonObject = current;
  let size = jsonSize(version);
  let servedAfter = servedVersion(version, dateOf(last));
  const changes: ChangeOperation[][] = new Array(revisions.length);
  let historyBytes = 0;
  for (let k = last; k >= 1; k--) {
    let rebuilt: { document: JsonValue; size: number };
    try {
      rebuilt = applyBounded(version, size, revisions[k]!.changes, versionLimit);
    } catch (error) {
      if (error instanceof VersionTooLarge) return standing(`revision ${k + 1}: ${error.message}`);
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return standing(`a patch does not apply (${name}: ${message})`);
    }
    if (!isJsonObject(rebuilt.document)) return standing(`revision ${k + 1} does not lead back to an object`);
    version = rebuilt.document;
    size = rebuilt.size;
    const servedBefore = servedVersion(version, dateOf(k - 1));
    changes[k] = changesBetween(servedBefore, servedAfter);
    historyBytes += jsonSize(changes[k]);
    if (historyBytes > historyLimit) {
      return standing(`the rebuilt history would be more than ${HISTORY_FACTOR} times the size of the document`);
    }
    servedAfter = servedBefore;
  }
  changes[0] = changesBetween({}, servedAfter);
  return {
    revisions: revisions.map((revision, k) => ({
      rev: k + 1,
      date: dateOf(k),
      author: revision.author,
      changes: changes[k]!,
    })),
  };
}

export function ownerTokenDigest(doc: JsonObject): string | undefined {
  return typeof doc.owner_token === 'string' && doc.owner_token !== ''
    ? originalTokenDigest(doc.owner_token)
    : undefined;
}

export function transferTokenDigest(digest: JsonValue | undefined): string | null {
  return typeof digest === 'string' && SHA512_DIGEST.test(digest) ? originalTokenDigest(digest) : null;
}

/** `UA-AR-DGF-2018-01-09-000001` (with or without a node suffix) → the day and its number; else `undefined`. */
export function assetIdCounter(assetID: JsonValue | undefined): { day: string; index: number } | undefined {
  if (typeof assetID !== 'string') return undefined;
  const match = /-(\d{4}-\d{2}-\d{2})-(\d{6,})(?:-[^-]*)?$/.exec(assetID);
  return match === null ? undefined : { day: match[1]!, index: Number(match[2]) };
}

/** `/assets/<id>` → `<id>` */
export function usedForAsset(usedFor: JsonValue | undefined): string | undefined {
  if (typeof usedFor !== 'string') return undefined;
  const match = /^\/assets\/([^/]+)$/.exec(usedFor);
  return match?.[1];
}
