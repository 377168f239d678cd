/**
 * Documents of an asset (docs/decisions/0030-documents-inside-the-asset-record.md,
 * docs/decisions/0032-signed-document-urls.md) on a real store: the five operations, versions, who may write in
 * which status, the author rule, field errors, the document service's URL checks and the order of checks, and what
 * the asset itself shows. Files come from the registry's own document service (`POST /ds/upload`).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.js';
import type { Client, Response } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { expectErrors, expectOneError } from '../helpers/expect.js';
import { micros } from '../helpers/dates.js';
import { sendForm, uploadFile } from '../helpers/uploads.js';

const ASSETS = '/api/0.1/assets';
const assetPath = (id: string) => `${ASSETS}/${id}`;
const docsPath = (id: string) => `${ASSETS}/${id}/documents`;
const docPath = (id: string, documentId: string) => `${ASSETS}/${id}/documents/${documentId}`;
const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';
const UNKNOWN = '0123456789abcdef0123456789abcdef';

const server = useServer();
const { broker: owner, broker2, concierge, admin, anonymous: reader } = server;

async function read(path: string): Promise<any> {
  const res = await reader.get(path);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

function ok(res: Response, status = 200): any {
  expect(res.status, res.text).toBe(status);
  return res.json.data;
}

/** What a POST of a freshly uploaded file sends: the upload's answer plus `extra`. */
async function fileData(extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { ...(await uploadFile(owner)), ...extra };
}

async function attach(id: string, token: string, extra: Record<string, unknown> = {}, client = owner): Promise<any> {
  return ok(await client.post(docsPath(id), { data: await fileData(extra) }, { token }), 201);
}

async function newVersion(
  id: string,
  token: string,
  documentId: string,
  extra: Record<string, unknown> = {},
  client = owner,
): Promise<any> {
  return ok(await client.request('PUT', docPath(id, documentId), { json: { data: await fileData(extra) }, token }));
}

async function patchDocument(
  id: string,
  token: string,
  documentId: string,
  data: unknown,
  client = owner,
): Promise<Response> {
  return client.patch(docPath(id, documentId), { data }, { token });
}

/** Moves an asset through the workflow to `status`, by the concierge and admins as the workflow requires. */
async function moveTo(id: string, token: string, status: string): Promise<void> {
  const steps: Record<string, [Client, Record<string, unknown>][]> = {
    draft: [],
    pending: [[owner, { status: 'pending' }]],
    verification: [
      [owner, { status: 'pending' }],
      [concierge, { status: 'verification' }],
    ],
    active: [
      [owner, { status: 'pending' }],
      [concierge, { status: 'verification' }],
      [concierge, { status: 'active', relatedLot: LOT }],
    ],
    complete: [
      [owner, { status: 'pending' }],
      [concierge, { status: 'verification' }],
      [concierge, { status: 'active', relatedLot: LOT }],
      [concierge, { status: 'complete' }],
    ],
    deleted: [
      [owner, { status: 'pending' }],
      [owner, { status: 'deleted' }],
    ],
  };
  for (const [client, data] of steps[status]!) {
    ok(await client.patch(assetPath(id), { data }, { token }));
  }
}

