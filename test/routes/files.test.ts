/**
 * The built-in document service (docs/decisions/0031-built-in-document-service.md,
 * docs/decisions/0032-signed-document-urls.md) on a real store: uploads (who, what is stored, the size limit,
 * malformed forms) and signed downloads (404 for an unknown key, 403 for every part of a signature that does not
 * hold).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseName } from '../../src/store/mongo/index.js';
import { KEYS, useServer, type TestServer } from '../helpers/server.js';
import { expectOneError } from '../helpers/expect.js';
import { md5, multipart, sendForm, UPLOAD, uploadFile } from '../helpers/uploads.js';

const MAX_BYTES = 100_000;

const server = useServer({ DS_MAX_BYTES: String(MAX_BYTES) });
const { broker, admin, concierge, anonymous: reader } = server;

/** The path and query of a download URL (the tests talk to the server's own address). */
const local = (url: string): string => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** How many complete files the store holds: the folder's published files, or GridFS entries with their MD5. */
async function storedFiles(target: TestServer): Promise<number> {
  if (target.mongodbUri === undefined) {
    const dir = join(target.dataDir, 'files');
    let count = 0;
    for (const shard of readdirSync(dir))
      count += readdirSync(join(dir, shard)).filter((name) => /^[0-9a-f]{32}$/.test(name)).length;
    return count;
  }
  const client = new MongoClient(target.mongodbUri);
  try {
    return await client
      .db(databaseName(target.mongodbUri))
      .collection('files.files')
      .countDocuments({ 'metadata.md5': { $exists: true } });
  } finally {
    await client.close();
  }
}

