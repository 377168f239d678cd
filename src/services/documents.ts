/**
 * The document operations (docs/decisions/0030-documents-inside-the-asset-record.md). A document lives in its
 * asset's record, so every change is one compare-and-set write of the record, retried as an asset PATCH is. Checks:
 * the asset and the document (404), permission, status and authorship (403), the fields (422), the URL (403, 422).
 */
import type { components } from '../contract/generated/openapi.js';
import { type ApiError, refusals } from '../domain/errors.js';
import { isJsonObject, type JsonObject } from '../domain/json.js';
import { formatDate, nowMicros, parseDateToMicros } from '../domain/dates.js';
import { newId } from '../domain/ids.js';
import { sameContent, stampWrite } from '../domain/asset.js';
import {
  allVersions,
  AUTHOR_OF_ROLE,
  applyDocumentPatch,
  buildNewDocument,
  buildNextVersion,
  documentWriteRefusal,
  findLatest,
  previousVersions,
  versionLimitRefusal,
  withAddedDocument,
  withNewVersion,
  withPatchedDocument,
  type DocumentSet,
} from '../domain/documents.js';
import type { Role, Status } from '../domain/workflow.js';
import { checkDocument, checkDocumentInput } from '../domain/validation.js';
import type { ErrorEntry } from '../domain/errors.js';
import type { AssetRecord, AssetStore } from '../store/types.js';
import { authorOf, roleFor, type Caller } from './assets.js';
import type { FileService } from './files.js';
import { LOST_RACE, recordDraft, recordWrite, requestData, retryLostRaces } from './records.js';
import { servedDocument, servedDocumentWithVersions } from './served.js';

type Document = components['schemas']['Document'];
type DocumentWithVersions = components['schemas']['DocumentWithVersions'];

export interface DocumentSettings {
  timeZone: string;
}

function documentsOf(record: AssetRecord): DocumentSet {
  const latest = record.asset.documents;
  return {
    latest: Array.isArray(latest) ? latest.filter(isJsonObject) : [],
    history: record.documentHistory,
  };
}

function rejectInvalid(errors: ErrorEntry[]): void {
  if (errors.length > 0) throw refusals.invalid(errors);
}

function refuse(refusal: ApiError | undefined): void {
  if (refusal !== undefined) throw refusal;
}

/** What one attempt decided: `build` gets the write's moment and answers the version written. */
interface Change {
  build(now: string): { documents: DocumentSet; answer: JsonObject };
}

export class DocumentService {
  constructor(
    private readonly store: AssetStore,
    private readonly settings: DocumentSettings,
    private readonly urls: Pick<FileService, 'checkDocumentUrl'>,
  ) {}

  private async record(assetId: string): Promise<AssetRecord> {
    const record = await this.store.get(assetId);
    if (record === undefined) throw refusals.notFound('asset_id');
    return record;
  }

  private micros = (date: string): number => parseDateToMicros(date, this.settings.timeZone) ?? 0;

  private now(): string {
    return formatDate(nowMicros(), this.settings.timeZone);
  }

  /** The latest version of each document, or with `all` every version in the order written. */
  async list(assetId: string, all: boolean): Promise<Document[]> {
    const documents = documentsOf(await this.record(assetId));
    return (all ? allVersions(documents, this.micros) : documents.latest).map(servedDocument);
  }

  /** The latest version, with `previousVersions` (oldest first) once there are any. */
  async read(assetId: string, documentId: string): Promise<DocumentWithVersions> {
    const documents = documentsOf(await this.record(assetId));
    const latest = findLatest(documents, documentId);
    if (latest === undefined) throw refusals.notFound('document_id');
    const previous = previousVersions(documents, documentId);
    return servedDocumentWithVersions(previous.length === 0 ? latest : { ...latest, previousVersions: previous });
  }

  /** Attaches a new document; `origin` is where the request came in (the document service's own URLs are there). */
  async create(assetId: string, caller: Caller, body: unknown, origin: string): Promise<Document> {
    const data = requestData(body);
    const inputErrors = checkDocumentInput(data);
    const id = newId();
    return this.write(assetId, caller, undefined, (record, role) => {
      const documents = documentsOf(record);
      refuse(versionLimitRefusal(documents));
      rejectInvalid(inputErrors);
      const author = AUTHOR_OF_ROLE[role] as string;
      const candidate = buildNewDocument(data, { id, author, now: this.now() });
      rejectInvalid(checkDocument(candidate));
      this.urls.checkDocumentUrl(String(candidate.url), String(candidate.hash), origin);
      return {
        build: (now) => {
          const added = buildNewDocument(data, { id, author, now });
          return { documents: withAddedDocument(documents, added), answer: added };
        },
      };
    });
  }

  /** A new version of a document: resends title, format, url and hash; keeps the rest unless sent. */
  async replace(assetId: string, documentId: string, caller: Caller, body: unknown, origin: string): Promise<Document> {
    const data = requestData(body);
    const inputErrors = checkDocumentInput(data);
    return this.write(assetId, caller, documentId, (record, _role, current) => {
      const documents = documentsOf(record);
      refuse(versionLimitRefusal(documents));
      rejectInvalid(inputErrors);
      const candidate = buildNextVersion(current as JsonObject, data, this.now());
      rejectInvalid(checkDocument(candidate));
      this.urls.checkDocumentUrl(String(candidate.url), String(candidate.hash), origin);
      return {
        build: (now) => {
          const version = buildNextVersion(current as JsonObject, data, now);
          return { documents: withNewVersion(documents, version), answer: version };
        },
      };
    });
  }

  /** Edits the latest version's description in place; no write when nothing changes. */
  async patch(assetId: string, documentId: string, caller: Caller, body: unknown): Promise<Document> {
    const data = requestData(body);
    const inputErrors = checkDocumentInput(data);
    return this.write(assetId, caller, documentId, (record, _role, current) => {
      rejectInvalid(inputErrors);
      const patched = applyDocumentPatch(current as JsonObject, data);
      rejectInvalid(checkDocument(patched));
      if (sameContent(patched, current as JsonObject)) return servedDocument(current as JsonObject);
      const documents = withPatchedDocument(documentsOf(record), patched);
      return { build: () => ({ documents, answer: patched }) };
    });
  }

  /** One write, retried on a lost race: 404, 403, then `decide` answers without a write or says how to build it. */
  private async write(
    assetId: string,
    caller: Caller,
    documentId: string | undefined,
    decide: (record: AssetRecord, role: Role, current: JsonObject | undefined) => Change | Document,
  ): Promise<Document> {
    return retryLostRaces(async () => {
      const record = await this.record(assetId);
      const current = documentId === undefined ? undefined : findLatest(documentsOf(record), documentId);
      if (documentId !== undefined && current === undefined) throw refusals.notFound('document_id');
      const role = roleFor(caller, record);
      refuse(documentWriteRefusal(role, record.asset.status as Status, current));
      const decision = decide(record, role, current);
      if (!('build' in decision)) return decision;
      const author = authorOf(caller);

      let answer: JsonObject | undefined;
      const saved = await this.store.update(record.id, record.rev, (stamp) => {
        const now = formatDate(stamp.now, this.settings.timeZone);
        const change = decision.build(now);
        answer = change.answer;
        const asset = stampWrite({ ...record.asset, documents: change.documents.latest }, now, false);
        return recordWrite(
          record.asset,
          recordDraft({ ...record, documentHistory: change.documents.history }, asset, stamp.now),
          author,
        );
      });
      return saved === LOST_RACE || answer === undefined ? LOST_RACE : servedDocument(answer);
    });
  }
}
