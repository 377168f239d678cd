/**
 * The documents of an asset (decisions.md §9), as tables and pure functions: who may write them in which status,
 * who counts as their author, which fields a request may set, how a new version is built from the previous one,
 * and the shape of a document service's download URL.
 *
 * An asset keeps two lists: `latest` (the asset's served `documents`: the latest version of each document, in the
 * order their latest versions were written) and `history` (the versions a PUT superseded, in the order they were
 * written). Every version gets its `dateModified` from the asset write that created it, so one asset's versions
 * carry distinct, increasing dates.
 */
import { ApiError } from './errors.js';
import type { JsonObject } from './json.js';
import { mergePatch } from './patch.js';
import { pickKeys, type Role, type Status } from './workflow.js';

/** Who may add, replace and edit documents (with the other rules below); everyone may read them. */
export const DOCUMENT_WRITERS: readonly Role[] = ['owner', 'admins'];

/** The asset statuses in which documents may change. */
export const DOCUMENT_STATUSES: readonly Status[] = ['draft', 'pending'];

/** The `author` a writer's documents get; only that author may write new versions or edit them. */
export const AUTHOR_OF_ROLE: Readonly<Partial<Record<Role, string>>> = { owner: 'asset_owner', admins: 'admins' };

/** Fields the registry writes itself: ignored when a request sends them. */
export const GENERATED_FIELDS: readonly string[] = ['id', 'datePublished', 'dateModified', 'author'];

/** Fields only a new version changes: a PATCH ignores them (a new file is a new version). */
export const FILE_FIELDS: readonly string[] = ['url', 'hash'];

/** Fields a new version does not inherit: it sends them again (or, for the date, gets a new one). */
export const RESENT_BY_NEW_VERSIONS: readonly string[] = ['title', 'format', 'url', 'hash', 'dateModified'];

/** Fields every version of a document shares with the first one. */
export const SHARED_BY_VERSIONS: readonly string[] = ['id', 'datePublished', 'author'];

/** `documentOf` when a document does not say. */
export const DEFAULT_DOCUMENT_OF = 'asset';

/**
 * How many versions (of all its documents together) an asset keeps. The record holds them all, and a record has
 * to stay well inside MongoDB's 16 MiB document limit.
 */
export const MAX_DOCUMENT_VERSIONS = 1000;

/**
 * An upload's title from the file name its form part was sent with, as the multipart parser read it (the
 * quoted-string unescaped, or `filename*` decoded; no percent-decoding; directory parts dropped): without control
 * characters, U+0000–U+001F and U+007F.
 */
