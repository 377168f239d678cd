/**
 * PATCH /api/0.1/assets/{id}: merge semantics (docs/decisions/0008-patch-merges-as-the-original.md), dates, owner
 * token transport and checks, order of checks (docs/decisions/0014-order-of-checks.md), and the owner token kept
 * only as a hash (docs/decisions/0009-ids-tokens-and-asset-id.md).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../../helpers/server.js';
import { micros } from '../../helpers/dates.js';
import type { Response } from '../../helpers/client.js';
import { createAsset, toPending, validAsset } from '../../helpers/fixtures.js';

const path = (id: string) => `/api/0.1/assets/${id}`;

const server = useServer();
const { broker: owner, broker2, anonymous: reader } = server;

async function read(id: string): Promise<any> {
  const res = await reader.get(path(id));
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

function expectOk(res: Response): any {
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

describe('merge semantics', () => {
  it('unsent properties stay', async () => {
    const { id, token, body } = await createAsset(owner, validAsset({ title_en: 'Spaceport land' }));
    const data = expectOk(await owner.patch(path(id), { data: { title: 'Нова назва' } }, { token }));
    const { title, dateModified, ...rest } = data;
    const { title: t0, dateModified: m0, ...rest0 } = body.data;
    expect(title).toBe('Нова назва');
    expect(rest).toEqual(rest0);
    expect(rest.title_en).toBe('Spaceport land');
    expect(await read(id)).toEqual(data);
  });

  it('objects deep-merge', async () => {
    const { id, token, body } = await createAsset(owner);
    const res = await owner.patch(
      path(id),
      { data: { assetCustodian: { contactPoint: { email: 'info@example.com' }, address: { postalCode: '01001' } } } },
      { token },
    );
    const data = expectOk(res);
    const before = body.data.assetCustodian;
    expect(data.assetCustodian).toEqual({
      ...before,
      contactPoint: { ...before.contactPoint, email: 'info@example.com' },
      address: { ...before.address, postalCode: '01001' },
    });
    const v = expectOk(await owner.patch(path(id), { data: { value: { amount: 321.5 } } }, { token }));
    expect(v.value).toEqual({ currency: 'UAH', amount: 321.5, valueAddedTaxIncluded: true });
    const d = expectOk(await owner.patch(path(id), { data: { debt: { value: { amount: 2 } } } }, { token }));
    expect(d.debt).toEqual({ ...body.data.debt, value: { currency: 'UAH', amount: 2 } });
  });

  it('lists merge element by element and take the sent length (shorter list truncates)', async () => {
    const { id, token, body } = await createAsset(owner);
    const items0 = body.data.items;
    expect(items0).toHaveLength(2);
    const data = expectOk(await owner.patch(path(id), { data: { items: [{ quantity: 7 }] } }, { token }));
    expect(data.items).toHaveLength(1);
    expect(data.items[0]).toEqual({ ...items0[0], quantity: 7 });
    expect((await read(id)).items).toEqual(data.items);
  });

  it('lists: every sent element merges into the element at its index; a longer list appends', async () => {
    const { id, token, body } = await createAsset(owner);
    const items0 = body.data.items;
    const extra = validAsset().items[0];
    extra.description = 'третій';
    const data = expectOk(
      await owner.patch(
        path(id),
        { data: { items: [{ quantity: 1 }, { address: { postalCode: '02000' } }, extra] } },
        { token },
      ),
    );
    expect(data.items).toHaveLength(3);
    expect(data.items[0]).toEqual({ ...items0[0], quantity: 1 });
    expect(data.items[1]).toEqual({ ...items0[1], address: { ...items0[1].address, postalCode: '02000' } });
    expect(data.items[2]).toMatchObject({ ...extra, description: 'третій' });
  });

  it('null does not clear a field', async () => {
    const { id, token, body } = await createAsset(
      owner,
      validAsset({ title_en: 'Spaceport land', description: 'Опис' }),
    );
    const res = await owner.patch(
      path(id),
      { data: { title_en: null, description: null, debt: { agreementNumber: null }, address: null } },
      { token },
    );
    const data = expectOk(res);
    expect(data.title_en).toBe('Spaceport land');
    expect(data.description).toBe('Опис');
    expect(data.debt.agreementNumber).toBe('42');
    expect(data.address).toEqual(body.data.address);
    expect(data.dateModified).toBe(body.data.dateModified);
  });

  it('fields the owner may not write are ignored (owner, assetID, date, dateModified, assetType)', async () => {
    const { id, token, body } = await createAsset(owner);
    const res = await owner.patch(
      path(id),
      {
        data: {
          owner: 'somebody',
          assetID: 'UA-AR-DGF-1999-01-01-000001',
          date: '2000-01-01T00:00:00.000000+02:00',
          dateModified: '2000-01-01T00:00:00.000000+02:00',
          assetType: 'claimRights',
        },
      },
      { token },
    );
    expect(expectOk(res)).toEqual(body.data);
  });
});

describe('refused edits change nothing', () => {
  it('an unknown top-level field: 422 Rogue field, and nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const res = await owner.patch(path(id), { data: { title: 'changed', rogue: 1 } }, { token });
    expect(res.status, res.text).toBe(422);
    expect(res.json).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'rogue', description: 'Rogue field' }],
    });
    expect(await read(id)).toEqual(before);
  });

  it('an unknown nested field: 422 on the top-level field with {key: "Rogue field"}, and nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const res = await owner.patch(path(id), { data: { title: 'changed', assetCustodian: { bogus: 'x' } } }, { token });
    expect(res.status, res.text).toBe(422);
    expect(res.json.status).toBe('error');
    expect(res.json.errors).toEqual([
      { location: 'body', name: 'assetCustodian', description: { bogus: 'Rogue field' } },
    ]);
    expect(await read(id)).toEqual(before);
  });

  it('a field error: 422 on the field, and nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const res = await owner.patch(path(id), { data: { title: 'changed', value: { amount: -5 } } }, { token });
    expect(res.status, res.text).toBe(422);
    expect(res.json.status).toBe('error');
    expect(res.json.errors).toHaveLength(1);
    expect(res.json.errors[0]).toMatchObject({ location: 'body', name: 'value' });
    expect(res.json.errors[0].description).toHaveProperty('amount');
    expect(await read(id)).toEqual(before);
  });

  it('a field error in the merged document (invalid CAV code): 422, nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const res = await owner.patch(path(id), { data: { classification: { id: '99999999-9' } } }, { token });
    expect(res.status, res.text).toBe(422);
    expect(res.json.errors[0]).toMatchObject({ location: 'body', name: 'classification' });
    expect(res.json.errors[0].description).toHaveProperty('id');
    expect(await read(id)).toEqual(before);
  });
});

describe('dateModified and date', () => {
  it('a PATCH that changes nothing: 200 with the same dateModified', async () => {
    const { id, token, body } = await createAsset(owner);
    const same = expectOk(
      await owner.patch(path(id), { data: { title: body.data.title, quantity: body.data.quantity } }, { token }),
    );
    expect(same).toEqual(body.data);
    const empty = expectOk(await owner.patch(path(id), { data: {} }, { token }));
    expect(empty.dateModified).toBe(body.data.dateModified);
    const sameStatus = expectOk(await owner.patch(path(id), { data: { status: 'draft' } }, { token }));
    expect(sameStatus.dateModified).toBe(body.data.dateModified);
    expect(sameStatus.date).toBe(body.data.date);
    expect(await read(id)).toEqual(body.data);
  });

  it('a real change gives a later dateModified; date stays without a status change', async () => {
    const { id, token, body } = await createAsset(owner);
    const data = expectOk(await owner.patch(path(id), { data: { title: 'інша назва' } }, { token }));
    expect(micros(data.dateModified)).toBeGreaterThan(micros(body.data.dateModified));
    expect(data.date).toBe(body.data.date);
    expect((await read(id)).dateModified).toBe(data.dateModified);
  });

  it('date changes on a status change (and only then)', async () => {
    const { id, token, body } = await createAsset(owner);
    const pending = (await toPending(owner, id, token)).data;
    expect(micros(pending.date)).toBeGreaterThan(micros(body.data.date));
    expect(micros(pending.dateModified)).toBeGreaterThan(micros(body.data.dateModified));
    expect(micros(pending.date)).toBeLessThanOrEqual(micros(pending.dateModified));
    const edited = expectOk(await owner.patch(path(id), { data: { quantity: 9 } }, { token }));
    expect(edited.date).toBe(pending.date);
    expect(micros(edited.dateModified)).toBeGreaterThan(micros(pending.dateModified));
    const deleted = expectOk(await owner.patch(path(id), { data: { status: 'deleted' } }, { token }));
    expect(micros(deleted.date)).toBeGreaterThan(micros(edited.date));
  });
});

describe('owner token', () => {
  it('via the acc_token query parameter', async () => {
    const { id, token } = await createAsset(owner);
    const res = await owner.request('PATCH', `${path(id)}?acc_token=${token}`, { json: { data: { title: 'query' } } });
    expect(expectOk(res).title).toBe('query');
  });

  it('via the X-Access-Token header', async () => {
    const { id, token } = await createAsset(owner);
    const res = await owner.patch(path(id), { data: { title: 'header' } }, { headers: { 'x-access-token': token } });
    expect(expectOk(res).title).toBe('header');
  });

  it('via access.token in the body', async () => {
    const { id, token } = await createAsset(owner);
    const res = await owner.patch(path(id), { data: { title: 'body' }, access: { token } });
    expect(expectOk(res).title).toBe('body');
  });

  it('wrong token or no token: 403, nothing changes', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const wrong = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    for (const res of [
      await owner.patch(path(id), { data: { title: 'x' } }, { token: wrong }),
      await owner.patch(path(id), { data: { title: 'x' } }, { token: 'f'.repeat(32) }),
      await owner.patch(path(id), { data: { title: 'x' } }, { headers: { 'x-access-token': wrong } }),
      await owner.patch(path(id), { data: { title: 'x' }, access: { token: wrong } }),
      await owner.patch(path(id), { data: { title: 'x' } }),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.json.status).toBe('error');
    }
    expect(await read(id)).toEqual(before);
  });

  it("another broker's asset token: 403 (with either broker's key)", async () => {
    const mine = await createAsset(owner);
    const theirs = await createAsset(broker2);
    const before = await read(mine.id);
    const a = await owner.patch(path(mine.id), { data: { title: 'x' } }, { token: theirs.token });
    expect(a.status, a.text).toBe(403);
    const b = await broker2.patch(path(mine.id), { data: { title: 'x' } }, { token: theirs.token });
    expect(b.status, b.text).toBe(403);
    // The right token with the wrong broker's key is not enough either: the owner is a key and a token.
    const c = await broker2.patch(path(mine.id), { data: { title: 'x' } }, { token: mine.token });
    expect(c.status, c.text).toBe(403);
    expect(await read(mine.id)).toEqual(before);
  });

  it('the owner token is not stored in clear', async () => {
    const { id, token, body } = await createAsset(owner);
    await owner.patch(path(id), { data: { title: 'після' } }, { token });
    expect(body.access.token).toBe(token);
    const record = await server.store.get(id);
    expect(record).toBeDefined();
    expect(JSON.stringify(record)).not.toContain(token);
    expect(record!.ownerTokenHash).not.toBe(token);
    expect((await reader.get(path(id))).text).not.toContain(token);
    if (!process.env.MONGODB_URI) {
      const files = (await readdir(server.dataDir)).filter((f) => f.startsWith('registry.sqlite'));
      expect(files).toContain('registry.sqlite');
      for (const f of files) {
        const bytes = await readFile(join(server.dataDir, f));
        expect(bytes.includes(Buffer.from(token, 'latin1')), `${f} holds the token`).toBe(false);
        expect(bytes.includes(Buffer.from(token.toUpperCase(), 'latin1')), `${f} holds the token`).toBe(false);
      }
    }
  });
});

describe('order of checks', () => {
  const NOT_FOUND = { status: 'error', errors: [{ location: 'url', name: 'asset_id', description: 'Not Found' }] };
  const unknownId = 'f'.repeat(32);

  it('unknown id: 404 url asset_id Not Found', async () => {
    const res = await owner.patch(path(unknownId), { data: { title: 'x' } }, { token: 'a'.repeat(32) });
    expect(res.status, res.text).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
  });

  it('unknown id comes before 403 (no token, status move) and before 422 (rogue and invalid fields)', async () => {
    for (const data of [{ title: 'x' }, { status: 'draft' }, { rogue: 1 }, { value: { amount: -1 } }]) {
      const res = await owner.patch(path(unknownId), { data });
      expect(res.status, res.text).toBe(404);
      expect(res.json).toEqual(NOT_FOUND);
    }
    const { concierge } = server;
    const res = await concierge.patch(path('not-even-hex'), { data: { status: 'verification' } });
    expect(res.status, res.text).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
  });

  it('403 comes before 422: a wrong token with an invalid or unknown field is 403', async () => {
    const { id, token } = await createAsset(owner);
    const wrong = 'a'.repeat(32) === token ? 'b'.repeat(32) : 'a'.repeat(32);
    const invalid = await owner.patch(path(id), { data: { value: { amount: -1 } } }, { token: wrong });
    expect(invalid.status, invalid.text).toBe(403);
    const rogue = await owner.patch(path(id), { data: { rogue: 1 } }, { token: wrong });
    expect(rogue.status, rogue.text).toBe(403);
  });

  it('no key or an unknown key: 401 with WWW-Authenticate: Basic, even for an unknown id', async () => {
    const { id, token } = await createAsset(owner);
    const before = await read(id);
    const anonymous = server.client();
    const stranger = server.client({ key: '99999999999999999999999999999999' });
    for (const [client, target] of [
      [anonymous, id],
      [stranger, id],
      [anonymous, unknownId],
    ] as const) {
      const res = await client.patch(path(target), { data: { title: 'x' } }, { token });
      expect(res.status, res.text).toBe(401);
      expect(res.json.status).toBe('error');
      expect(res.headers['www-authenticate'] ?? '').toMatch(/^Basic/i);
    }
    expect(await read(id)).toEqual(before);
  });

  it('a body that is not a JSON object with data: 422 body data, before 404', async () => {
    const res = await owner.patch(path(unknownId), { nodata: {} });
    expect(res.status, res.text).toBe(422);
    expect(res.json).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: 'No JSON object could be decoded' }],
    });
  });
});
