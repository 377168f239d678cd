/**
 * GET /api/0.1/assets/{id}: spec "Read one asset", decisions.md §8 (reads need no key; unknown id 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startServer, type TestServer } from '../../helpers/server.js';
import { Client } from '../../helpers/client.js';
import { createAsset, toPending } from '../../helpers/fixtures.js';
import { expectErrors } from '../../helpers/expect.js';

const ASSETS = '/api/0.1/assets';

let server: TestServer;
let broker: Client;
let anonymous: Client;

beforeAll(async () => {
  server = await startServer();
  broker = new Client(server.url, { key: KEYS.broker });
  anonymous = new Client(server.url);
});
afterAll(async () => {
  await server?.close();
});

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
    const stranger = new Client(server.url, { key: 'ffffffffffffffffffffffffffffffff' });
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