describe('adding a document', () => {
  it('answers 201 with Location, generates id, dates and author, and ignores sent values of them', async () => {
    const { id, token } = await createAsset(owner);
    const uploaded = await uploadFile(owner);
    const res = await owner.post(
      docsPath(id),
      {
        data: {
          ...uploaded,
          documentType: 'notice',
          id: 'f'.repeat(32),
          datePublished: '2001-01-01T00:00:00+02:00',
          dateModified: '2001-01-01T00:00:00+02:00',
          author: 'admins',
        },
      },
      { token },
    );
    const document = ok(res, 201);
    expect(document.id).toMatch(/^[0-9a-f]{32}$/);
    expect(document.id).not.toBe('f'.repeat(32));
    expect(res.headers.location).toBe(`${server.url}${docPath(id, document.id)}`);
    expect(document).toEqual({
      id: document.id,
      title: uploaded.title,
      format: uploaded.format,
      documentType: 'notice',
      documentOf: 'asset',
      url: uploaded.url,
      hash: uploaded.hash,
      datePublished: document.dateModified,
      dateModified: document.dateModified,
      author: 'asset_owner',
    });
    expect(await read(docPath(id, document.id))).toEqual(document);
  });

  it("moves the asset's dateModified to the document's, and the asset to the end of the feed", async () => {
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const other = await createAsset(owner);
    await toPending(owner, other.id, other.token);
    const document = await attach(id, token);
    const asset = await read(assetPath(id));
    expect(asset.dateModified).toBe(document.dateModified);
    expect(asset.documents).toEqual([document]);
    const feed = await reader.get(`${ASSETS}?descending=1&limit=1`);
    expect(feed.json.data).toEqual([{ id, dateModified: document.dateModified }]);
  });

  it('works for admins too, who become the author', async () => {
    const { id } = await createAsset(owner);
    const document = await attach(id, 'no token needed', {}, admin);
    expect(document.author).toBe('admins');
  });

  it('takes documentOf lot and the other optional fields as sent', async () => {
    const { id, token } = await createAsset(owner);
    const extra = {
      documentOf: 'lot',
      relatedItem: LOT,
      language: 'uk',
      title_en: 'Notice',
      title_ru: 'Уведомление',
      description: 'Повідомлення',
      description_en: 'Notice of sale',
      description_ru: 'Уведомление о продаже',
      documentType: 'virtualDataRoom',
    };
    const document = await attach(id, token, extra);
    expect(document).toMatchObject(extra);
  });
});

describe('listing and reading documents', () => {
  it('lists the latest versions by dateModified; ?all=1 every version in the order written', async () => {
    const { id, token } = await createAsset(owner);
    const a1 = await attach(id, token, { title: 'a1.pdf' });
    const b1 = await attach(id, token, { title: 'b1.pdf' });
    const a2 = await newVersion(id, token, a1.id, { title: 'a2.pdf' });
    const c1 = await attach(id, token, { title: 'c1.pdf' });
    const b2 = await newVersion(id, token, b1.id, { title: 'b2.pdf' });
    expect(await read(docsPath(id))).toEqual([a2, c1, b2]);
    expect(await read(`${docsPath(id)}?all=1`)).toEqual([a1, b1, a2, c1, b2]);
    expect(await read(`${docsPath(id)}?all=true`)).toEqual([a1, b1, a2, c1, b2]);
    // An empty `all` is not given, as in the original.
    expect(await read(`${docsPath(id)}?all=`)).toEqual([a2, c1, b2]);
    // The asset shows the latest versions only.
    expect((await read(assetPath(id))).documents).toEqual([a2, c1, b2]);
  });

  it('lists nothing for an asset without documents, and 404 for an unknown asset', async () => {
    const { id } = await createAsset(owner);
    expect(await read(docsPath(id))).toEqual([]);
    expect((await read(assetPath(id))).documents).toBeUndefined();
    expectOneError(await reader.get(docsPath(UNKNOWN)), 404, 'url', 'asset_id', 'Not Found');
  });

  it('reads a document with previousVersions, oldest first, absent until the first new version', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token);
    expect(await read(docPath(id, v1.id))).not.toHaveProperty('previousVersions');
    const v2 = await newVersion(id, token, v1.id);
    // The same file again is a version too: previousVersions holds every older version, whatever its url.
    const v3 = ok(
      await owner.request('PUT', docPath(id, v1.id), {
        json: { data: { title: v2.title, format: v2.format, url: v2.url, hash: v2.hash } },
        token,
      }),
    );
    expect(await read(docPath(id, v1.id))).toEqual({ ...v3, previousVersions: [v1, v2] });
  });

  it('answers 404 for an unknown document', async () => {
    const { id } = await createAsset(owner);
    expectOneError(await reader.get(docPath(id, UNKNOWN)), 404, 'url', 'document_id', 'Not Found');
    expectOneError(await reader.get(docPath(UNKNOWN, UNKNOWN)), 404, 'url', 'asset_id', 'Not Found');
  });

  it('needs no key, ignores an unknown one, and takes the output options', async () => {
    const { id, token } = await createAsset(owner);
    const document = await attach(id, token);
    const stranger = server.client({ key: 'not-a-key' });
    expect(ok(await stranger.get(docPath(id, document.id)))).toEqual(document);
    const pretty = await reader.get(`${docsPath(id)}?opt_pretty=1`);
    expect(pretty.text).toContain('\n    "data": [');
    const jsonp = await reader.get(`${docPath(id, document.id)}?opt_jsonp=show`);
    expect(jsonp.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(jsonp.text.startsWith('/**/show({"data":')).toBe(true);
  });
});

