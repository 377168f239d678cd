/**
 * POST /api/0.1/assets/{id}/ownership (docs/decisions/0033-ownership-transfer-in-two-writes.md): the effect of a
 * transfer, every check in its order, and races (several transfers for one asset, one transfer for several assets)
 * that leave exactly one new owner. The same file runs on the embedded store and, with MONGODB_URI, on MongoDB. A
 * call cut short by a crash is test/reliability/transfer-crash.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Client, Response } from '../../helpers/client.js';
import { createAsset, toPending, type Created } from '../../helpers/fixtures.js';
import { expectErrors, expectOneError } from '../../helpers/expect.js';
import { KEYS, useServer } from '../../helpers/server.js';
import { written } from '../../store/fixtures/drafts.js';

const ASSETS = '/api/0.1/assets';
const TRANSFERS = '/api/0.1/transfers';
const ownership = (assetId: string) => `${ASSETS}/${assetId}/ownership`;
const UNKNOWN = '0'.repeat(32);

const server = useServer();
const { broker, broker2, admin, concierge, anonymous: reader } = server;

interface Transfer {
  id: string;
  date: string;
  token: string;
  transfer: string;
}

async function newTransfer(client: Client = broker2): Promise<Transfer> {
  const res = await client.post(TRANSFERS, { data: {} });
  if (res.status !== 201) throw new Error(`POST /transfers answered ${res.status}: ${res.text}`);
  return { id: res.json.data.id, date: res.json.data.date, ...res.json.access };
}

/** A pending asset of `broker` (listed in the feed). */
async function pendingAsset(): Promise<Created> {
  const created = await createAsset(broker);
  const pending = await toPending(broker, created.id, created.token);
  return { ...created, body: pending };
}

