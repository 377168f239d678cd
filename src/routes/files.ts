/** The built-in document service (docs/decisions/0031-built-in-document-service.md): streamed upload, download. */
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ApiError } from '../domain/errors.js';
import type { FileService, Upload } from '../services/files.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';

const COLLECT_EVERY_BYTES = 1024 * 1024;

/** Each chunk dies as soon as it is written, but V8 would leave the dead chunks resident. */
async function* collectingAsItGoes(
  source: AsyncIterable<unknown>,
  collectYoung: () => void,
): AsyncGenerator<Uint8Array> {
  let sinceCollection = 0;
  for await (const chunk of source) {
    yield chunk as Uint8Array;
    sinceCollection += (chunk as Uint8Array).length;
    if (sinceCollection >= COLLECT_EVERY_BYTES) {
      sinceCollection = 0;
      collectYoung();
    }
  }
}

/** A form that breaks off or is malformed is the client's fault (400), not a 500. */
async function* partBytes(file: Readable, collectYoung: () => void): AsyncGenerator<Uint8Array> {
  try {
    yield* collectingAsItGoes(file, collectYoung);
  } catch (error) {
    throw unreadableForm(error);
  }
}

function unreadableForm(error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return ApiError.one(400, 'body', 'file', `The multipart form could not be read: ${reason}`);
}

/** The parser's limits are set where it is registered (app.ts). */
async function firstFile(request: FastifyRequest): Promise<MultipartFile | undefined> {
  try {
    return await request.file();
  } catch (error) {
    throw unreadableForm(error);
  }
}

/** After a refusal: closing a socket with unread data resets it, and the answer would not reach the client. */
function discardRest(request: FastifyRequest, part: MultipartFile | undefined): void {
  if (part !== undefined && !part.file.destroyed) part.file.resume();
  else request.raw.resume();
}

/** Plain ASCII in `filename`, the exact name in `filename*` (docs/decisions/0046-downloads-as-sandboxed-attachments.md). */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export function fileHandlers(
  files: FileService,
  collectYoung: () => void,
): Pick<OperationHandlers, 'uploadFile' | 'downloadFile'> {
  return {
    async uploadFile(request, reply) {
      const part = await firstFile(request);
      // The part named `file` with a file name is the upload; any other form is answered 404, as the original did.
      const upload: Upload | undefined =
        part?.fieldname === 'file'
          ? { filename: part.filename, contentType: part.mimetype, content: partBytes(part.file, collectYoung) }
          : undefined;
      let data: Reply<'uploadFile', 201>['data'];
      try {
        data = await files.upload(request.principal, upload, request.origin);
      } catch (error) {
        discardRest(request, part);
        throw error;
      }
      return reply
        .code(201)
        .header('location', data.url)
        .send({ data } satisfies Reply<'uploadFile', 201>);
    },

    async downloadFile(request, reply) {
      const { KeyID: keyId, Signature: signature } = request.query;
      const { info, open } = await files.download(request.params.key, keyId, signature);
      // HEAD answers the same headers without reading the file (Fastify drops the body of a HEAD reply).
      const body =
        request.method === 'HEAD'
          ? Readable.from([])
          : Readable.from(collectingAsItGoes(open(), collectYoung), { objectMode: false });
      return (
        reply
          .type(info.contentType)
          .header('content-length', info.size)
          .header('content-disposition', contentDisposition(info.filename))
          // Whatever the type it was uploaded with (HTML, SVG, a script): never run, nor loaded by another site.
          .header('content-security-policy', 'sandbox')
          .header('cross-origin-resource-policy', 'same-origin')
          .send(body)
      );
    },
  };
}