describe('new versions (PUT)', () => {
  it('keeps id, datePublished and author, takes a new dateModified, and keeps unsent fields but the file ones', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token, { description: 'перша', documentType: 'notice', language: 'uk' });
    const uploaded = await uploadFile(owner, Buffer.from('version two'), 'v2.pdf');
    const v2 = ok(
      await owner.request('PUT', docPath(id, v1.id), {
        json: {
          data: {
            ...uploaded,
            language: 'en',
            id: 'f'.repeat(32),
            author: 'admins',
            datePublished: '2001-01-01T00:00:00+02:00',
          },
        },
        token,
      }),
    );
    expect(v2).toEqual({
      id: v1.id,
      title: 'v2.pdf',
      description: 'перша',
      format: uploaded.format,
      documentType: 'notice',
      documentOf: 'asset',
      url: uploaded.url,
      hash: uploaded.hash,
      language: 'en',
      datePublished: v1.datePublished,
      dateModified: v2.dateModified,
      author: 'asset_owner',
    });
    expect(micros(v2.dateModified)).toBeGreaterThan(micros(v1.dateModified));
    expect((await read(assetPath(id))).dateModified).toBe(v2.dateModified);
  });

  it('needs title, format, url and hash again', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token);
    const res = await owner.request('PUT', docPath(id, v1.id), { json: { data: { description: 'only this' } }, token });
    expectErrors(
      res,
      422,
      ['title', 'format', 'url', 'hash'].map((name) => ({
        location: 'body',
        name,
        description: ['This field is required.'],
      })),
    );
    expect(await read(docPath(id, v1.id))).toEqual(v1);
  });
});

describe('editing a document (PATCH)', () => {
  it('edits the latest version in place; url, hash, id, dates and author are ignored; its dateModified stays', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token);
    const before = await read(assetPath(id));
    const other = await uploadFile(owner);
    const patched = ok(
      await patchDocument(id, token, v1.id, {
        description: 'Повідомлення про продаж',
        documentType: 'technicalSpecifications',
        title: 'renamed.pdf',
        url: other.url,
        hash: other.hash,
        id: UNKNOWN,
        dateModified: '2001-01-01T00:00:00+02:00',
        datePublished: '2001-01-01T00:00:00+02:00',
        author: 'admins',
      }),
    );
    expect(patched).toEqual({
      ...v1,
      title: 'renamed.pdf',
      description: 'Повідомлення про продаж',
      documentType: 'technicalSpecifications',
    });
    expect(await read(docPath(id, v1.id))).toEqual(patched);
    expect(await read(`${docsPath(id)}?all=1`)).toEqual([patched]);
    const after = await read(assetPath(id));
    expect(micros(after.dateModified)).toBeGreaterThan(micros(before.dateModified));
    expect(after.documents).toEqual([patched]);
  });

  it('changes nothing, not even the asset, when nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token, { description: 'same' });
    const before = await read(assetPath(id));
    expect(
      ok(await patchDocument(id, token, v1.id, { description: 'same', url: 'http://elsewhere.example/x' })),
    ).toEqual(v1);
    expect(await read(assetPath(id))).toEqual(before);
  });

  it('refuses invalid values with the original messages', async () => {
    const { id, token } = await createAsset(owner);
    const v1 = await attach(id, token);
    // As in the original, values that cannot be read (conversion) are judged before the rules (validation).
    expectErrors(
      await patchDocument(id, token, v1.id, { documentType: 'poem', relatedItem: 'xyz', colour: 'red' }),
      422,
      [
        { location: 'body', name: 'relatedItem', description: ['Hash value is wrong length.'] },
        { location: 'body', name: 'colour', description: 'Rogue field' },
      ],
    );
    expectErrors(
      await patchDocument(id, token, v1.id, { documentType: 'poem', documentOf: 'tender', format: 'pdf' }),
      422,
      [
        {
          location: 'body',
          name: 'documentType',
          description: [
            "Value must be one of ['notice', 'technicalSpecifications', 'illustration', 'virtualDataRoom', 'x_presentation'].",
          ],
        },
        { location: 'body', name: 'documentOf', description: ["Value must be one of ['asset', 'lot']."] },
        { location: 'body', name: 'format', description: ['String value did not match validation regex.'] },
      ],
    );
    expect(await read(docPath(id, v1.id))).toEqual(v1);
  });
});