async function read(id: string): Promise<any> {
  const res = await reader.get(`${ASSETS}/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

const apply = (client: Client, assetId: string, data: Record<string, unknown>): Promise<Response> =>
  client.post(ownership(assetId), { data });

async function adminMoves(id: string, moves: Record<string, unknown>[]): Promise<void> {
  for (const data of moves) {
    const res = await admin.patch(`${ASSETS}/${id}`, { data });
    expect(res.status, res.text).toBe(200);
  }
}

describe('the effect of a transfer', () => {
  it('200 {data: asset}: owner, dateModified and nothing else of the asset changes; the asset is listed again', async () => {
    const asset = await pendingAsset();
    const before = await read(asset.id);
    const t = await newTransfer();
    const res = await apply(broker2, asset.id, { id: t.id, transfer: asset.transfer });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual(['data']);
    const { owner, dateModified, ...rest } = res.json.data;
    const { owner: owner0, dateModified: modified0, ...rest0 } = before;
    expect([owner0, owner]).toEqual(['broker', 'broker2']);
    expect(rest).toEqual(rest0);
    expect(dateModified > modified0).toBe(true);
    expect(await read(asset.id)).toEqual(res.json.data);

    const feed = await reader.get(`${ASSETS}?offset=${encodeURIComponent(modified0)}`);
    expect(feed.json.data).toContainEqual({ id: asset.id, dateModified });
  });

  it('the transfer’s tokens become the asset’s: the old owner token stops working, the new one works', async () => {
    const asset = await pendingAsset();
    const t = await newTransfer();
    expect((await apply(broker2, asset.id, { id: t.id, transfer: asset.transfer })).status).toBe(200);

    expect(
      (await broker.patch(`${ASSETS}/${asset.id}`, { data: { title: 'old' } }, { token: asset.token })).status,
    ).toBe(403);
    // The owner is a key and a token: the old owner's key with the new token is not enough either.
    expect((await broker.patch(`${ASSETS}/${asset.id}`, { data: { title: 'old' } }, { token: t.token })).status).toBe(
      403,
    );
    const edited = await broker2.patch(`${ASSETS}/${asset.id}`, { data: { title: 'new owner' } }, { token: t.token });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.data.title).toBe('new owner');

    // And the transfer's own transfer token hands the asset on again.
    const back = await newTransfer(broker);
    const res = await apply(broker, asset.id, { id: back.id, transfer: t.transfer });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.owner).toBe('broker');
    expect(
      (await broker.patch(`${ASSETS}/${asset.id}`, { data: { title: 'back' } }, { token: back.token })).status,
    ).toBe(200);
  });

  it('the transfer shows usedFor and the moment it was used; the same call again is Invalid transfer and changes nothing', async () => {
    const asset = await pendingAsset();
    const t = await newTransfer();
    expect((await broker2.get(`${TRANSFERS}/${t.id}`)).json.data).toEqual({ id: t.id, date: t.date });
    const call = { id: t.id, transfer: asset.transfer };
    const applied = await apply(broker2, asset.id, call);
    expect(applied.status, applied.text).toBe(200);

    const shown = (await broker2.get(`${TRANSFERS}/${t.id}`)).json.data;
    expect(shown.usedFor).toBe(`/assets/${asset.id}`);
    expect(shown.date > t.date).toBe(true);
    expect(shown.date <= applied.json.data.dateModified).toBe(true);

    expectOneError(await apply(broker2, asset.id, call), 403, 'body', 'transfer', 'Invalid transfer');
    expect(await read(asset.id)).toEqual(applied.json.data);
    expect((await broker2.get(`${TRANSFERS}/${t.id}`)).json.data).toEqual(shown);
  });

  it('the owner becomes the transfer’s creator, whoever applies it (an admin here); a draft stays unlisted', async () => {
    const draft = await createAsset(broker);
    const t = await newTransfer();
    const res = await apply(admin, draft.id, { id: t.id, transfer: draft.transfer });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ owner: 'broker2', status: 'draft' });
    const feed = await reader.get(`${ASSETS}?mode=_all_&limit=1000`);
    expect(feed.json.data.map((entry: any) => entry.id)).not.toContain(draft.id);
  });

  it('sent with the transfer’s own transfer token (the asset already has its tokens): 200, nothing changes', async () => {
    const asset = await pendingAsset();
    const t = await newTransfer();
    const applied = (await apply(broker2, asset.id, { id: t.id, transfer: asset.transfer })).json.data;
    const again = await apply(broker2, asset.id, { id: t.id, transfer: t.transfer });
    expect(again.status, again.text).toBe(200);
    expect(again.json.data).toEqual(applied);
    expect(await read(asset.id)).toEqual(applied);
  });

  it('works in every status but deleted and complete', async () => {
    const asset = await pendingAsset();
    const relatedLot = 'b5ca6aa850694154b6a5f6db4e65f5da';
    let transferToken = asset.transfer;
    const moves: [string, Record<string, unknown>][] = [
      ['verification', { status: 'verification' }],
      ['active', { status: 'active', relatedLot }],
    ];
    for (const [status, data] of moves) {
      await adminMoves(asset.id, [data]);
      const t = await newTransfer();
      const res = await apply(broker2, asset.id, { id: t.id, transfer: transferToken });
      expect(res.status, `${status}: ${res.text}`).toBe(200);
      expect(res.json.data.status).toBe(status);
      transferToken = t.transfer;
    }
  });
});

// docs/decisions/0033-ownership-transfer-in-two-writes.md
describe('the checks, in the order of record 0033', () => {
  it('401 without a key, before anything else', async () => {
    const res = await reader.post(ownership(UNKNOWN), { data: {} });
    expectOneError(res, 401, 'header', 'Authorization');
    expect(res.headers['www-authenticate']).toBe('Basic realm="registry"');
  });

  it('422 for a body without an object data, even on an unknown asset', async () => {
    expectOneError(await broker2.post(ownership(UNKNOWN), {}), 422, 'body', 'data', 'No JSON object could be decoded');
  });

  it('404 url / asset_id for an unknown asset, whatever the body and the caller', async () => {
    for (const client of [broker2, concierge]) {
      expectOneError(await apply(client, UNKNOWN, {}), 404, 'url', 'asset_id', 'Not Found');
    }
  });

  it('403 for the concierge, before the fields', async () => {
    const asset = await pendingAsset();
    expectOneError(await apply(concierge, asset.id, {}), 403, 'url', 'permission', 'Forbidden');
  });

  it('422 when id or transfer is missing or not a non-empty string, before the asset’s status', async () => {
    const asset = await pendingAsset();
    await broker.patch(`${ASSETS}/${asset.id}`, { data: { status: 'deleted' } }, { token: asset.token });
    expectErrors(await apply(broker2, asset.id, {}), 422, [
      { location: 'body', name: 'id', description: ['This field is required.'] },
      { location: 'body', name: 'transfer', description: ['This field is required.'] },
    ]);
    expectOneError(await apply(broker2, asset.id, { id: UNKNOWN, transfer: null }), 422, 'body', 'transfer', [
      'This field is required.',
    ]);
    expectOneError(await apply(broker2, asset.id, { id: 7, transfer: 'x' }), 422, 'body', 'id', [
      "Couldn't interpret '7' as string.",
    ]);
    expectOneError(await apply(broker2, asset.id, { id: '', transfer: 'x' }), 422, 'body', 'id', [
      'String value is too short.',
    ]);
  });

  it('403 for a deleted or complete asset, before the transfer token', async () => {
    const deleted = await pendingAsset();
    await broker.patch(`${ASSETS}/${deleted.id}`, { data: { status: 'deleted' } }, { token: deleted.token });
    const complete = await pendingAsset();
    await adminMoves(complete.id, [
      { status: 'verification' },
      { status: 'active', relatedLot: 'b5ca6aa850694154b6a5f6db4e65f5da' },
      { status: 'complete' },
    ]);
    const t = await newTransfer();
    for (const [asset, status] of [
      [deleted, 'deleted'],
      [complete, 'complete'],
    ] as const) {
      const before = await read(asset.id);
      for (const data of [
        { id: t.id, transfer: asset.transfer },
        { id: UNKNOWN, transfer: 'wrong' },
      ]) {
        expectOneError(
          await apply(broker2, asset.id, data),
          403,
          'body',
          'data',
          `Can't update credentials in current (${status}) asset status`,
        );
      }
      expect(await read(asset.id)).toEqual(before);
    }
    expect((await broker2.get(`${TRANSFERS}/${t.id}`)).json.data).not.toHaveProperty('usedFor');
  });

  it('403 Invalid transfer for a token that is not the asset’s, before an unknown transfer', async () => {
    const asset = await pendingAsset();
    const other = await pendingAsset();
    const t = await newTransfer();
    for (const transfer of [asset.token, other.transfer, 'not a token']) {
      expectOneError(
        await apply(broker2, asset.id, { id: t.id, transfer }),
        403,
        'body',
        'transfer',
        'Invalid transfer',
      );
    }
    expectOneError(
      await apply(broker2, asset.id, { id: UNKNOWN, transfer: 'wrong' }),
      403,
      'body',
      'transfer',
      'Invalid transfer',
    );
    expect(await read(asset.id)).toEqual(asset.body.data);
    expect((await broker2.get(`${TRANSFERS}/${t.id}`)).json.data).not.toHaveProperty('usedFor');
  });

  it('404 body / id for an unknown transfer', async () => {
    const asset = await pendingAsset();
    expectOneError(
      await apply(broker2, asset.id, { id: UNKNOWN, transfer: asset.transfer }),
      404,
      'body',
      'id',
      'Not Found',
    );
    expect(await read(asset.id)).toEqual(asset.body.data);
  });

  it('403 Transfer already used for a transfer used for another asset', async () => {
    const first = await pendingAsset();
    const second = await pendingAsset();
    const t = await newTransfer();
    expect((await apply(broker2, first.id, { id: t.id, transfer: first.transfer })).status).toBe(200);
    expectOneError(
      await apply(broker2, second.id, { id: t.id, transfer: second.transfer }),
      403,
      'body',
      'transfer',
      'Transfer already used',
    );
    expect(await read(second.id)).toEqual(second.body.data);
  });

  it('an asset created before transfers existed has no transfer token: every call is Invalid transfer', async () => {
    const asset = await pendingAsset();
    const record = (await server.store.get(asset.id))!;
    // A record written before transfers existed: no transfer token hash.
    const legacy = await server.store.update(asset.id, record.rev, (stamp) =>
      written({ ...record, transferTokenHash: null, modified: stamp.now }, record.asset),
    );
    expect(legacy).not.toBe('conflict');
    const t = await newTransfer();
    for (const transfer of [asset.transfer, asset.token]) {
      expectOneError(
        await apply(broker2, asset.id, { id: t.id, transfer }),
        403,
        'body',
        'transfer',
        'Invalid transfer',
      );
    }
  });

  it('GET on the ownership path is 405 with Allow: POST', async () => {
    const asset = await pendingAsset();
    const res = await broker2.get(ownership(asset.id));
    expect(res.status, res.text).toBe(405);
    expect(res.headers.allow).toMatch(/POST/);
  });
});

