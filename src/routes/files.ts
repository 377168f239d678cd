/** The built-in document service's operations: upload (multipart, streamed) and signed download. */
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ApiError } from '../domain/errors.js';
import type { FileService, Upload } from '../services/files.js';
import type { OperationHandlers, Reply } from './types.js';

/**
 * A young-generation collection. Every chunk of a file, uploaded or downloaded, is a fresh buffer that dies as
 * soon as it is written, but V8 counts such buffers only against an external-memory allowance of 64 MiB before
 * it collects them: without help, a 20 MiB upload would leave 20 MiB of dead chunks resident. A scavenge of the young
 * generation is cheap (well under a millisecond here) and frees them. `gc` is exposed at run time, for this
 * module only, so that no start command needs a flag.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
const collectYoung = (): void => gc({ type: 'minor' });

/** How many bytes of a file pass between two young-generation collections. */
const COLLECT_EVERY_BYTES = 1024 * 1024;

/** The chunks of `source`, with a young-generation collection every COLLECT_EVERY_BYTES. */
async function* collectingAsItGoes(source: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
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

/** The part's bytes as they arrive; a form that breaks off or is malformed is the client's fault (400), not a 500. */
async function* partBytes(file: Readable): AsyncGenerator<Uint8Array> {
  try {
    yield* collectingAsItGoes(file);
  } catch (error) {
    throw unreadableForm(error);
  }
}

function unreadableForm(error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return ApiError.one(400, 'body', 'file', `The multipart form could not be read: ${reason}`);
}

/** The first file part of the form (@fastify/multipart; the limits are set where it is registered). */
async function firstFile(request: FastifyRequest): Promise<MultipartFile | undefined> {
  try {
    return await request.file();
  } catch (error) {
    throw unreadableForm(error);
  }
}

/**
 * After a refusal, the rest of the body is read and dropped, so that the answer reaches the client (closing a
 * socket with unread data resets it) and the connection can serve the next request. The form's size is bounded
 * by the parser's limits.
 */
function discardRest(request: FastifyRequest, part: MultipartFile | undefined): void {
  if (part !== undefined && !part.file.destroyed) part.file.resume();
  else request.raw.resume();
}

/** `attachment` with the file name: plain ASCII in `filename`, the exact name in UTF-8 in `filename*` (RFC 6266). */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export function fileHandlers(files: FileService): Pick<OperationHandlers, 'uploadFile' | 'downloadFile'> {
  return {
    async uploadFile(request, reply) {
      const part = await firstFile(request);
      // The part named `file` with a file name is the upload; any other form is answered 404, as the original did.
      const upload: Upload | undefined =
        part?.fieldname === 'file' ? { filename: part.filename, contentType: part.mimetype, content: partBytes(part.file) } : undefined;
      let data: Reply<'uploadFile', 201>['data'];
      try {
        data = await files.upload(request.principal, upload, request.origin);
      } catch (error) {
        discardRest(request, part);
        throw error;
      }
      return reply.code(201).header('location', data.url).send({ data } satisfies Reply<'uploadFile', 201>);
    },

    async downloadFile(request, reply) {
      const { KeyID: keyId, Signature: signature } = request.query;
      const { info, open } = await files.download(request.params.key, keyId, signature);
      // HEAD answers the same headers without reading the file (Fastify drops the body of a HEAD reply).
      const body = request.method === 'HEAD' ? Readable.from([]) : Readable.from(collectingAsItGoes(open()), { objectMode: false });
      return reply
        .type(info.contentType)
        .header('content-length', info.size)
        .header('content-disposition', contentDisposition(info.filename))
        // Whatever the type it was uploaded with (HTML, SVG, a script): never run, nor loaded by another site.
        .header('content-security-policy', 'sandbox')
        .header('cross-origin-resource-policy', 'same-origin')
        .send(body);
    },
  };
}
