/**
 * The original registry's stored documents (CouchDB) and what the import makes of them (decisions.md §14), as pure
 * rules: which documents are assets or transfers, the fields never served, the token digests, the `assetID` day
 * counter, and the history rebuilt from the original's reverse patches into §12's revisions.
 */
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import schemas from '../generated/schemas.json' with { type: 'json' };
import { withAddedDocument, withNewVersion, findLatest, type DocumentSet } from './documents.js';
import { changesBetween, firstRevision, type Revision } from './history.js';
import { originalTokenDigest, SHA512_DIGEST } from './ids.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { withoutUnservedMembers } from './validation.js';

const { applyPatch, deepClone } = fastJsonPatch;

/** Fields the original kept in an asset or a transfer and never served (behaviour §3.1). */
export const HIDDEN_FIELDS: readonly string[] = ['_id', '_rev', 'doc_type', 'revisions', 'owner_token', 'transfer_token', '_attachments'];

/** Why a document of the original's database is skipped: counted, not reported, no reason to exit 1. */
export type Skipped = 'design document' | 'deleted document' | 'no doc_type' | 'other doc_type' | 'other assetType';

export type Classified =
  | { kind: 'asset'; doc: JsonObject }
  | { kind: 'transfer'; doc: JsonObject }
  | { kind: 'skipped'; reason: Skipped }
  /** Not an asset the registry could serve: reported and left out. */
  | { kind: 'refused'; reason: string };

/** One row of CouchDB's `_changes` with `include_docs=true`. */
export interface ChangeRow {
  id: string;
  deleted?: boolean;
  doc?: unknown;
}

const ASSET_SCHEMA = schemas.$defs.Asset as { required: string[]; properties: Record<string, unknown> };

/** The JSON type a component schema names, following `$ref`s; `undefined` when it names none. */
function jsonTypeOf(schema: unknown): string | undefined {
  for (let current = schema; isJsonObject(current as JsonValue); ) {
    const node = current as Record<string, unknown>;
    if (typeof node.type === 'string') return node.type;
    if (typeof node.$ref !== 'string') return undefined;
    current = (schemas.$defs as Record<string, unknown>)[node.$ref.replace('#/$defs/', '')];
  }
  return undefined;
}

/** Every served asset's fields (the `required` list of the document's asset schema) and their JSON types. */
const REQUIRED_TYPES: readonly [field: string, type: string | undefined][] = ASSET_SCHEMA.required.map((field) => [
  field,
  jsonTypeOf(ASSET_SCHEMA.properties[field]),
]);

function hasJsonType(value: JsonValue, type: string | undefined): boolean {
  switch (type) {
    case undefined: return true;
    case 'object': return isJsonObject(value);
    case 'array': return Array.isArray(value);
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'null': return value === null;
    default: return typeof value === type;
  }
}

/**
 * What the import does with one row of `_changes`: design and deleted documents, documents without `doc_type` (the
 * original's `assetID` counter) or of another type, and assets of another `assetType` are skipped; a document
 * that is no asset (not an object, no `_id`, a field every served asset has missing or of the wrong type) is
 * refused; the rest are assets and transfers.
 */
export function classify(row: ChangeRow): Classified {
  if (row.id.startsWith('_design/')) return { kind: 'skipped', reason: 'design document' };
  if (row.deleted === true) return { kind: 'skipped', reason: 'deleted document' };
  const doc = row.doc;
  if (!isJsonObject(doc as JsonValue)) return { kind: 'refused', reason: 'not a JSON object' };
  const object = doc as JsonObject;
  if (typeof object._id !== 'string' || object._id === '') return { kind: 'refused', reason: 'no _id' };
  if (object.doc_type === undefined) return { kind: 'skipped', reason: 'no doc_type' };
  if (object.doc_type === 'Transfer') return transferProblem(object) ?? { kind: 'transfer', doc: object };
  if (object.doc_type !== 'Asset') return { kind: 'skipped', reason: 'other doc_type' };
  if (object.assetType !== 'claimRights') return { kind: 'skipped', reason: 'other assetType' };
  const served = servedForm(object);
  for (const [field, type] of REQUIRED_TYPES) {
    const value = served[field];
    if (value === undefined || value === null) return { kind: 'refused', reason: `${field} is missing` };
    if (!hasJsonType(value, type)) return { kind: 'refused', reason: `${field} is not of type ${type}` };
  }
  return { kind: 'asset', doc: object };
}

/** A transfer needs its owner, date and both digests to be of any use. */
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

/** The document with `id` for `_id` (first, as the registry serves it) and without `dateModified`. */
function withIdForUnderscoreId(doc: JsonObject): JsonObject {
  const { _id, dateModified: _dateModified, id: _id2, ...rest } = doc;
  return { id: _id ?? null, ...rest };
}

/**
 * A version as served: no hidden field, no member the registry does not serve (§14 keeps every served field, and
 * the published schemas describe all that is stored), `documents` as the latest version of each document.
 */
function servedVersion(version: JsonObject, dateModified: JsonValue | undefined): JsonObject {
  return withoutUnservedMembers('Asset', storedVersion(version, dateModified)).value;
}

/** A version as the original stored it, without its hidden fields: `documents` as the latest of each. */
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

/** The original's flat `documents` list (a PUT appended a version with the same `id`) as the registry keeps it. */
export function documentSet(documents: JsonValue | undefined): DocumentSet {
  let set: DocumentSet = { latest: [], history: [] };
  if (!Array.isArray(documents)) return set;
  for (const document of documents) {
    if (!isJsonObject(document)) continue;
    set = findLatest(set, String(document.id)) === undefined ? withAddedDocument(set, document) : withNewVersion(set, document);
  }
  return set;
}

