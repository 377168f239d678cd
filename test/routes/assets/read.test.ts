/**
 * GET /api/0.1/assets/{id}: spec "Read one asset"; reads need no key (docs/decisions/0006-api-keys-and-roles.md).
 */
import { describe, expect, it } from 'vitest';
import { useServer } from '../../helpers/server.js';
import { createAsset, toPending } from '../../helpers/fixtures.js';
import { expectErrors } from '../../helpers/expect.js';

const ASSETS = '/api/0.1/assets';

const server = useServer();
const { broker, anonymous } = server;

describe('GET /assets/{id}', () => {
  it('serves {data} with the full asset, without a key', async () => {
    const created = await createAsset(broker);
    const res = await anonymous.get(`${ASSETS}/${created.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['data']);
    expect(res.json.data).toEqual(created.body.data);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('drafts are readable by id', async () => {
    const created = await createAsset(broker);
    const res = await anonymous.get(`${ASSETS}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe('draft');
    expect(res.json.data.id).toBe(created.id);
  });

  it('shows the current state after a change', async () => {
    const created = await createAsset(broker);
    const patched = await toPending(broker, created.id, created.token);
    const res = await anonymous.get(`${ASSETS}/${created.id}`);
    expect(res.json.data).toEqual(patched.data);
    expect(res.json.data.status).toBe('pending');
  });

  it('an unknown id → 404 url / asset_id / Not Found', async () => {
    for (const id of ['0123456789abcdef0123456789abcdef', 'nope', 'ZZZ-not-hex']) {
      const res = await anonymous.get(`${ASSETS}/${id}`);
      expectErrors(res, 404, [{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
    }
  });

  it('a GET with an unknown key is served', async () => {
    const created = await createAsset(broker);
    const stranger = server.client({ key: 'ffffffffffffffffffffffffffffffff' });
    const res = await stranger.get(`${ASSETS}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data.id).toBe(created.id);
    const listing = await stranger.get(ASSETS);
    expect(listing.status).toBe(200);
    const bearer = await anonymous.get(`${ASSETS}/${created.id}`, { headers: { authorization: 'Bearer nonsense' } });
    expect(bearer.status).toBe(200);
  });

  it('internal fields (token, its hash, rev, store keys) never appear', async () => {
    const created = await createAsset(broker);
    await toPending(broker, created.id, created.token);
    const record = await server.store.get(created.id);
    expect(record).toBeDefined();
    const responses = [
      created.body.data,
      (await anonymous.get(`${ASSETS}/${created.id}`)).text,
      (await anonymous.get(`${ASSETS}?opt_fields=status,owner,title`)).text,
      (await broker.patch(`${ASSETS}/${created.id}`, { data: { title: 'Нова назва' } }, { token: created.token })).text,
    ].map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
    for (const text of responses) {
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(created.transfer);
      expect(text).not.toContain(record!.ownerTokenHash);
      expect(text).not.toContain(record!.transferTokenHash);
      for (const key of [
        'owner_token',
        'ownerToken',
        'ownerTokenHash',
        'transfer_token',
        'transferToken',
        'appliedTransfers',
        '"rev"',
        '"_rev"',
        '"_id"',
        'revisions',
        'doc_type',
        '"listed"',
        '"modified"',
      ]) {
        expect(text, key).not.toContain(key);
      }
    }
    // access.token and access.transfer appear only in the create response.
    expect(created.body.access).toEqual({ token: created.token, transfer: created.transfer });
  });

  it('HEAD is answered like GET without a body', async () => {
    const created = await createAsset(broker);
    const res = await anonymous.request('HEAD', `${ASSETS}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });
});

describe('GET /assets/{id}: ETag and If-None-Match (a mirror re-reading unchanged assets)', () => {
  const etagOf = (res: { headers: Record<string, string> }) => res.headers.etag ?? '';
  const readIfNoneMatch = (id: string, tags: string, query = '') =>
    anonymous.request('GET', `${ASSETS}/${id}${query}`, { headers: { 'if-none-match': tags } });

  it('tags the asset with its version, and answers 304 without a body while the client holds it', async () => {
    const created = await createAsset(broker);
    const first = await anonymous.get(`${ASSETS}/${created.id}`);
    expect(etagOf(first)).toMatch(/^W\/"\d+"$/);
    const again = await readIfNoneMatch(created.id, etagOf(first));
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(etagOf(again)).toBe(etagOf(first));
    expect(again.headers['content-type']).toBeUndefined();
  });

  it('a change gives a new tag: the old one gets the new asset with 200', async () => {
    const created = await createAsset(broker);
    const before = etagOf(await anonymous.get(`${ASSETS}/${created.id}`));
    const patched = await toPending(broker, created.id, created.token);
    const res = await readIfNoneMatch(created.id, before);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(patched.data);
    expect(etagOf(res)).not.toBe(before);
    expect((await readIfNoneMatch(created.id, etagOf(res))).status).toBe(304);
  });

  it('compares weakly, accepts a list and *, and ignores how the body is shaped (opt_pretty, opt_jsonp)', async () => {
    const created = await createAsset(broker);
    const tag = etagOf(await anonymous.get(`${ASSETS}/${created.id}`));
    const strong = tag.replace(/^W\//, '');
    expect((await readIfNoneMatch(created.id, strong)).status).toBe(304);
    expect((await readIfNoneMatch(created.id, `W/"1", ${tag}`)).status).toBe(304);
    expect((await readIfNoneMatch(created.id, '*')).status).toBe(304);
    expect((await readIfNoneMatch(created.id, tag, '?opt_pretty=1')).status).toBe(304);
    expect((await readIfNoneMatch(created.id, tag, '?opt_jsonp=cb')).status).toBe(304);
    const other = await readIfNoneMatch(created.id, 'W/"1", "2"');
    expect(other.status).toBe(200);
    expect(etagOf(other)).toBe(tag);
  });

  it('an unknown asset is 404 whatever the client holds', async () => {
    const res = await readIfNoneMatch('0'.repeat(32), '*');
    expectErrors(res, 404, [{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
  });

  it('serves the stored text as the wire format has it: amounts as floats, pretty on request', async () => {
    const created = await createAsset(broker);
    const compact = await anonymous.get(`${ASSETS}/${created.id}`);
    expect(compact.text).toMatch(/"amount":\d+\.\d+/);
    expect(compact.text).toBe(JSON.stringify(compact.json).replace(/"amount":(\d+)([,}])/g, '"amount":$1.0$2'));
    const pretty = await anonymous.get(`${ASSETS}/${created.id}?opt_pretty=1`);
    expect(pretty.text.split('\n')[1]).toBe('    "data": {');
    expect(pretty.json).toEqual(compact.json);
  });
});
