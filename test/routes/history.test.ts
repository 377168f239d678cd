/**
 * The history of an asset over HTTP (docs/decisions/0036-revisions-are-json-patches.md): which writes add a revision
 * and what it holds, the two operations' pages, parameters and refusals.
 */
import { describe, expect, it } from 'vitest';
import type { Response } from '../helpers/client.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { expectOneError } from '../helpers/expect.js';
import { expectWellFormed, readHistory, revisionsPath, type ServedRevision } from '../helpers/history.js';
import { useServer } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';
import { hashToken } from '../../src/domain/ids.js';

const API = '/api/0.1';
const assetPath = (id: string) => `${API}/assets/${id}`;
const UNKNOWN = '0123456789abcdef0123456789abcdef';

const server = useServer();
const { broker: owner, broker2, concierge, admin, anonymous: reader } = server;

function ok(res: Response, status = 200): any {
  expect(res.status, res.text).toBe(status);
  return res.json.data;
}

async function served(id: string): Promise<Record<string, unknown>> {
  return ok(await reader.get(assetPath(id)));
}

async function history(id: string): Promise<ServedRevision[]> {
  return readHistory(reader, id);
}

/** A pending asset with `count` revisions: the creation, the move to pending, then title edits. */
async function assetWithRevisions(count: number): Promise<{ id: string; token: string }> {
  const { id, token } = await createAsset(owner);
  if (count > 1) await toPending(owner, id, token);
  for (let rev = 3; rev <= count; rev++)
    ok(await owner.patch(assetPath(id), { data: { title: `назва ${rev}` } }, { token }));
  return { id, token };
}

describe('what a revision holds', () => {
  it('creation is revision 1 by its creator, dated with dateModified, from {}: only adds, never the path ""', async () => {
    const { id, body } = await createAsset(owner);
    const [first, ...rest] = await history(id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ rev: 1, author: 'broker', date: body.data.dateModified });
    expect(new Set(first!.changes.map((change) => change.op))).toEqual(new Set(['add']));
    expectWellFormed([first!], await served(id));
  });

  it('a PATCH that changes something adds one revision by its caller (any role), holding only what changed', async () => {
    const { id, token } = await createAsset(owner);
    const moved = ok(await owner.patch(assetPath(id), { data: { status: 'pending' } }, { token }));
    const edited = ok(await owner.patch(assetPath(id), { data: { title: 'Нова назва' } }, { token }));
    // Admins write only `mode` and `relatedLot`.
    const marked = ok(await admin.patch(assetPath(id), { data: { mode: 'test' } }));
    const revisions = await history(id);
    expect(revisions.map(({ rev, author, date }) => ({ rev, author, date }))).toEqual([
      { rev: 1, author: 'broker', date: expect.any(String) },
      { rev: 2, author: 'broker', date: moved.dateModified },
      { rev: 3, author: 'broker', date: edited.dateModified },
      { rev: 4, author: 'administrator', date: marked.dateModified },
    ]);
    // The move to pending also moves `date`.
    expect(revisions[1]!.changes).toEqual(
      [
        { op: 'replace', path: '/dateModified', value: moved.dateModified },
        { op: 'replace', path: '/date', value: moved.date },
        { op: 'replace', path: '/status', value: 'pending' },
      ].sort(byPath(revisions[1]!.changes)),
    );
    expect(revisions[2]!.changes).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/title', value: 'Нова назва' },
        { op: 'replace', path: '/dateModified', value: edited.dateModified },
      ]),
    );
    expect(revisions[2]!.changes).toHaveLength(2);
    expectWellFormed(revisions, await served(id));
  });

  it('a PATCH that changes nothing adds no revision and leaves dateModified', async () => {
    const { id, token } = await assetWithRevisions(2);
    const before = await served(id);
    ok(await owner.patch(assetPath(id), { data: { title: before.title } }, { token }));
    expect(await served(id)).toEqual(before);
    expect((await history(id)).map((revision) => revision.rev)).toEqual([1, 2]);
  });

  it('the concierge is the author of its moves', async () => {
    const { id } = await assetWithRevisions(2);
    ok(await concierge.patch(assetPath(id), { data: { status: 'verification' } }));
    const revisions = await history(id);
    expect(revisions.at(-1)).toMatchObject({ rev: 3, author: 'concierge' });
    expect(revisions.at(-1)!.changes).toContainEqual({ op: 'replace', path: '/status', value: 'verification' });
    expectWellFormed(revisions, await served(id));
  });

  it('a document added, replaced or edited adds one revision each, showing only what the asset serves', async () => {
    const { id, token } = await createAsset(owner);
    const document = ok(
      await owner.post(`${assetPath(id)}/documents`, { data: await uploadFile(owner) }, { token }),
      201,
    );
    const version = ok(
      await owner.request('PUT', `${assetPath(id)}/documents/${document.id}`, {
        json: { data: await uploadFile(owner) },
        token,
      }),
    );
    ok(await owner.patch(`${assetPath(id)}/documents/${document.id}`, { data: { description: 'опис' } }, { token }));
    // The same description again changes nothing.
    ok(await owner.patch(`${assetPath(id)}/documents/${document.id}`, { data: { description: 'опис' } }, { token }));
    const revisions = await history(id);
    expect(revisions.map(({ rev, author }) => ({ rev, author }))).toEqual(
      [1, 2, 3, 4].map((rev) => ({ rev, author: 'broker' })),
    );
    expect(revisions[1]!.changes).toContainEqual({ op: 'add', path: '/documents', value: [document] });
    // The replaced version is served no more: it is in no revision after it stopped being served.
    expect(revisions[2]!.changes).toContainEqual({ op: 'replace', path: '/documents/0/url', value: version.url });
    expect(JSON.stringify(revisions[2])).not.toContain('previousVersions');
    expectWellFormed(revisions, await served(id));
  });

  it('an ownership change is authored by its caller, who need not be the new owner; no token or hash shows', async () => {
    const asset = await createAsset(owner);
    const made = await broker2.post(`${API}/transfers`, { data: {} });
    expect(made.status, made.text).toBe(201);
    const transfer = { id: made.json.data.id as string, ...made.json.access };
    // An admin applies the transfer: broker2 becomes the owner, the admin wrote it.
    const after = ok(
      await admin.post(`${assetPath(asset.id)}/ownership`, { data: { id: transfer.id, transfer: asset.transfer } }),
    );
    expect(after.owner).toBe('broker2');
    const revisions = await history(asset.id);
    expect(revisions.at(-1)).toMatchObject({ rev: 2, author: 'administrator', date: after.dateModified });
    expect(revisions.at(-1)!.changes).toContainEqual({ op: 'replace', path: '/owner', value: 'broker2' });
    const text = JSON.stringify(revisions);
    for (const secret of [asset.token, asset.transfer, transfer.token, transfer.transfer]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(hashToken(secret));
    }
    expectWellFormed(revisions, await served(asset.id));
  });
});