export function uploadTitle(filename: string): string {
  return filename.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** The order a version's fields are kept and served in, whatever order a request sent them in. */
const FIELD_ORDER: readonly string[] = [
  'id',
  'title',
  'title_en',
  'title_ru',
  'description',
  'description_en',
  'description_ru',
  'format',
  'documentType',
  'documentOf',
  'url',
  'hash',
  'language',
  'relatedItem',
  'datePublished',
  'dateModified',
  'author',
];

/** `document` with its fields in FIELD_ORDER; keys outside it (refused by validation) follow in their own order. */
function inFieldOrder(document: JsonObject): JsonObject {
  const rank = (key: string) => {
    const index = FIELD_ORDER.indexOf(key);
    return index === -1 ? FIELD_ORDER.length : index;
  };
  const ordered: JsonObject = {};
  for (const key of Object.keys(document).sort((a, b) => rank(a) - rank(b))) {
    Object.defineProperty(ordered, key, { value: document[key], enumerable: true, writable: true, configurable: true });
  }
  return ordered;
}

export interface DocumentSet {
  latest: JsonObject[];
  history: JsonObject[];
}

/**
 * Whether `role` may change documents of an asset in `status` and, for an existing document, whether it is that
 * document's author. Permission comes before status, and both before authorship (decisions.md §9).
 */
export function documentWriteRefusal(role: Role, status: Status, document?: JsonObject): ApiError | undefined {
  if (!DOCUMENT_WRITERS.includes(role)) return ApiError.one(403, 'url', 'permission', 'Forbidden');
  if (!DOCUMENT_STATUSES.includes(status)) {
    return ApiError.one(403, 'body', 'data', `Can't update document in current (${status}) asset status`);
  }
  if (document !== undefined && authorOf(document) !== AUTHOR_OF_ROLE[role]) {
    return ApiError.one(403, 'url', 'role', 'Can update document only author');
  }
  return undefined;
}

/** A document without `author` counts as the owner's, as in the original. */
function authorOf(document: JsonObject): string {
  return typeof document.author === 'string' ? document.author : 'asset_owner';
}

export interface NewDocumentContext {
  id: string;
  author: string;
  /** The write's moment as served: `datePublished` and `dateModified`. */
  now: string;
}

/** A new document from the request's `data`: generated fields set, `documentOf` defaulted, `null` members dropped. */
export function buildNewDocument(data: JsonObject, ctx: NewDocumentContext): JsonObject {
  const sent = mergePatch({}, pickKeys(data, (key) => !GENERATED_FIELDS.includes(key)));
  return withDefaults({
    id: ctx.id,
    ...sent,
    datePublished: ctx.now,
    dateModified: ctx.now,
    author: ctx.author,
  });
}

/**
 * A new version of `previous` from a PUT's `data`: `id`, `datePublished` and `author` from the previous version,
 * a new `dateModified`, the sent fields, and the previous version's other fields unless they must be sent again.
 */
export function buildNextVersion(previous: JsonObject, data: JsonObject, now: string): JsonObject {
  const inherited = pickKeys(previous, (key) => !RESENT_BY_NEW_VERSIONS.includes(key) && !SHARED_BY_VERSIONS.includes(key));
  const sent = pickKeys(data, (key) => !GENERATED_FIELDS.includes(key));
  const shared = pickKeys(previous, (key) => SHARED_BY_VERSIONS.includes(key));
  return withDefaults({ ...mergePatch(inherited, sent), ...shared, dateModified: now });
}

/** The latest version after a PATCH's `data`: edited in place, its `url`, `hash`, dates and author untouched. */
export function applyDocumentPatch(current: JsonObject, data: JsonObject): JsonObject {
  const changes = pickKeys(data, (key) => !GENERATED_FIELDS.includes(key) && !FILE_FIELDS.includes(key));
  return inFieldOrder(mergePatch(current, changes));
}

/** `documentOf` defaulted to the asset, the fields in their order. */
function withDefaults(document: JsonObject): JsonObject {
  const documentOf = document.documentOf ?? null;
  return inFieldOrder(documentOf === null ? { ...document, documentOf: DEFAULT_DOCUMENT_OF } : document);
}

export function findLatest(set: DocumentSet, id: string): JsonObject | undefined {
  return set.latest.find((document) => document.id === id);
}

/** The older versions of document `id`, oldest first. */
export function previousVersions(set: DocumentSet, id: string): JsonObject[] {
  return set.history.filter((document) => document.id === id);
}

/** Refuses a write that would take the asset past MAX_DOCUMENT_VERSIONS. */
export function versionLimitRefusal(set: DocumentSet): ApiError | undefined {
  if (set.latest.length + set.history.length < MAX_DOCUMENT_VERSIONS) return undefined;
  return ApiError.one(403, 'body', 'data', `An asset keeps at most ${MAX_DOCUMENT_VERSIONS} document versions`);
}

export function withAddedDocument(set: DocumentSet, document: JsonObject): DocumentSet {
  return { latest: [...set.latest, document], history: set.history };
}

/** The new version becomes the latest (last in `latest`); the one it supersedes goes to the end of `history`. */
export function withNewVersion(set: DocumentSet, version: JsonObject): DocumentSet {
  const previous = findLatest(set, String(version.id));
  if (previous === undefined) throw new Error(`no document ${String(version.id)} to version`);
  return {
    latest: [...set.latest.filter((document) => document !== previous), version],
    history: [...set.history, previous],
  };
}

export function withPatchedDocument(set: DocumentSet, patched: JsonObject): DocumentSet {
  return { latest: set.latest.map((document) => (document.id === patched.id ? patched : document)), history: set.history };
}

/**
 * Every version of every document in the order they were written: by `dateModified`, which each version got
 * from its own write of the asset. `micros` reads a served date (see domain/dates.ts).
 */
export function allVersions(set: DocumentSet, micros: (date: string) => number): JsonObject[] {
  const written = (document: JsonObject) => micros(String(document.dateModified));
  return [...set.history, ...set.latest].sort((a, b) => written(a) - written(b));
}

/** The parts of a download URL `<base>/get/<key>?KeyID=<id>&Signature=<signature>`. */
export interface DownloadUrl {
  key: string;
  keyId: string;
  signature: string;
}

/**
 * Reads `url` as a download URL of the document service at `base` (`http://host:port/api/0.1/ds`, or an
 * external service's address): `<base>/get/<key>` with exactly the query parameters `KeyID` and `Signature`,
 * each once, and no fragment. Anything else is `undefined` (the original's `Can add document only from document
 * service.`).
 */
export function parseDownloadUrl(url: string, base: string): DownloadUrl | undefined {
  const prefix = `${base}/get/`;
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  const question = rest.indexOf('?');
  if (question <= 0) return undefined;
  const key = rest.slice(0, question);
  const query = rest.slice(question + 1);
  if (/[/#%\\]/.test(key) || query.includes('#')) return undefined;
  const params = new URLSearchParams(query);
  const names = [...params.keys()].sort();
  if (names.length !== 2 || names[0] !== 'KeyID' || names[1] !== 'Signature') return undefined;
  return { key, keyId: params.get('KeyID') ?? '', signature: params.get('Signature') ?? '' };
}

/**
 * The signature's bytes from its base64 text, or `undefined` when it is not base64. A `+` that arrived
 * unencoded reads as a space; a signature that was percent-encoded twice is decoded once more (the original
 * unquotes it too).
 */
export function signatureBytes(text: string): Buffer | undefined {
  let value = text.replace(/ /g, '+');
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  if (value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  return Buffer.from(value, 'base64');
}

/** What the document service signs for a file: its key, a zero byte, its MD5 in hex. */
export function signedMessage(key: string, md5Hex: string): string {
  return `${key}\0${md5Hex}`;
}

/** A file beyond the document service's limit (DS_MAX_BYTES): nothing of it is kept. */
export function fileTooLarge(maxBytes: number): ApiError {
  return ApiError.one(413, 'body', 'file', `The file is larger than the document service accepts (${maxBytes} bytes)`);
}

/** The hex digest of an `md5:<hex>` hash (what the signature covers). */
export function md5Hex(hash: string): string {
  return hash.slice(hash.indexOf(':') + 1);
}