describe('upload', () => {
  it('stores the part `file` and answers 201 with url, hash, format and title; Location is the url', async () => {
    const content = Buffer.from('%PDF-1.7 a notice of sale');
    const res = await sendForm(broker, [
      { name: 'file', filename: 'Повідомлення №1.pdf', contentType: 'application/pdf', content },
    ]);
    expect(res.status, res.text).toBe(201);
    const data = res.json.data;
    expect(data).toEqual({
      url: expect.stringMatching(
        new RegExp(`^${server.url}/api/0\\.1/ds/get/[0-9a-f]{32}\\?KeyID=[0-9a-f]{8}&Signature=[^&]+$`),
      ),
      hash: `md5:${md5(content)}`,
      format: 'application/pdf',
      title: 'Повідомлення №1.pdf',
    });
    expect(res.headers.location).toBe(data.url);
    const file = await reader.get(local(data.url));
    expect(file.status).toBe(200);
    expect(file.raw.equals(content)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-length']).toBe(String(content.length));
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="____________ _1.pdf"; filename*=UTF-8''${encodeURIComponent('Повідомлення №1.pdf')}`,
    );
  });

  it('keeps binary bytes exactly, and admins may upload too', async () => {
    const content = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const data = await uploadFile(admin, content, 'bytes.bin', 'application/octet-stream');
    expect(data.hash).toBe(`md5:${md5(content)}`);
    expect((await reader.get(local(data.url))).raw.equals(content)).toBe(true);
  });

  it('takes the media type of the part without parameters: text/plain when it has none, octet-stream when unusable', async () => {
    expect((await uploadFile(broker, Buffer.from('x'), 'a.txt', 'Text/Plain; charset=utf-8')).format).toBe(
      'text/plain',
    );
    expect((await uploadFile(broker, Buffer.from('x'), 'a.bin', 'not a type')).format).toBe('application/octet-stream');
    // RFC 7578: a part without Content-Type is text/plain.
    const res = await sendForm(broker, [{ name: 'file', filename: 'plain', content: Buffer.from('x') }]);
    expect(res.json.data.format).toBe('text/plain');
  });

  it('ignores fields beside the file and a second file', async () => {
    const first = Buffer.from('first file');
    const res = await sendForm(broker, [
      { name: 'note', content: Buffer.from('a field') },
      { name: 'file', filename: 'first.txt', contentType: 'text/plain', content: first },
      { name: 'file', filename: 'second.txt', contentType: 'text/plain', content: Buffer.from('second file') },
      { name: 'after', content: Buffer.from('another field') },
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ title: 'first.txt', hash: `md5:${md5(first)}` });
  });

  it('refuses the concierge (403), a request without a key (401) and a JSON body (415)', async () => {
    const part = [{ name: 'file', filename: 'a.txt', content: Buffer.from('x') }];
    expectOneError(await sendForm(concierge, part), 403, 'url', 'permission', 'Forbidden');
    const anonymous = await sendForm(reader, part);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="registry"');
    expectOneError(
      await broker.post(UPLOAD, { data: {} }),
      415,
      'header',
      'Content-Type',
      "Content-Type header should be one of ['multipart/form-data']",
    );
  });

  it('answers 404 body/file when there is no part `file` with a file name, as the original did', async () => {
    expectOneError(
      await sendForm(broker, [{ name: 'file', content: Buffer.from('a field, not a file') }]),
      404,
      'body',
      'file',
      'Not Found',
    );
    expectOneError(
      await sendForm(broker, [{ name: 'document', filename: 'a.txt', content: Buffer.from('x') }]),
      404,
      'body',
      'file',
      'Not Found',
    );
    expectOneError(await sendForm(broker, []), 404, 'body', 'file', 'Not Found');
  });

  it('answers 400 for a form that cannot be read', async () => {
    const noBoundary = await broker.request('POST', UPLOAD, {
      body: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status, noBoundary.text).toBe(400);
    expect(noBoundary.json.errors[0]).toMatchObject({ location: 'body', name: 'file' });
    const cut = await broker.request('POST', UPLOAD, {
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf a fi',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(cut.status, cut.text).toBe(400);
  });
});

describe('the size limit (DS_MAX_BYTES)', () => {
  it('takes a file of exactly the limit', async () => {
    const content = Buffer.alloc(MAX_BYTES, 7);
    const data = await uploadFile(broker, content, 'exact.bin');
    expect((await reader.get(local(data.url))).raw.equals(content)).toBe(true);
  });

  it.each([
    ['sized, one byte over', MAX_BYTES + 1, false],
    ['sized, far over', 30 * MAX_BYTES, false],
    ['chunked, one byte over', MAX_BYTES + 1, true],
    ['chunked, far over', 30 * MAX_BYTES, true],
  ])('refuses a file %s with 413 and keeps nothing; the connection serves on', async (_case, size, chunked) => {
    const before = await storedFiles(server);
    // Real HTTP: the same connection must serve on after a refused upload.
    const client = server.client({ key: KEYS.broker, via: 'http' });
    const res = await sendForm(client, [{ name: 'file', filename: 'big.bin', content: Buffer.alloc(size, 1) }], {
      chunked,
    });
    expectOneError(
      res,
      413,
      'body',
      'file',
      `The file is larger than the document service accepts (${MAX_BYTES} bytes)`,
    );
    expect(await storedFiles(server)).toBe(before);
    expect((await uploadFile(client)).url).toContain('/ds/get/');
  });
});

describe('download', () => {
  let url: URL;
  let content: Buffer;

  beforeAll(async () => {
    content = Buffer.from('the file to download');
    url = new URL((await uploadFile(broker, content, 'dl.txt', 'text/plain')).url);
  });

  const key = () => url.pathname.split('/').at(-1)!;
  const withQuery = (query: string, path = url.pathname) => `${path}${query === '' ? '' : `?${query}`}`;
  const param = (name: string) => url.searchParams.get(name)!;
  const signature = () => encodeURIComponent(param('Signature'));

  it('serves the bytes to anyone holding the signed URL; HEAD answers the headers', async () => {
    const res = await reader.get(local(url.toString()));
    expect(res.status).toBe(200);
    expect(res.raw.equals(content)).toBe(true);
    const head = await reader.request('HEAD', local(url.toString()));
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(content.length));
    expect(head.raw.length).toBe(0);
  });

  it('answers 404 url/key for an unknown or malformed key, whatever the signature', async () => {
    const other = '0'.repeat(32);
    expectOneError(
      await reader.get(withQuery(url.search.slice(1), `/api/0.1/ds/get/${other}`)),
      404,
      'url',
      'key',
      'Not Found',
    );
    expectOneError(await reader.get(withQuery('', `/api/0.1/ds/get/${other}`)), 404, 'url', 'key', 'Not Found');
    expectOneError(await reader.get(withQuery('', '/api/0.1/ds/get/not-a-key')), 404, 'url', 'key', 'Not Found');
  });

  it.each<[string, () => string, string, string]>([
    ['no KeyID', () => `Signature=${signature()}`, 'KeyID', 'Key Id does not exist'],
    ['an unknown KeyID', () => `KeyID=00000000&Signature=${signature()}`, 'KeyID', 'Key Id does not exist'],
    ['no Signature', () => `KeyID=${param('KeyID')}`, 'Signature', 'Not Found'],
    ['an empty Signature', () => `KeyID=${param('KeyID')}&Signature=`, 'Signature', 'Not Found'],
    [
      'a Signature that is not base64',
      () => `KeyID=${param('KeyID')}&Signature=%2A%2A%2A`,
      'Signature',
      'Signature invalid',
    ],
    [
      'a tampered Signature',
      () => `KeyID=${param('KeyID')}&Signature=${encodeURIComponent(tamper(param('Signature')))}`,
      'Signature',
      'Signature does not match',
    ],
    ['a Signature cut short', () => `KeyID=${param('KeyID')}&Signature=AAAA`, 'Signature', 'Signature does not match'],
  ])('refuses %s with 403 and the original message', async (_case, query, name, description) => {
    expectOneError(await reader.get(withQuery(query())), 403, 'querystring', name, description);
  });

  it("refuses another file's signature (403), and this signature on another file", async () => {
    const other = new URL((await uploadFile(broker, Buffer.from('another file'))).url);
    const otherKey = other.pathname.split('/').at(-1)!;
    expectOneError(
      await reader.get(`/api/0.1/ds/get/${otherKey}${url.search}`),
      403,
      'querystring',
      'Signature',
      'Signature does not match',
    );
    expectOneError(
      await reader.get(`/api/0.1/ds/get/${key()}${other.search}`),
      403,
      'querystring',
      'Signature',
      'Signature does not match',
    );
  });

  it('names the 405 methods of both paths', async () => {
    const put = await broker.request('PUT', local(url.toString()));
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    const get = await reader.get(UPLOAD);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });
});

/** One character of a base64 text changed to another base64 character. */
function tamper(text: string): string {
  const i = 10;
  return text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
}

// docs/decisions/0046-downloads-as-sandboxed-attachments.md
describe('file names (record 0046)', () => {
  it.each<[string, string, string]>([
    ['a quote, escaped in the quoted-string', 'filename="it\\"s here.txt"', 'it"s here.txt'],
    ['a backslash-escaped quote at both ends', 'filename="\\"quoted\\".txt"', '"quoted".txt'],
    ['percent signs, never decoded', 'filename="a%22b%2Fc.txt"', 'a%22b%2Fc.txt'],
    ['filename* in UTF-8', "filename*=UTF-8''%D0%B7%D0%B0%D1%8F%D0%B2%D0%B0%20%E2%84%961.pdf", 'заява №1.pdf'],
    ['raw UTF-8', 'filename="заява.pdf"', 'заява.pdf'],
    ['a Unix path', 'filename="../../etc/passwd"', 'passwd'],
    ['a Windows path', 'filename="C:\\\\Users\\\\x\\\\report.pdf"', 'report.pdf'],
    ['control characters and DEL', 'filename="a\u0001b\u001fc\u007fd\te.txt"', 'abcde.txt'],
    ['a NUL', 'filename="a\u0000b.txt"', 'ab.txt'],
  ])('%s: %s → %j', async (_what, parameters, title) => {
    const content = Buffer.from(`a file named ${title}`);
    const res = await sendForm(broker, [
      { name: 'file', rawParameters: parameters, contentType: 'text/plain', content },
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.title).toBe(title);
    const file = await reader.get(local(res.json.data.url));
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
    const exact = /filename\*=UTF-8''(.*)$/.exec(file.headers['content-disposition']!)![1]!;
    expect(decodeURIComponent(exact)).toBe(title);
  });
});

// docs/decisions/0046-downloads-as-sandboxed-attachments.md
describe('downloads of active content (record 0046)', () => {
  it.each([
    ['page.html', 'text/html', '<script>alert(document.cookie)</script>'],
    ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['script.js', 'application/javascript', 'fetch("/api/0.1/assets")'],
    ['notice.pdf', 'application/pdf', '%PDF-1.7'],
    ['data.bin', 'application/octet-stream', '\u0000\u0001'],
  ])('%s (%s) comes as an attachment, unsniffed, sandboxed and for this origin only', async (filename, type, text) => {
    const file = await uploadFile(broker, Buffer.from(text), filename, type);
    for (const method of ['GET', 'HEAD']) {
      const res = await reader.request(method, local(file.url));
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });
});

describe('a multipart body built by hand', () => {
  it('is what the helper sends (sanity check of the test helper itself)', async () => {
    const form = multipart([{ name: 'file', filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('x') }]);
    const chunks: Buffer[] = [];
    for await (const chunk of form.body) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString();
    const boundary = form.contentType.split('boundary=')[1]!;
    expect(text).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n--${boundary}--\r\n`,
    );
  });
});
