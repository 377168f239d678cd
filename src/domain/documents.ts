/**
 * The documents of an asset (docs/decisions/0030-documents-inside-the-asset-record.md): `latest` is the served
 * `documents`, `history` the versions a PUT superseded. Each version's `dateModified` comes from the asset write
 * that made it, so one asset's versions carry distinct, increasing dates.
 */
import { ApiError } from './errors.js';
import type { JsonObject } from './json.js';
import { mergePatch } from './patch.js';
import { pickKeys, type Role, type Status } from './workflow.js';

const DOCUMENT_WRITERS: readonly Role[] = ['owner', 'admins'];

const DOCUMENT_STATUSES: readonly Status[] = ['draft', 'pending'];

/** Only that author may write new versions of a document or edit it. */
export const AUTHOR_OF_ROLE: Readonly<Partial<Record<Role, string>>> = { owner: 'asset_owner', admins: 'admins' };

/** Written by the registry: ignored when a request sends them. */
const GENERATED_FIELDS: readonly string[] = ['id', 'datePublished', 'dateModified', 'author'];

/** A PATCH ignores them: a new file is a new version. */
const FILE_FIELDS: readonly string[] = ['url', 'hash'];

const RESENT_BY_NEW_VERSIONS: readonly string[] = ['title', 'format', 'url', 'hash', 'dateModified'];

const SHARED_BY_VERSIONS: readonly string[] = ['id', 'datePublished', 'author'];

const DEFAULT_DOCUMENT_OF = 'asset';

/** Versions of all documents together: the record holds them all, well inside MongoDB's 16 MiB limit. */
export const MAX_DOCUMENT_VERSIONS = 1000;

/** The file name as the multipart parser read it (no percent-decoding), without control characters. */
export function uploadTitle(filename: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  return filename.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** The order a version's fields are kept and served in, whatever order a request sent. */
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

/** Permission comes before status, and both before authorship, as in the original. */
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

export function buildNewDocument(data: JsonObject, ctx: NewDocumentContext): JsonObject {
  const sent = mergePatch(
    {},
    pickKeys(data, (key) => !GENERATED_FIELDS.includes(key)),
  );
  return withDefaults({
    id: ctx.id,
    ...sent,
    datePublished: ctx.now,
    dateModified: ctx.now,
    author: ctx.author,
  });
}

export function buildNextVersion(previous: JsonObject, data: JsonObject, now: string): JsonObject {
  const inherited = pickKeys(
    previous,
    (key) => !RESENT_BY_NEW_VERSIONS.includes(key) && !SHARED_BY_VERSIONS.includes(key),
  );
  const sent = pickKeys(data, (key) => !GENERATED_FIELDS.includes(key));
  const shared = pickKeys(previous, (key) => SHARED_BY_VERSIONS.includes(key));
  return withDefaults({ ...mergePatch(inherited, sent), ...shared, dateModified: now });
}

export function applyDocumentPatch(current: JsonObject, data: JsonObject): JsonObject {
  const changes = pickKeys(data, (key) => !GENERATED_FIELDS.includes(key) && !FILE_FIELDS.includes(key));
  return inFieldOrder(mergePatch(current, changes));
}

function withDefaults(document: JsonObject): JsonObject {
  const documentOf = document.documentOf ?? null;
  return inFieldOrder(documentOf === null ? { ...document, documentOf: DEFAULT_DOCUMENT_OF } : document);
}

export function findLatest(set: DocumentSet, id: string): JsonObject | undefined {
  return set.latest.find((document) => document.id === id);
}

export function previousVersions(set: DocumentSet, id: string): JsonObject[] {
  return set.history.filter((document) => document.id === id);
}

export function versionLimitRefusal(set: DocumentSet): ApiError | undefined {
  if (set.latest.length + set.history.length < MAX_DOCUMENT_VERSIONS) return undefined;
  return ApiError.one(403, 'body', 'data', `An asset keeps at most ${MAX_DOCUMENT_VERSIONS} document versions`);
}

export function withAddedDocument(set: DocumentSet, document: JsonObject): DocumentSet {
  return { latest: [...set.latest, document], history: set.history };
}

export function withNewVersion(set: DocumentSet, version: JsonObject): DocumentSet {
  const previous = findLatest(set, String(version.id));
  if (previous === undefined) throw new Error(`no document ${String(version.id)} to version`);
  return {
    latest: [...set.latest.filter((document) => document !== previous), version],
    history: [...set.history, previous],
  };
}

export function withPatchedDocument(set: DocumentSet, patched: JsonObject): DocumentSet {
  return {
    latest: set.latest.map((document) => (document.id === patched.id ? patched : document)),
    history: set.history,
  };
}

/** Every version in the order written, which is `dateModified`'s (see the module's note). */
export function allVersions(set: DocumentSet, micros: (date: string) => number): JsonObject[] {
  const written = (document: JsonObject) => micros(String(document.dateModified));
  return [...set.history, ...set.latest].sort((a, b) => written(a) - written(b));
}

/** `<base>/get/<key>?KeyID=<id>&Signature=<signature>` (docs/decisions/0032-signed-document-urls.md). */
export interface DownloadUrl {
  key: string;
  keyId: string;
  signature: string;
}

/** Exactly `KeyID` and `Signature`, each once, and no fragment; anything else is `undefined`. */
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
 * A `+` that arrived unencoded reads as a space; a signature percent-encoded twice is decoded once more, as the
 * original unquotes it too.
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

export function signedMessage(key: string, md5Hex: string): string {
  return `${key}\0${md5Hex}`;
}

export function fileTooLarge(maxBytes: number): ApiError {
  return ApiError.one(413, 'body', 'file', `The file is larger than the document service accepts (${maxBytes} bytes)`);
}

export function md5Hex(hash: string): string {
  return hash.slice(hash.indexOf(':') + 1);
}
