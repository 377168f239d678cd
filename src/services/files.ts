/** The built-in document service (docs/decisions/0031-built-in-document-service.md). */
import type { Readable } from 'node:stream';
import type { components } from '../contract/generated/openapi.js';
import type { Principal } from '../domain/callers.js';
import { ApiError, refusals } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import {
  fileTooLarge,
  md5Hex,
  uploadTitle,
  parseDownloadUrl,
  signatureBytes,
  signedMessage,
  type DownloadUrl,
} from '../domain/documents.js';
import { FileTooLargeError, type FileInfo, type FileStore } from '../store/files.js';
import { Keyring, signText, type SigningKey } from './signing.js';

type UploadedFile = components['schemas']['UploadedFile'];

export interface FileServiceSettings {
  /** The largest file stored, in bytes (DS_MAX_BYTES). */
  maxBytes: number;
  /** The path the API is served under (`/api/0.1`): the service is `<origin><apiPrefix>/ds`. */
  apiPrefix: string;
  signingKey: SigningKey;
  /** An external document service whose URLs documents may carry too (DS_DOWNLOAD_URL, DS_PUBLIC_KEYS). */
  external: { downloadUrl: string; publicKeys: readonly string[] } | undefined;
}

/** One uploaded part: its file name, its content type as sent, and its bytes as they arrive. */
export interface Upload {
  filename: string;
  contentType: string;
  content: AsyncIterable<Uint8Array>;
}

/** The original's `format` pattern; a part with another content type is stored as bytes of no known type. */
const MEDIA_TYPE = /^[-\w]+\/[-.\w+]+$/;
const UNKNOWN_TYPE = 'application/octet-stream';

function formatOf(contentType: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE.test(type) ? type : UNKNOWN_TYPE;
}

const notFoundFile = (): ApiError => ApiError.one(404, 'url', 'key', 'Not Found');
const refusedDownload = (name: 'KeyID' | 'Signature', description: string): ApiError =>
  ApiError.one(403, 'querystring', name, description);
const notFromService = (): ApiError => ApiError.one(403, 'body', 'url', 'Can add document only from document service.');
const badUrl = (description: string): ApiError => ApiError.one(422, 'body', 'url', description);

export class FileService {
  private readonly ownKeys: Keyring;
  private readonly externalKeys: Keyring;

  constructor(
    private readonly files: FileStore,
    private readonly settings: FileServiceSettings,
  ) {
    this.ownKeys = new Keyring([settings.signingKey.publicKeyHex]);
    this.externalKeys = new Keyring(settings.external?.publicKeys ?? []);
  }

  /** For a request whose origin (PUBLIC_URL, or the one it came in by) is `origin`. */
  private base(origin: string): string {
    return `${origin}${this.settings.apiPrefix}/ds`;
  }

  private downloadUrl(origin: string, info: FileInfo): string {
    const signature = signText(this.settings.signingKey, signedMessage(info.key, info.md5));
    const query = new URLSearchParams({ KeyID: this.settings.signingKey.keyId, Signature: signature });
    return `${this.base(origin)}/get/${info.key}?${query.toString()}`;
  }

  /** `upload` is undefined when no part `file` had a file name. Beyond `maxBytes`: 413, and nothing is kept. */
  async upload(principal: Principal | undefined, upload: Upload | undefined, origin: string): Promise<UploadedFile> {
    if (principal === undefined) throw refusals.unauthorized();
    if (principal.role === 'concierge') throw refusals.forbidden();
    if (upload === undefined) throw ApiError.one(404, 'body', 'file', 'Not Found');
    const format = formatOf(upload.contentType);
    const title = uploadTitle(upload.filename);
    let info: FileInfo;
    try {
      info = await this.files.put(
        { key: newId(), contentType: format, filename: title, maxBytes: this.settings.maxBytes },
        upload.content,
      );
    } catch (error) {
      if (error instanceof FileTooLargeError) throw fileTooLarge(this.settings.maxBytes);
      throw error;
    }
    return { url: this.downloadUrl(origin, info), hash: `md5:${info.md5}`, format, title };
  }

  /** 404 for an unknown key, then 403 for a missing or unknown `KeyID`, a missing, malformed or wrong `Signature`. */
  async download(
    key: string,
    keyId: string | undefined,
    signature: string | undefined,
  ): Promise<{ info: FileInfo; open: () => Readable }> {
    const info = await this.files.stat(key);
    if (info === undefined) throw notFoundFile();
    if (keyId === undefined || !this.ownKeys.has(keyId)) throw refusedDownload('KeyID', 'Key Id does not exist');
    if (signature === undefined || signature === '') throw refusedDownload('Signature', 'Not Found');
    const bytes = signatureBytes(signature);
    if (bytes === undefined) throw refusedDownload('Signature', 'Signature invalid');
    if (!this.ownKeys.verifies(keyId, signedMessage(key, info.md5), bytes)) {
      throw refusedDownload('Signature', 'Signature does not match');
    }
    return { info, open: () => this.files.read(key) };
  }

  /** Only signed download URLs of this service or the external one, with the original's errors (see signing.ts). */
  checkDocumentUrl(url: string, hash: string, origin: string): void {
    const own = parseDownloadUrl(url, this.base(origin));
    const external =
      own === undefined && this.settings.external
        ? parseDownloadUrl(url, this.settings.external.downloadUrl)
        : undefined;
    const parsed: DownloadUrl | undefined = own ?? external;
    if (parsed === undefined) throw notFromService();
    const keys = own !== undefined ? this.ownKeys : this.externalKeys;
    if (!keys.has(parsed.keyId)) throw badUrl('Document url expired.');
    const signature = signatureBytes(parsed.signature);
    if (signature === undefined) throw badUrl('Document url signature invalid.');
    if (!keys.verifies(parsed.keyId, signedMessage(parsed.key, md5Hex(hash)), signature))
      throw badUrl('Document url invalid.');
  }
}