/** Orders expected operations as `actual` lists them (the library's order of members). */
function byPath(actual: { path: string }[]) {
  const order = actual.map((change) => change.path);
  return (a: { path: string }, b: { path: string }) => order.indexOf(a.path) - order.indexOf(b.path);
}

describe('GET /assets/{id}/revisions', () => {
  it('is public, drafts included, oldest first, with next_page after the last rev (the same offset on an empty page)', async () => {
    const { id } = await createAsset(owner);
    const res = await reader.get(revisionsPath(id));
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.map((revision: ServedRevision) => revision.rev)).toEqual([1]);
    expect(res.json.next_page).toEqual({
      offset: 1,
      path: `${revisionsPath(id)}?limit=100&offset=1`,
      uri: `${server.url}${revisionsPath(id)}?limit=100&offset=1`,
    });
    const empty = await reader.get(res.json.next_page.path);
    expect(empty.json).toEqual({ data: [], next_page: res.json.next_page });
  });

  it('pages through every revision with no gap and no repeat, whatever the page size', async () => {
    const { id } = await assetWithRevisions(7);
    // Once every revision is in the log: a logIndex appearing between two reads is no gap.
    let all = await readHistory(reader, id);
    for (const until = Date.now() + 5000; all.some((revision) => revision.logIndex === undefined); ) {
      expect(Date.now()).toBeLessThan(until);
      await new Promise((resolve) => setTimeout(resolve, 50));
      all = await readHistory(reader, id);
    }
    expect(all.map((revision) => revision.rev)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const limit of [1, 2, 3, 7]) expect(await readHistory(reader, id, limit), `limit ${limit}`).toEqual(all);
    const page = await reader.get(`${revisionsPath(id)}?offset=2&limit=3`);
    expect(page.json.data.map((revision: ServedRevision) => revision.rev)).toEqual([3, 4, 5]);
    expect(page.json.next_page.offset).toBe(5);
    expect(page.json.next_page.path).toBe(`${revisionsPath(id)}?limit=3&offset=5`);
    const beyond = await reader.get(`${revisionsPath(id)}?offset=70`);
    expect(beyond.json).toMatchObject({ data: [], next_page: { offset: 70 } });
  });

  it('serves a limit above 1000 as 1000; repeated parameters take the last value', async () => {
    const { id } = await assetWithRevisions(2);
    const res = await reader.get(`${revisionsPath(id)}?limit=5000`);
    expect(res.json.next_page.path).toBe(`${revisionsPath(id)}?limit=1000&offset=2`);
    const repeated = await reader.get(`${revisionsPath(id)}?offset=0&offset=1&limit=9&limit=1`);
    expect(repeated.json.data.map((revision: ServedRevision) => revision.rev)).toEqual([2]);
  });

  it.each([
    ['limit', 'abc'],
    ['limit', '0'],
    ['limit', '-1'],
    ['limit', '1.5'],
    ['limit', ''],
    ['offset', 'x'],
    ['offset', '-1'],
    ['offset', '2.0'],
  ])('400 querystring / %s for %j', async (name, value) => {
    const { id } = await createAsset(owner);
    const res = await reader.get(`${revisionsPath(id)}?${name}=${value}`);
    if (value === '') {
      // An empty limit is no limit, as in the listing.
      expect(res.status).toBe(200);
      return;
    }
    expectOneError(res, 400, 'querystring', name);
  });

  it('an unknown asset is 404 url / asset_id, checked before the parameters', async () => {
    for (const query of ['', '?limit=abc', '?offset=-1']) {
      expectOneError(await reader.get(`${revisionsPath(UNKNOWN)}${query}`), 404, 'url', 'asset_id', 'Not Found');
    }
  });
});

