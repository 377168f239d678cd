/**
 * POST /api/0.1/transfers and GET /api/0.1/transfers/{id} (docs/decisions/0033-ownership-transfer-in-two-writes.md):
 * who may create and read, the answer's shape and tokens, the tokens kept only as hashes, 401 / 403 / 404 / 405 /
 * 422.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/domain/ids.js';
import { expectOneError } from '../../helpers/expect.js';
import { useServer } from '../../helpers/server.js';

const TRANSFERS = '/api/0.1/transfers';
const DATE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/;
const UNAUTHORIZED = 'A known API key is required (Basic auth user name)';

const server = useServer();
const { broker, broker2, admin, concierge, anonymous } = server;

describe('POST /transfers', () => {
  it('201 with Location, data {id, date} and the two tokens in access', async () => {
    const res = await broker2.post(TRANSFERS, { data: {} });
    expect(res.status, res.text).toBe(201);
    const { data, access } = res.json;
    expect(Object.keys(res.json).sort()).toEqual(['access', 'data']);
    expect(Object.keys(data).sort()).toEqual(['date', 'id']);
    expect(data.id).toMatch(/^[0-9a-f]{32}$/);
    expect(data.date).toMatch(DATE_RE);
    expect(access.token).toMatch(/^[0-9a-f]{32}$/);
    expect(access.transfer).toMatch(/^[0-9a-f]{32}$/);
    expect(access.token).not.toBe(access.transfer);
    expect(res.headers.location).toBe(`${server.url}${TRANSFERS}/${data.id}`);

    const read = await broker2.get(res.headers.location!.slice(server.url.length));
    expect(read.status, read.text).toBe(200);
    expect(read.json).toEqual({ data });
  });

  it('is open to admins, and gives each transfer its own id and tokens', async () => {
    const [a, b] = [await admin.post(TRANSFERS, { data: {} }), await admin.post(TRANSFERS, { data: {} })];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(
      new Set([
        a.json.data.id,
        b.json.data.id,
        a.json.access.token,
        b.json.access.token,
        a.json.access.transfer,
        b.json.access.transfer,
      ]).size,
    ).toBe(6);
  });

  it('ignores whatever data holds', async () => {
    const forged = {
      id: 'f'.repeat(32),
      date: '2000-01-01T00:00:00.000000+02:00',
      usedFor: `/assets/${'a'.repeat(32)}`,
      owner: 'broker',
    };
    const res = await broker2.post(TRANSFERS, { data: forged });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.id).not.toBe(forged.id);
    expect(res.json.data).not.toHaveProperty('usedFor');
    expect((await server.store.transfers.get(res.json.data.id))?.owner).toBe('broker2');
  });

  it('keeps the tokens only as hashes', async () => {
    const res = await broker2.post(TRANSFERS, { data: {} });
    const { token, transfer } = res.json.access;
    const record = await server.store.transfers.get(res.json.data.id);
    expect(record).toMatchObject({ ownerTokenHash: hashToken(token), transferTokenHash: hashToken(transfer) });
    expect(JSON.stringify(record)).not.toContain(token);
    expect(JSON.stringify(record)).not.toContain(transfer);
    const read = await broker2.get(`${TRANSFERS}/${res.json.data.id}`);
    for (const secret of [token, transfer, record!.ownerTokenHash, record!.transferTokenHash])
      expect(read.text).not.toContain(secret);
    if (!process.env.MONGODB_URI) {
      const files = (await readdir(server.dataDir)).filter((f) => f.startsWith('registry.sqlite'));
      expect(files).toContain('registry.sqlite');
      for (const f of files) {
        const bytes = await readFile(join(server.dataDir, f));
        for (const secret of [token, transfer])
          expect(bytes.includes(Buffer.from(secret, 'latin1')), `${f} holds a token`).toBe(false);
      }
    }
  });

  it('401 without a key or with an unknown one, with WWW-Authenticate', async () => {
    for (const key of [null, 'f'.repeat(32)]) {
      const res = await anonymous.post(TRANSFERS, { data: {} }, { key });
      expectOneError(res, 401, 'header', 'Authorization', UNAUTHORIZED);
      expect(res.headers['www-authenticate']).toBe('Basic realm="registry"');
    }
  });

  it('403 for the concierge', async () => {
    expectOneError(await concierge.post(TRANSFERS, { data: {} }), 403, 'url', 'permission', 'Forbidden');
  });

  it('422 for a body without an object data, 415 for another content type', async () => {
    for (const body of [{}, { data: [] }, { data: 'x' }, []]) {
      expectOneError(await broker2.post(TRANSFERS, body), 422, 'body', 'data', 'No JSON object could be decoded');
    }
    const res = await broker2.request('POST', TRANSFERS, {
      body: '{"data": {}}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status, res.text).toBe(415);
  });

  it('GET /transfers is 405 with Allow: there is no listing of transfers', async () => {
    const res = await broker2.get(TRANSFERS);
    expect(res.status, res.text).toBe(405);
    expect(res.headers.allow).toMatch(/POST/);
    expect(res.headers.allow).not.toMatch(/GET/);
  });
});

describe('GET /transfers/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await broker2.post(TRANSFERS, { data: {} })).json.data.id;
  });

  it('any broker and admins may read a transfer', async () => {
    for (const client of [broker, broker2, admin]) {
      const res = await client.get(`${TRANSFERS}/${id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.id).toBe(id);
    }
  });

  it('401 without a key or with an unknown one: unlike an asset, a transfer is not public', async () => {
    for (const key of [null, 'f'.repeat(32)]) {
      const res = await anonymous.get(`${TRANSFERS}/${id}`, { key });
      expectOneError(res, 401, 'header', 'Authorization', UNAUTHORIZED);
      expect(res.headers['www-authenticate']).toBe('Basic realm="registry"');
    }
  });

  it('404 url / transfer_id for an unknown transfer, 403 for the concierge on a known one', async () => {
    for (const client of [broker2, concierge]) {
      expectOneError(await client.get(`${TRANSFERS}/${'0'.repeat(32)}`), 404, 'url', 'transfer_id', 'Not Found');
    }
    expectOneError(await concierge.get(`${TRANSFERS}/${id}`), 403, 'url', 'permission', 'Forbidden');
  });

  it('405 with Allow for a method the path does not have', async () => {
    const res = await broker2.request('DELETE', `${TRANSFERS}/${id}`);
    expect(res.status, res.text).toBe(405);
    expect(res.headers.allow).toMatch(/GET/);
  });
});
