/**
 * Uploads to the document service and documents built from them. Multipart bodies are written here by hand
 * (boundary, part headers, the bytes) so that a test can stream a large file, pace it, or cut it off.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Client, Response } from './client.js';

export const UPLOAD = '/api/0.1/ds/upload';

export interface Part {
  name: string;
  /** Absent: a plain form field. Written between quotes as it is (escape a quote as `\\"` yourself). */
  filename?: string;
  /** Content-Disposition parameters written as they are after the name, instead of `filename` (`filename*=…`). */
  rawParameters?: string;
  /** The part's Content-Type header; absent: none sent. */
  contentType?: string;
  content: Buffer | AsyncIterable<Buffer>;
}

export interface MultipartBody {
  contentType: string;
  body: AsyncIterable<Buffer>;
}

/** A `multipart/form-data` body of `parts`, produced chunk by chunk as the parts' contents are. */
export function multipart(parts: Part[]): MultipartBody {
  const boundary = `----registry-test-${randomBytes(8).toString('hex')}`;
  async function* body(): AsyncGenerator<Buffer> {
    for (const part of parts) {
      const parameters =
        part.rawParameters ?? (part.filename === undefined ? undefined : `filename="${part.filename}"`);
      const disposition = `form-data; name="${part.name}"${parameters === undefined ? '' : `; ${parameters}`}`;
      const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`);
      if (Buffer.isBuffer(part.content)) yield part.content;
      else for await (const chunk of part.content) yield chunk;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: body() };
}

/** The whole body in memory, for small uploads sent with a Content-Length. */
export async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** POSTs a multipart form to the upload endpoint (sized, unless `chunked`). */
export async function sendForm(
  client: Client,
  parts: Part[],
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<Response> {
  const form = multipart(parts);
  const body = options.chunked ? form.body : await collect(form.body);
  return client.request('POST', UPLOAD, { body, headers: { 'content-type': form.contentType, ...options.headers } });
}

/** Uploads `content` as the part `file`; fails loudly unless 201. Returns the answer's `data`. */
export async function uploadFile(
  client: Client,
  content: Buffer = Buffer.from(`a document ${randomBytes(4).toString('hex')}`),
  filename = 'notice.pdf',
  contentType = 'application/pdf',
): Promise<{ url: string; hash: string; format: string; title: string }> {
  const res = await sendForm(client, [{ name: 'file', filename, contentType, content }]);
  if (res.status !== 201) throw new Error(`uploadFile: expected 201, got ${res.status}: ${res.text}`);
  return res.json.data;
}

export const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

/** `count` MiB of pseudo-random bytes, produced 1 MiB at a time (never held whole), with their MD5 at the end. */
export function generatedFile(mebibytes: number): { chunks: AsyncIterable<Buffer>; md5(): string; size: number } {
  const hash = createHash('md5');
  let digest: string | undefined;
  async function* chunks(): AsyncGenerator<Buffer> {
    const block = randomBytes(1024 * 1024);
    for (let i = 0; i < mebibytes; i++) {
      block.writeUInt32LE(i, 0);
      hash.update(block);
      yield Buffer.from(block);
    }
    digest = hash.digest('hex');
  }
  return {
    chunks: chunks(),
    size: mebibytes * 1024 * 1024,
    md5: () => {
      if (digest === undefined) throw new Error('the file has not been sent whole yet');
      return digest;
    },
  };
}