describe('no DELETE', () => {
  it('answers 405 with Allow on both paths, and changes nothing', async () => {
    const { id, token } = await createAsset(owner);
    const document = await attach(id, token);
    const one = await owner.request('DELETE', docPath(id, document.id), { token });
    expect(one.status).toBe(405);
    expect(one.headers.allow).toBe('GET, HEAD, PUT, PATCH');
    const all = await owner.request('DELETE', docsPath(id), { token });
    expect(all.status).toBe(405);
    expect(all.headers.allow).toBe('GET, HEAD, POST');
    expect(await read(docsPath(id))).toEqual([document]);
  });
});

describe('who may write documents, and when', () => {
  const FORBIDDEN = { location: 'url', name: 'permission', description: 'Forbidden' };

  it('refuses other brokers, the owner without its token, and the concierge with 403 url/permission', async () => {
    const { id, token } = await createAsset(owner);
    const document = await attach(id, token);
    const data = await fileData();
    for (const [client, tokenSent] of [
      [broker2, token],
      [owner, undefined],
      [owner, 'wrong-token'],
      [concierge, token],
    ] as const) {
      const options = tokenSent === undefined ? {} : { token: tokenSent };
      expectErrors(await client.post(docsPath(id), { data }, options), 403, [FORBIDDEN]);
      expectErrors(await client.request('PUT', docPath(id, document.id), { json: { data }, ...options }), 403, [
        FORBIDDEN,
      ]);
      expectErrors(await client.patch(docPath(id, document.id), { data: { title: 'x' } }, options), 403, [FORBIDDEN]);
    }
    expect(await read(docsPath(id))).toEqual([document]);
  });

  it('takes the owner token as the query, the X-Access-Token header or access.token', async () => {
    const { id, token } = await createAsset(owner);
    ok(await owner.post(docsPath(id), { data: await fileData() }, { headers: { 'x-access-token': token } }), 201);
    ok(await owner.post(docsPath(id), { data: await fileData(), access: { token } }), 201);
    expect(await read(docsPath(id))).toHaveLength(2);
  });

  it('refuses a write without a key with 401', async () => {
    const { id, token } = await createAsset(owner);
    const res = await reader.post(docsPath(id), { data: await fileData() }, { token });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="registry"');
  });

  it.each(['verification', 'active', 'complete', 'deleted'])(
    'refuses every write while the asset is %s, to the owner and to admins',
    async (status) => {
      const { id, token } = await createAsset(owner);
      const document = await attach(id, token);
      await moveTo(id, token, status);
      const before = await read(assetPath(id));
      const description = `Can't update document in current (${status}) asset status`;
      const data = await fileData();
      for (const client of [owner, admin]) {
        expectOneError(await client.post(docsPath(id), { data }, { token }), 403, 'body', 'data', description);
        expectOneError(
          await client.request('PUT', docPath(id, document.id), { json: { data }, token }),
          403,
          'body',
          'data',
          description,
        );
      }
      expectOneError(await patchDocument(id, token, document.id, { title: 'x' }), 403, 'body', 'data', description);
      // Permission comes before status.
      expectErrors(await broker2.post(docsPath(id), { data }, { token }), 403, [FORBIDDEN]);
      expect(await read(assetPath(id))).toEqual(before);
    },
  );

  it('allows writes in draft and pending', async () => {
    const { id, token } = await createAsset(owner);
    const inDraft = await attach(id, token);
    await toPending(owner, id, token);
    const inPending = await attach(id, token);
    ok(await patchDocument(id, token, inDraft.id, { description: 'edited while pending' }));
    await newVersion(id, token, inPending.id);
    expect(await read(docsPath(id))).toHaveLength(2);
  });

  it('lets only the author write new versions or edit: 403 url/role otherwise', async () => {
    const { id, token } = await createAsset(owner);
    const byOwner = await attach(id, token);
    const byAdmin = await attach(id, token, {}, admin);
    const ONLY_AUTHOR = { location: 'url', name: 'role', description: 'Can update document only author' };
    const data = await fileData();
    expectErrors(await admin.request('PUT', docPath(id, byOwner.id), { json: { data } }), 403, [ONLY_AUTHOR]);
    expectErrors(await admin.patch(docPath(id, byOwner.id), { data: { title: 'x' } }), 403, [ONLY_AUTHOR]);
    expectErrors(await owner.request('PUT', docPath(id, byAdmin.id), { json: { data }, token }), 403, [ONLY_AUTHOR]);
    expectErrors(await patchDocument(id, token, byAdmin.id, { title: 'x' }), 403, [ONLY_AUTHOR]);
    // Each author may.
    ok(await admin.patch(docPath(id, byAdmin.id), { data: { title: 'by admin' } }));
    ok(await patchDocument(id, token, byOwner.id, { title: 'by owner' }));
  });
});

