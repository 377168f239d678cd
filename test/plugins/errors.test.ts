/**
 * Cross-cutting behaviour of every response: JSON envelope, headers, 404/405, 415/413/422 on bodies, UTF-8,
 * X-Request-ID, health (docs/decisions/0013-one-error-envelope.md), and the order of checks
 * (docs/decisions/0014-order-of-checks.md).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../helpers/server.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { expectErrors, expectOneError } from '../helpers/expect.js';

const ASSETS = '/api/0.1/assets';
const CT_415 = {
  status: 'error',
  errors: [
    {
      location: 'header',
      name: 'Content-Type',
      description: "Content-Type header should be one of ['application/json']",
    },
  ],
};
const NO_JSON = [{ location: 'body', name: 'data', description: 'No JSON object could be decoded' }];

const server = useServer();
const { broker, anonymous } = server;

function expectJsonHeaders(res: { headers: Record<string, string> }): void {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('every response is JSON', () => {
  it('404 for an unknown path is the JSON envelope', async () => {
    for (const path of ['/', '/api/0.1', '/api/0.1/nothing', '/api/0.2/assets', `${ASSETS}/abc/papers`]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(404);
      expectJsonHeaders(res);
      expect(res.json.status).toBe('error');
      expect(res.json.errors.length).toBeGreaterThan(0);
    }
  });

  it('404 for an unknown path with a write method is still JSON (route first, then cookie)', async () => {
    const res = await broker.post('/api/0.1/nothing', { data: {} }, { autoCookie: false });
    expect(res.status).toBe(404);
    expectJsonHeaders(res);
  });

  it('405 for a wrong method, with Allow, as JSON — before the cookie check', async () => {
    const created = await createAsset(broker);
    const cases: [string, string, string[]][] = [
      ['DELETE', `${ASSETS}/${created.id}`, ['GET', 'PATCH']],
      ['PUT', `${ASSETS}/${created.id}`, ['GET', 'PATCH']],
      ['POST', `${ASSETS}/${created.id}`, ['GET', 'PATCH']],
      ['DELETE', ASSETS, ['GET', 'POST']],
      ['PATCH', ASSETS, ['GET', 'POST']],
      ['PUT', ASSETS, ['GET', 'POST']],
    ];
    for (const [method, path, allowed] of cases) {
      const fresh = server.client({ key: KEYS.broker, autoCookie: false });
      const res = await fresh.request(method, path, { json: { data: {} } });
      expect(res.status, `${method} ${path}`).toBe(405);
      expectJsonHeaders(res);
      expect(res.json.status).toBe('error');
      const allow = (res.headers.allow ?? '').split(',').map((s) => s.trim().toUpperCase());
      for (const m of allowed) expect(allow, `${method} ${path}: ${res.headers.allow}`).toContain(m);
      expect(allow).not.toContain(method);
    }
  });

  it('successes, 4xx and listing are all application/json; charset=utf-8 with nosniff', async () => {
    const created = await createAsset(broker);
    const responses = [
      await anonymous.get(ASSETS),
      await anonymous.get(`${ASSETS}/${created.id}`),
      await anonymous.get(`${ASSETS}/${'0'.repeat(32)}`),
      await broker.post(ASSETS, { data: validAsset({ title: undefined }) }),
    ];
    for (const res of responses) expectJsonHeaders(res);
  });
});

describe('content type (415)', () => {
  const body = JSON.stringify({ data: validAsset() });

  it('no Content-Type → 415 with the spec body', async () => {
    const res = await broker.request('POST', ASSETS, { body });
    expect(res.status).toBe(415);
    expect(res.json).toEqual(CT_415);
    expectJsonHeaders(res);
  });

  it('another type → 415 with the spec body', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'text/json',
    ]) {
      const res = await broker.request('POST', ASSETS, { body, headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect(res.json).toEqual(CT_415);
    }
  });

  it('application/json with another charset → 415', async () => {
    for (const type of [
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json;charset=iso-8859-1',
    ]) {
      const res = await broker.request('POST', ASSETS, { body, headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect(res.json).toEqual(CT_415);
    }
  });

  it('application/json with charset utf-8 (any case) is accepted', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'Application/JSON']) {
      const res = await broker.request('POST', ASSETS, { body, headers: { 'content-type': type } });
      expect(res.status, type).toBe(201);
    }
  });

  it('PATCH follows the same rule', async () => {
    const created = await createAsset(broker);
    const res = await broker.request('PATCH', `${ASSETS}/${created.id}`, {
      body: JSON.stringify({ data: { title: 'x' } }),
      headers: { 'content-type': 'text/plain' },
      token: created.token,
    });
    expect(res.status).toBe(415);
    expect(res.json).toEqual(CT_415);
  });
});

describe('bodies that are not a JSON object with data (422)', () => {
  const raws = [
    'data',
    '',
    '{"data":',
    '[1]',
    '"x"',
    '42',
    'null',
    '{}',
    '{"foo":1}',
    '{"data":[]}',
    '{"data":"x"}',
    '{"data":null}',
    '{"data":1}',
  ];
  for (const raw of raws) {
    it(`POST ${JSON.stringify(raw)} → 422 No JSON object could be decoded`, async () => {
      const res = await broker.request('POST', ASSETS, { body: raw, headers: { 'content-type': 'application/json' } });
      expectErrors(res, 422, NO_JSON);
    });
  }

  it('PATCH with a non-JSON body → the same 422', async () => {
    const created = await createAsset(broker);
    const res = await broker.request('PATCH', `${ASSETS}/${created.id}`, {
      body: 'data',
      headers: { 'content-type': 'application/json' },
      token: created.token,
    });
    expectErrors(res, 422, NO_JSON);
  });

  it('bytes that are not UTF-8 → 422', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"data": {"title": "'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    const data = validAsset();
    const full = Buffer.concat([
      Buffer.from(JSON.stringify({ data: { ...data, title: 'PLACEHOLDER' } }).split('PLACEHOLDER')[0]!),
      Buffer.from([0xd0, 0x9f, 0xff]), // a valid Cyrillic letter then a stray byte
      Buffer.from(JSON.stringify({ data: { ...data, title: 'PLACEHOLDER' } }).split('PLACEHOLDER')[1]!),
    ]);
    for (const body of [bytes, full]) {
      const res = await broker.request('POST', ASSETS, { body, headers: { 'content-type': 'application/json' } });
      expect(res.status, res.text).toBe(422);
      expectJsonHeaders(res);
      expect(res.json.status).toBe('error');
      expect(res.json.errors[0].location).toBe('body');
    }
  });

  it('a string or name escaping a lone surrogate → 422, nothing changed; a pair escaped is a character', async () => {
    const created = await createAsset(broker);
    const before = (await broker.get(`${ASSETS}/${created.id}`)).json.data;
    for (const text of ['"a\\ud800b"', '"\\udc00"', '"\\ud800\\ud800"']) {
      for (const data of [`{"title": ${text}}`, `{"title": "x", "items": [{${text}: 1}]}`]) {
        const res = await broker.request('PATCH', `${ASSETS}/${created.id}`, {
          body: `{"data": ${data}}`,
          headers: { 'content-type': 'application/json' },
          token: created.token,
        });
        expectOneError(res, 422, 'body', 'data');
      }
    }
    expect((await broker.get(`${ASSETS}/${created.id}`)).json.data).toEqual(before);
    const pair = await broker.request('PATCH', `${ASSETS}/${created.id}`, {
      body: '{"data": {"title": "\\ud83d\\ude00 \\\\ud800"}}',
      headers: { 'content-type': 'application/json' },
      token: created.token,
    });
    expect(pair.status, pair.text).toBe(200);
    expect(pair.json.data.title).toBe('😀 \\ud800');
  });

  it('a UTF-8 body with Cyrillic is stored and returned intact', async () => {
    const res = await broker.request('POST', ASSETS, {
      body: Buffer.from(JSON.stringify({ data: validAsset({ title: 'Ґанок і їжак — ЄС' }) }), 'utf8'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.title).toBe('Ґанок і їжак — ЄС');
  });
});

describe('body size limit (413)', () => {
  const { broker: client } = useServer({ BODY_LIMIT: '2048' });

  it('a body over BODY_LIMIT → 413 with the JSON envelope', async () => {
    const big = JSON.stringify({ data: validAsset({ description: 'x'.repeat(5000) }) });
    const res = await client.request('POST', ASSETS, { body: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expectJsonHeaders(res);
    expect(res.json.status).toBe('error');
    expect(res.json.errors.length).toBeGreaterThan(0);
  });

  it('a body under the limit is served', async () => {
    const data = validAsset({ items: undefined, debt: undefined });
    const res = await client.post(ASSETS, { data });
    expect(Buffer.byteLength(JSON.stringify({ data }))).toBeLessThan(2048);
    expect(res.status, res.text).toBe(201);
  });

  it('order: 415 before 413, 401 before 413, 413 before 422', async () => {
    const big = 'x'.repeat(5000);
    const ct = await client.request('POST', ASSETS, { body: big, headers: { 'content-type': 'text/plain' } });
    expect(ct.status).toBe(415);
    const noKey = await client.request('POST', ASSETS, {
      body: big,
      headers: { 'content-type': 'application/json' },
      key: null,
    });
    expect(noKey.status).toBe(401);
    const garbage = await client.request('POST', ASSETS, {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.status).toBe(413);
  });
});

describe('X-Request-ID', () => {
  it('is echoed when sent', async () => {
    const res = await anonymous.get(ASSETS, { headers: { 'x-request-id': 'req-abc-123' } });
    expect(res.headers['x-request-id']).toBe('req-abc-123');
    const err = await anonymous.get('/api/0.1/nothing', { headers: { 'x-request-id': 'req-err-1' } });
    expect(err.headers['x-request-id']).toBe('req-err-1');
  });

  it('is generated, distinct per request, when not sent (errors included)', async () => {
    const a = await anonymous.get(ASSETS);
    const b = await anonymous.get(ASSETS);
    const c = await broker.post(ASSETS, { data: {} });
    for (const r of [a, b, c]) expect(r.headers['x-request-id']?.length ?? 0).toBeGreaterThan(0);
    expect(new Set([a, b, c].map((r) => r.headers['x-request-id'])).size).toBe(3);
  });
});

describe('health', () => {
  it('GET /api/0.1/health → 200 JSON', async () => {
    const res = await anonymous.get('/api/0.1/health');
    expect(res.status).toBe(200);
    expectJsonHeaders(res);
  });
});

// docs/decisions/0014-order-of-checks.md
describe('order of checks (record 0014)', () => {
  it('no cookie on a write → 412 before the key check (cookies / SERVER_ID)', async () => {
    const fresh = server.client({ autoCookie: false });
    const res = await fresh.post(ASSETS, { data: validAsset() });
    expectOneError(res, 412, 'cookies', 'SERVER_ID');
    expect(res.setCookies.some((c) => c.startsWith('SERVER_ID='))).toBe(true);
  });

  it('no key AND bad content type → 401 first, with WWW-Authenticate', async () => {
    const res = await anonymous.request('POST', ASSETS, {
      body: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.json.status).toBe('error');
  });

  it('unknown key AND bad content type → 401', async () => {
    const res = await anonymous.request('POST', ASSETS, {
      body: 'a=b',
      headers: { 'content-type': 'text/plain' },
      key: 'ffffffffffffffffffffffffffffffff',
    });
    expect(res.status).toBe(401);
  });

  it('valid key AND bad content type → 415', async () => {
    const res = await broker.request('POST', ASSETS, { body: 'a=b', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
  });

  it('bad content type on an unknown asset → 415 before 404', async () => {
    const res = await broker.request('PATCH', `${ASSETS}/${'0'.repeat(32)}`, {
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });

  it('non-JSON body on an unknown asset → 422 before 404', async () => {
    const res = await broker.request('PATCH', `${ASSETS}/${'0'.repeat(32)}`, {
      body: 'data',
      headers: { 'content-type': 'application/json' },
    });
    expectErrors(res, 422, NO_JSON);
  });

  it('unknown asset id with an invalid data body → 404 before field validation', async () => {
    const res = await broker.patch(
      `${ASSETS}/${'0'.repeat(32)}`,
      { data: { value: { amount: -1 }, rogue: 1 } },
      { token: 'x' },
    );
    expectErrors(res, 404, [{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
  });

  it('no key on PATCH of an unknown asset → 401 before 404', async () => {
    const res = await anonymous.patch(`${ASSETS}/${'0'.repeat(32)}`, { data: { title: 'x' } });
    expect(res.status).toBe(401);
  });

  it('no permission AND an invalid field → 403 before 422', async () => {
    const created = await createAsset(broker);
    const other = broker.as(KEYS.broker2);
    const res = await other.patch(`${ASSETS}/${created.id}`, { data: { rogue: 1, value: { amount: -1 } } });
    expect(res.status).toBe(403);
    const wrongToken = await broker.patch(`${ASSETS}/${created.id}`, { data: { rogue: 1 } }, { token: 'f'.repeat(32) });
    expect(wrongToken.status).toBe(403);
  });

  it('permission granted AND an invalid field → 422', async () => {
    const created = await createAsset(broker);
    const res = await broker.patch(`${ASSETS}/${created.id}`, { data: { rogue: 1 } }, { token: created.token });
    expectErrors(res, 422, [{ location: 'body', name: 'rogue', description: 'Rogue field' }]);
  });
});