/** The asset as the registry serves it after the import: the stored document without its hidden fields. */
export function servedForm(doc: JsonObject): JsonObject {
  return servedVersion({ ...withIdForUnderscoreId(doc) }, doc.dateModified);
}

/** An original asset as the import keeps it (§14): served, its documents' earlier versions, and what was left out. */
export interface KeptAsset {
  asset: JsonObject;
  documentHistory: JsonObject[];
  /**
   * What the registry does not serve and the import leaves out (the original's `schema_properties`,
   * `sandboxParameters`), as JSON Pointers: of the asset, and of its documents' earlier versions
   * (`/documents/{id}/…`).
   */
  unserved: string[];
}

export function keptAsset(doc: JsonObject): KeptAsset {
  const { value: asset, dropped } = withoutUnservedMembers('Asset', storedVersion({ ...withIdForUnderscoreId(doc) }, doc.dateModified));
  const earlier = documentSet(doc.documents).history.map((version) => ({ id: String(version.id), ...withoutUnservedMembers('Document', version) }));
  const unserved = [...dropped, ...earlier.flatMap(({ id, dropped: gone }) => gone.map((pointer) => `/documents/${id}${pointer}`))];
  return { asset, documentHistory: earlier.map(({ value }) => value), unserved: [...new Set(unserved)] };
}

export interface ImportedHistory {
  revisions: Revision[];
  /** Why the original's revisions did not rebuild (the history is then one revision holding the asset). */
  fallback?: string;
}

interface OriginalRevision {
  author: string;
  date: string;
  changes: Operation[];
}

const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** An RFC 6902 operation by its shape (`op` and `path`); whether it applies is the rebuild's to find out. */
function isOperation(value: JsonValue): value is JsonObject & Operation {
  return isJsonObject(value) && typeof value.op === 'string' && PATCH_OPS.has(value.op) && typeof value.path === 'string';
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
    if (!changes.every(isOperation)) return `revision ${index + 1} has a change that is no JSON Patch operation`;
    const author = typeof revision.author === 'string' ? revision.author : '';
    revisions.push({ author, date: revision.date, changes });
  }
  return revisions;
}

/**
 * §12's history of an original asset (decisions.md §14): the versions rebuilt backwards from the document by the
 * original's reverse patches, each without its hidden fields and with its revision's `date` as `dateModified`
 * (the last one the document's), and each revision's `changes` recomputed forward from the one before (`{}` for
 * the first). Where a patch does not apply, one revision holding the asset as it stands, and why.
 */
export function rebuildHistory(doc: JsonObject): ImportedHistory {
  const served = servedForm(doc);
  const standing = (fallback: string): ImportedHistory => ({ revisions: [firstRevision(served)], fallback });
  const revisions = originalRevisions(doc.revisions);
  if (typeof revisions === 'string') return standing(revisions);

  // versions[k]: the document after revision k (hidden fields still in: the patches touch them).
  const versions: JsonObject[] = new Array(revisions.length);
  versions[revisions.length - 1] = withIdForUnderscoreId(doc);
  try {
    for (let k = revisions.length - 1; k >= 1; k--) {
      const before = applyPatch(deepClone(versions[k]), revisions[k]!.changes, true, true).newDocument as unknown;
      if (!isJsonObject(before as JsonValue)) return standing(`revision ${k + 1} does not lead back to an object`);
      versions[k - 1] = before as JsonObject;
    }
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    return standing(`a patch does not apply (${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }

  const last = revisions.length - 1;
  const rebuilt: Revision[] = [];
  let previous: JsonObject = {};
  for (let k = 0; k <= last; k++) {
    const version = versions[k]!;
    const date = k === last ? String(doc.dateModified) : revisions[k]!.date;
    const servedVersionK = servedVersion(version, date);
    rebuilt.push({ rev: k + 1, date, author: revisions[k]!.author, changes: changesBetween(previous, servedVersionK) });
    previous = servedVersionK;
  }
  return { revisions: rebuilt };
}

/** The original asset's owner token as the registry keeps it (domain/ids.ts); `undefined` when it has none. */
export function ownerTokenDigest(doc: JsonObject): string | undefined {
  return typeof doc.owner_token === 'string' && doc.owner_token !== '' ? originalTokenDigest(doc.owner_token) : undefined;
}

/** The transfer token digest kept for an original SHA-512 hex digest, `null` when there is none. */
export function transferTokenDigest(digest: JsonValue | undefined): string | null {
  return typeof digest === 'string' && SHA512_DIGEST.test(digest) ? originalTokenDigest(digest) : null;
}

/** `UA-AR-DGF-2018-01-09-000001` (with or without a node suffix) → the day and its number; else `undefined`. */
export function assetIdCounter(assetID: JsonValue | undefined): { day: string; index: number } | undefined {
  if (typeof assetID !== 'string') return undefined;
  const match = /-(\d{4}-\d{2}-\d{2})-(\d{6,})(?:-[^-]*)?$/.exec(assetID);
  return match === null ? undefined : { day: match[1]!, index: Number(match[2]) };
}

/** `/assets/<id>` → `<id>`: the asset an original transfer was used for. */
export function usedForAsset(usedFor: JsonValue | undefined): string | undefined {
  if (typeof usedFor !== 'string') return undefined;
  const match = /^\/assets\/([^/]+)$/.exec(usedFor);
  return match?.[1];
}