describe('field validation', () => {
  it('requires title, format, url and hash', async () => {
    const { id, token } = await createAsset(owner);
    const res = await owner.post(docsPath(id), { data: { documentType: 'notice' } }, { token });
    expectErrors(
      res,
      422,
      ['title', 'format', 'url', 'hash'].map((name) => ({
        location: 'body',
        name,
        description: ['This field is required.'],
      })),
    );
  });

  it.each([
    [`sha256:${'a'.repeat(64)}`, 'Hash type is not supported.'],
    ['a'.repeat(32), 'Hash type is not supported.'],
    [`md5:${'a'.repeat(31)}`, 'Hash value is wrong length.'],
    [`md5:${'g'.repeat(32)}`, 'Hash value is not hexadecimal.'],
  ])('refuses the hash %s: %s', async (hash, message) => {
    const { id, token } = await createAsset(owner);
    expectOneError(await owner.post(docsPath(id), { data: await fileData({ hash }) }, { token }), 422, 'body', 'hash', [
      message,
    ]);
  });

  it('refuses wrong types and unknown fields, and a URL that is not one', async () => {
    const { id, token } = await createAsset(owner);
    expectErrors(
      await owner.post(docsPath(id), { data: await fileData({ title: 5, url: 'not a url', extra: 1 }) }, { token }),
      422,
      [
        { location: 'body', name: 'title', description: ["Couldn't interpret '5' as string."] },
        { location: 'body', name: 'extra', description: 'Rogue field' },
      ],
    );
    expectOneError(
      await owner.post(docsPath(id), { data: await fileData({ url: 'not a url' }) }, { token }),
      422,
      'body',
      'url',
      ['Not a well formed URL.'],
    );
    expect(await read(docsPath(id))).toEqual([]);
  });

  it('answers 422 for a body without an object data, and 415 for another content type', async () => {
    const { id, token } = await createAsset(owner);
    expectOneError(
      await owner.post(docsPath(id), { data: 'x' }, { token }),
      422,
      'body',
      'data',
      'No JSON object could be decoded',
    );
    const form = await sendFormTo(docsPath(id), token);
    expectOneError(form, 415, 'header', 'Content-Type', "Content-Type header should be one of ['application/json']");
  });
});

