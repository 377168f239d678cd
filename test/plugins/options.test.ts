/**
 * opt_pretty / opt_jsonp / opt_fields: spec "Common options", docs/decisions/0016-response-options.md.
 * JSONP body shape: `/**\/<cb>(<json>);` as Pyramid 1.9 writes it (behaviour §7.2).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { expectErrors } from '../helpers/expect.js';

const ASSETS = '/api/0.1/assets';

const { broker, anonymous } = useServer();
let asset: { id: string; token: string; body: any };

beforeAll(async () => {
  asset = await createAsset(broker);
  await toPending(broker, asset.id, asset.token);
});

/** `/**\/cb({...});` → the parsed argument; fails on any other shape. */
function unwrap(text: string, callback: string): any {
  const prefix = `/**/${callback}(`;
  expect(text.startsWith(prefix), text.slice(0, 80)).toBe(true);
  expect(text.endsWith(');'), text.slice(-40)).toBe(true);
  return JSON.parse(text.slice(prefix.length, -2));
}

describe('opt_pretty', () => {
  it('indents by 4 and breaks lines; same data as compact', async () => {
    const compact = await anonymous.get(`${ASSETS}/${asset.id}`);
    const pretty = await anonymous.get(`${ASSETS}/${asset.id}?opt_pretty=1`);
    expect(pretty.status).toBe(200);
    expect(pretty.text.startsWith('{\n    "data": {\n        "')).toBe(true);
    expect(pretty.json).toEqual(compact.json);
    expect(compact.text).not.toContain('\n');
    // Amounts stay floats when pretty.
    expect(pretty.text).toMatch(/"amount": 100\.0\b/);
  });

  it('works on the listing and on POST (query or body options)', async () => {
    const listing = await anonymous.get(`${ASSETS}?opt_pretty=1`);
    expect(listing.text).toMatch(/^\{\n {4}"/);
    const byQuery = await broker.post(`${ASSETS}?opt_pretty=1`, { data: validAsset() });
    expect(byQuery.status).toBe(201);
    expect(byQuery.text).toMatch(/^\{\n {4}"/);
    const byBody = await broker.post(ASSETS, { data: validAsset(), options: { pretty: true } });
    expect(byBody.status).toBe(201);
    expect(byBody.text).toMatch(/^\{\n {4}"/);
  });

  it('the body option wins over the query', async () => {
    const off = await broker.post(`${ASSETS}?opt_pretty=1`, { data: validAsset(), options: { pretty: false } });
    expect(off.status).toBe(201);
    expect(off.text).not.toContain('\n');
  });

  it('PATCH honours the body option', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(
      `${ASSETS}/${created.id}`,
      { data: { title: 'x' }, options: { pretty: true } },
      { token: created.token },
    );
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^\{\n {4}"data"/);
  });
});

describe('opt_jsonp', () => {
  it('wraps the response as /**/cb(...); in application/javascript', async () => {
    const plain = await anonymous.get(`${ASSETS}/${asset.id}`);
    const res = await anonymous.get(`${ASSETS}/${asset.id}?opt_jsonp=callback`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(unwrap(res.text, 'callback')).toEqual(plain.json);
    expect(res.text).toMatch(/"amount":\s*100\.0\b/);
  });

  it('accepts plain identifier paths', async () => {
    for (const cb of ['cb', '$', '_x', 'jQuery123_456', 'a.b.c', '$.fn.handler', 'window.cb1']) {
      const res = await anonymous.get(`${ASSETS}/${asset.id}?opt_jsonp=${encodeURIComponent(cb)}`);
      expect(res.status, cb).toBe(200);
      expect(unwrap(res.text, cb).data.id).toBe(asset.id);
    }
  });

  it('an invalid callback name → 400 JSON envelope', async () => {
    for (const cb of ['alert(1)', '1abc', 'a-b', 'x;y', 'a b', '<script>', 'a.', 'a..b']) {
      const res = await anonymous.get(`${ASSETS}/${asset.id}?opt_jsonp=${encodeURIComponent(cb)}`);
      expect(res.status, JSON.stringify(cb)).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json.status).toBe('error');
      expect(res.json.errors.length).toBeGreaterThan(0);
    }
  });

  it('combines with pretty', async () => {
    const res = await anonymous.get(`${ASSETS}/${asset.id}?opt_jsonp=callback&opt_pretty=1`);
    expect(res.status).toBe(200);
    expect(res.text.startsWith('/**/callback({\n    "data": {\n        "')).toBe(true);
    expect(unwrap(res.text, 'callback').data.id).toBe(asset.id);
  });

  it('applies to the listing and to POST (201 in application/javascript)', async () => {
    const listing = await anonymous.get(`${ASSETS}?opt_jsonp=callback`);
    expect(listing.status).toBe(200);
    expect(unwrap(listing.text, 'callback').data).toEqual(expect.any(Array));
    const post = await broker.post(`${ASSETS}?opt_jsonp=callback`, { data: validAsset() });
    expect(post.status).toBe(201);
    expect(post.headers['content-type']).toBe('application/javascript; charset=utf-8');
    const body = unwrap(post.text, 'callback');
    expect(body.data.status).toBe('draft');
    expect(body.access.token).toEqual(expect.any(String));
    expect(new URL(post.headers.location!).pathname).toBe(`${ASSETS}/${body.data.id}`);
  });

  it('the body option wins over the query', async () => {
    const res = await broker.post(`${ASSETS}?opt_jsonp=fromQuery`, {
      data: validAsset(),
      options: { jsonp: 'fromBody' },
    });
    expect(res.status).toBe(201);
    expect(unwrap(res.text, 'fromBody').data.status).toBe('draft');
  });

  it('an invalid callback in the body options → 400', async () => {
    const res = await broker.post(ASSETS, { data: validAsset(), options: { jsonp: 'alert(1)' } });
    expect(res.status).toBe(400);
    expect(res.json.status).toBe('error');
  });
});

describe('errors are never pretty or wrapped', () => {
  it('404 with opt_pretty and opt_jsonp is compact JSON', async () => {
    const res = await anonymous.get(`${ASSETS}/${'0'.repeat(32)}?opt_pretty=1&opt_jsonp=callback`);
    expectErrors(res, 404, [{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
    expect(res.text).not.toContain('\n');
    expect(res.text.startsWith('{')).toBe(true);
  });

  it('422 on POST with pretty/jsonp options is compact JSON', async () => {
    const byQuery = await broker.post(`${ASSETS}?opt_pretty=1&opt_jsonp=callback`, {
      data: validAsset({ title: undefined }),
    });
    expect(byQuery.status).toBe(422);
    expect(byQuery.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(byQuery.text).not.toContain('\n');
    const byBody = await broker.post(ASSETS, {
      data: validAsset({ title: undefined }),
      options: { pretty: true, jsonp: 'callback' },
    });
    expect(byBody.status).toBe(422);
    expect(byBody.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(byBody.text).not.toContain('\n');
  });

  it('401/415/404 path errors with options stay compact JSON', async () => {
    const q = '?opt_pretty=1&opt_jsonp=callback';
    const responses = [
      await broker.post(`${ASSETS}${q}`, { data: validAsset() }, { key: null }),
      await broker.request('POST', `${ASSETS}${q}`, { body: 'x', headers: { 'content-type': 'text/plain' } }),
      await anonymous.get(`/api/0.1/nothing${q}`),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 415, 404]);
    for (const r of responses) {
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.text).not.toContain('\n');
      expect(JSON.parse(r.text).status).toBe('error');
    }
  });
});

describe('opt_fields', () => {
  it('is ignored on a single object', async () => {
    const plain = await anonymous.get(`${ASSETS}/${asset.id}`);
    const fields = await anonymous.get(`${ASSETS}/${asset.id}?opt_fields=status,assetID`);
    expect(fields.status).toBe(200);
    expect(fields.json).toEqual(plain.json);
  });

  it('shapes listing items (id, dateModified + the fields)', async () => {
    const res = await anonymous.get(`${ASSETS}?opt_fields=status`);
    expect(res.status).toBe(200);
    const row = res.json.data.find((r: any) => r.id === asset.id);
    expect(Object.keys(row).sort()).toEqual(['dateModified', 'id', 'status']);
    expect(row.status).toBe('pending');
  });
});