describe('GET /assets/{id}/revisions/{rev}', () => {
  it('serves the asset as it was after each revision; the last is the asset as it is', async () => {
    const { id } = await assetWithRevisions(4);
    const revisions = await history(id);
    let previous: Record<string, unknown> | undefined;
    for (const revision of revisions) {
      const at = ok(await reader.get(`${revisionsPath(id)}/${revision.rev}`));
      expect(at.dateModified).toBe(revision.date);
      expect(at).not.toEqual(previous);
      previous = at;
    }
    expect(previous).toEqual(await served(id));
  });

  it.each(['0', '01', 'abc', '-1', '1.0', '+1'])('400 url / rev for %j', async (rev) => {
    const { id } = await createAsset(owner);
    expectOneError(await reader.get(`${revisionsPath(id)}/${encodeURIComponent(rev)}`), 400, 'url', 'rev');
  });

  it('404 url / rev beyond the last revision; 404 url / asset_id for an unknown asset', async () => {
    const { id } = await assetWithRevisions(2);
    expectOneError(await reader.get(`${revisionsPath(id)}/3`), 404, 'url', 'rev', 'Not Found');
    expectOneError(await reader.get(`${revisionsPath(id)}/99999999999999999999`), 404, 'url', 'rev', 'Not Found');
    expectOneError(await reader.get(`${revisionsPath(UNKNOWN)}/1`), 404, 'url', 'asset_id', 'Not Found');
  });
});

describe('both paths', () => {
  it('answer HEAD as GET without a body', async () => {
    const { id } = await createAsset(owner);
    for (const path of [revisionsPath(id), `${revisionsPath(id)}/1`]) {
      const get = await reader.get(path);
      const head = await reader.request('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
    }
  });

  it('answer other methods 405 with Allow: GET, HEAD', async () => {
    const { id } = await createAsset(owner);
    for (const path of [revisionsPath(id), `${revisionsPath(id)}/1`]) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await owner.request(method, path, { json: { data: {} } });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
      }
    }
  });

  it('apply opt_pretty and opt_jsonp, not opt_fields', async () => {
    const { id } = await createAsset(owner);
    const plain = await reader.get(`${revisionsPath(id)}/1`);
    const pretty = await reader.get(`${revisionsPath(id)}/1?opt_pretty=1&opt_fields=title`);
    expect(pretty.text).toContain('\n    "data": {');
    expect(pretty.json).toEqual(plain.json);
    const page = await reader.get(`${revisionsPath(id)}?opt_jsonp=callback`);
    expect(page.headers['content-type']).toMatch(/^application\/javascript/);
    expect(page.text).toMatch(/^\/\*\*\/callback\(\{"data":\[\{"rev":1,/);
  });
});