/** A multipart form sent to a JSON operation. */
async function sendFormTo(path: string, token: string): Promise<Response> {
  const boundary = 'x-boundary';
  return owner.request('POST', `${path}?acc_token=${token}`, {
    body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe("the document service's URL (after field validation)", () => {
  const NOT_FROM_SERVICE = 'Can add document only from document service.';

  /** The upload's URL with one part changed. */
  function changed(url: string, change: (parsed: URL) => void): string {
    const parsed = new URL(url);
    change(parsed);
    return parsed.toString();
  }

  /** One character of `text` at `index` replaced by another of the same alphabet. */
  function flipped(text: string, index = 0): string {
    const c = text[index]!;
    const other =
      c === 'a' ? 'b' : c === 'A' ? 'B' : c === '0' ? '1' : /[0-9]/.test(c) ? '0' : /[a-z]/.test(c) ? 'a' : 'A';
    return text.slice(0, index) + other + text.slice(index + 1);
  }

  it.each<[string, (url: string, hash: string) => { url: string; hash?: string }, number, string]>([
    ['another host', (url) => ({ url: changed(url, (u) => (u.hostname = 'ds.example.org')) }), 403, NOT_FROM_SERVICE],
    ['another port', (url) => ({ url: changed(url, (u) => (u.port = '1')) }), 403, NOT_FROM_SERVICE],
    ['another scheme', (url) => ({ url: url.replace(/^http:/, 'https:') }), 403, NOT_FROM_SERVICE],
    ['another path', (url) => ({ url: url.replace('/ds/get/', '/ds/got/') }), 403, NOT_FROM_SERVICE],
    ['a deeper path', (url) => ({ url: url.replace('/ds/get/', '/ds/get/x/') }), 403, NOT_FROM_SERVICE],
    ['an extra query parameter', (url) => ({ url: `${url}&Expires=1` }), 403, NOT_FROM_SERVICE],
    [
      'no Signature',
      (url) => ({ url: changed(url, (u) => u.searchParams.delete('Signature')) }),
      403,
      NOT_FROM_SERVICE,
    ],
    ['no KeyID', (url) => ({ url: changed(url, (u) => u.searchParams.delete('KeyID')) }), 403, NOT_FROM_SERVICE],
    ['a fragment', (url) => ({ url: `${url}#x` }), 403, NOT_FROM_SERVICE],
    [
      'an unknown KeyID',
      (url) => ({ url: changed(url, (u) => u.searchParams.set('KeyID', flipped(u.searchParams.get('KeyID')!))) }),
      422,
      'Document url expired.',
    ],
    [
      'a Signature that is not base64',
      (url) => ({ url: changed(url, (u) => u.searchParams.set('Signature', '***')) }),
      422,
      'Document url signature invalid.',
    ],
    [
      'a tampered Signature',
      (url) => ({
        url: changed(url, (u) => u.searchParams.set('Signature', flipped(u.searchParams.get('Signature')!, 5))),
      }),
      422,
      'Document url invalid.',
    ],
    [
      'a Signature cut short',
      (url) => ({ url: changed(url, (u) => u.searchParams.set('Signature', 'AAAA')) }),
      422,
      'Document url invalid.',
    ],
    [
      'a tampered key',
      (url) => ({ url: url.replace(/\/get\/([0-9a-f])/, (_m, c: string) => `/get/${c === '0' ? '1' : '0'}`) }),
      422,
      'Document url invalid.',
    ],
    ['a tampered hash', (url, hash) => ({ url, hash: `md5:${flipped(hash.slice(4))}` }), 422, 'Document url invalid.'],
  ])('refuses %s', async (_case, tamper, status, description) => {
    const { id, token } = await createAsset(owner);
    const uploaded = await uploadFile(owner);
    const sent = { ...uploaded, ...tamper(uploaded.url, uploaded.hash) };
    expectOneError(await owner.post(docsPath(id), { data: sent }, { token }), status, 'body', 'url', description);
    const document = await attach(id, token);
    expectOneError(
      await owner.request('PUT', docPath(id, document.id), { json: { data: sent }, token }),
      status,
      'body',
      'url',
      description,
    );
    expect(await read(docsPath(id))).toEqual([document]);
  });

  it('takes the signature also when its + arrived unencoded', async () => {
    const { id, token } = await createAsset(owner);
    for (let i = 0; i < 20; i++) {
      const uploaded = await uploadFile(owner);
      if (!uploaded.url.includes('%2B')) continue;
      ok(
        await owner.post(docsPath(id), { data: { ...uploaded, url: uploaded.url.replace(/%2B/g, '+') } }, { token }),
        201,
      );
      return;
    }
    throw new Error('no signature with a + in 20 uploads');
  });

  it('judges fields first: a missing title with a foreign URL is 422 on title only', async () => {
    const { id, token } = await createAsset(owner);
    const uploaded = await uploadFile(owner);
    const res = await owner.post(
      docsPath(id),
      { data: { ...uploaded, title: undefined, url: 'http://ds.example.org/get/x?KeyID=a&Signature=b' } },
      { token },
    );
    expectOneError(res, 422, 'body', 'title', ['This field is required.']);
  });
});

describe('order of checks', () => {
  it('JSON (422) → asset (404) → document (404) → permission (403) → status (403) → fields (422)', async () => {
    const { id, token } = await createAsset(owner);
    const document = await attach(id, token);
    expectOneError(
      await broker2.post(docsPath(UNKNOWN), { data: 'x' }),
      422,
      'body',
      'data',
      'No JSON object could be decoded',
    );
    expectOneError(await broker2.post(docsPath(UNKNOWN), { data: { title: 5 } }), 404, 'url', 'asset_id', 'Not Found');
    expectOneError(
      await broker2.patch(docPath(id, UNKNOWN), { data: { title: 5 } }),
      404,
      'url',
      'document_id',
      'Not Found',
    );
    expectOneError(
      await broker2.request('PUT', docPath(id, UNKNOWN), { json: { data: { title: 5 } } }),
      404,
      'url',
      'document_id',
      'Not Found',
    );
    expectOneError(
      await broker2.patch(docPath(id, document.id), { data: { title: 5 } }),
      403,
      'url',
      'permission',
      'Forbidden',
    );
    await moveTo(id, token, 'deleted');
    expectOneError(
      await owner.patch(docPath(id, document.id), { data: { title: 5 } }, { token }),
      403,
      'body',
      'data',
      "Can't update document in current (deleted) asset status",
    );
  });
});

describe("the asset's own POST and PATCH ignore documents, whatever they hold", () => {
  it.each<[string, unknown]>([
    ['a string', 'not a list'],
    ['a list of garbage', [1, { bogus: true }]],
    [
      'a list of documents',
      [
        {
          id: UNKNOWN,
          title: 'x.pdf',
          format: 'application/pdf',
          url: 'http://x.example/x',
          hash: `md5:${'0'.repeat(32)}`,
        },
      ],
    ],
    ['null', null],
  ])('%s', async (_case, documents) => {
    const created = await createAsset(owner, validAsset({ documents }));
    expect(created.body.data).not.toHaveProperty('documents');
    const { id, token } = created;
    const document = await attach(id, token);
    const v2 = await newVersion(id, token, document.id);
    const patched = ok(await owner.patch(assetPath(id), { data: { title: 'renamed', documents } }, { token }));
    expect(patched.documents).toEqual([v2]);
    expect(ok(await admin.patch(assetPath(id), { data: { documents } }))).toEqual(patched);
    // The history survives the asset's own writes.
    expect(await read(docPath(id, document.id))).toEqual({ ...v2, previousVersions: [document] });
  });
});

describe('another document service and another public address', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicHex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
  const EXTERNAL = 'https://ds.example.org';
  const PUBLIC = 'https://registry.example.org';
  const external = useServer({
    DS_DOWNLOAD_URL: EXTERNAL,
    DS_PUBLIC_KEYS: `${'ab'.repeat(32)},${publicHex}`,
    PUBLIC_URL: PUBLIC,
  });

  function externalUrl(key: string, md5hex: string, keyId = publicHex.slice(0, 8)): string {
    const signature = sign(null, Buffer.from(`${key}\0${md5hex}`), privateKey).toString('base64');
    return `${EXTERNAL}/get/${key}?KeyID=${keyId}&Signature=${encodeURIComponent(signature)}`;
  }

  it('accepts a URL signed by the external service, refuses its keys on its URLs when they do not verify', async () => {
    const client = external.broker;
    const { id, token } = await createAsset(client);
    const md5hex = 'e4d909c290d0fb1ca068ffaddf22cbd0';
    const key = '6f7e8d9c0b1a29384756a5b4c3d2e1f0';
    const base = { title: 'notice.pdf', format: 'application/pdf', hash: `md5:${md5hex}` };
    const document = ok(
      await client.post(docsPath(id), { data: { ...base, url: externalUrl(key, md5hex) } }, { token }),
      201,
    );
    expect(document.url).toBe(externalUrl(key, md5hex));
    expectOneError(
      await client.post(docsPath(id), { data: { ...base, url: externalUrl(key, md5hex, 'abababab') } }, { token }),
      422,
      'body',
      'url',
      'Document url invalid.',
    );
    expectOneError(
      await client.post(docsPath(id), { data: { ...base, url: externalUrl(key, md5hex, 'cdcdcdcd') } }, { token }),
      422,
      'body',
      'url',
      'Document url expired.',
    );
    expectOneError(
      await client.post(
        docsPath(id),
        { data: { ...base, url: externalUrl(key, md5hex).replace(EXTERNAL, 'https://ds.example.net') } },
        { token },
      ),
      403,
      'body',
      'url',
      'Can add document only from document service.',
    );
  });

  it("puts the built-in service's URLs on PUBLIC_URL and accepts them there only", async () => {
    const client = external.broker;
    const { id, token } = await createAsset(client);
    const uploaded = await uploadFile(client);
    expect(uploaded.url.startsWith(`${PUBLIC}/api/0.1/ds/get/`)).toBe(true);
    ok(await client.post(docsPath(id), { data: uploaded }, { token }), 201);
    const onOrigin = uploaded.url.replace(PUBLIC, external.url);
    expectOneError(
      await client.post(docsPath(id), { data: { ...uploaded, url: onOrigin } }, { token }),
      403,
      'body',
      'url',
      'Can add document only from document service.',
    );
    // The file itself is served by the registry, whatever address the balancer gives it.
    const file = await client.get(onOrigin.slice(external.url.length));
    expect(file.status).toBe(200);
  });

  it("refuses an external service's key on the registry's own URLs", async () => {
    const client = external.broker;
    const { id, token } = await createAsset(client);
    const uploaded = await uploadFile(client);
    const key = new URL(uploaded.url).pathname.split('/').at(-1)!;
    const forged = `${PUBLIC}/api/0.1/ds/get/${key}?KeyID=${publicHex.slice(0, 8)}&Signature=${encodeURIComponent(
      sign(null, Buffer.from(`${key}\0${uploaded.hash.slice(4)}`), privateKey).toString('base64'),
    )}`;
    expectOneError(
      await client.post(docsPath(id), { data: { ...uploaded, url: forged } }, { token }),
      422,
      'body',
      'url',
      'Document url expired.',
    );
  });
});

describe('uploads sent as forms to the wrong place', () => {
  it('the upload answers 415 for JSON', async () => {
    const res = await owner.post('/api/0.1/ds/upload', { data: {} });
    expectOneError(res, 415, 'header', 'Content-Type', "Content-Type header should be one of ['multipart/form-data']");
    // And a form is taken there.
    expect((await sendForm(owner, [{ name: 'file', filename: 'a.txt', content: Buffer.from('a') }])).status).toBe(201);
  });
});