describe('races', () => {
  it('several transfers racing for one asset: one new owner, the others Invalid transfer and still unused', async () => {
    const asset = await pendingAsset();
    const racers = await Promise.all(Array.from({ length: 6 }, () => newTransfer()));
    // One client (and cookie jar) per request, as separate brokers would send them.
    const answers = await Promise.all(
      racers.map((t) => apply(server.client({ key: KEYS.broker2 }), asset.id, { id: t.id, transfer: asset.transfer })),
    );
    const won = answers.flatMap((res, i) => (res.status === 200 ? [racers[i]!] : []));
    expect(won, answers.map((res) => res.text).join('\n')).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200))
      expectOneError(res, 403, 'body', 'transfer', 'Invalid transfer');

    const winner = won[0]!;
    const tokenWorks = async (token: string) =>
      (await broker2.patch(`${ASSETS}/${asset.id}`, { data: { description: token } }, { token })).status === 200;
    expect(await tokenWorks(winner.token)).toBe(true);
    for (const loser of racers.filter((t) => t !== winner)) {
      expect(await tokenWorks(loser.token)).toBe(false);
      expect((await broker2.get(`${TRANSFERS}/${loser.id}`)).json.data).toEqual({ id: loser.id, date: loser.date });
    }
    // A lost race leaves the transfer free: it can still be applied elsewhere.
    const loser = racers.find((t) => t !== winner)!;
    const elsewhere = await pendingAsset();
    expect((await apply(broker2, elsewhere.id, { id: loser.id, transfer: elsewhere.transfer })).status).toBe(200);
  });

  it('one transfer racing for several assets: exactly one takes it, the others Transfer already used', async () => {
    const assets = await Promise.all(Array.from({ length: 5 }, () => pendingAsset()));
    const t = await newTransfer();
    const answers = await Promise.all(
      assets.map((asset) =>
        apply(server.client({ key: KEYS.broker2 }), asset.id, { id: t.id, transfer: asset.transfer }),
      ),
    );
    expect(
      answers.filter((res) => res.status === 200),
      answers.map((res) => res.text).join('\n'),
    ).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200))
      expectOneError(res, 403, 'body', 'transfer', 'Transfer already used');
    const owners = await Promise.all(assets.map(async (asset) => (await read(asset.id)).owner));
    expect(owners.filter((owner) => owner === 'broker2')).toHaveLength(1);
    const taken = assets[owners.indexOf('broker2')]!;
    expect((await broker2.get(`${TRANSFERS}/${t.id}`)).json.data.usedFor).toBe(`/assets/${taken.id}`);
  });
});
