/**
 * The state machine and roles (docs/decisions/0007-workflow-as-tables.md) through the whole app: every (from, to,
 * role), each state reached through the API itself; `brokers` is another broker with the owner's token.
 */
import { describe, expect, it } from 'vitest';
import { useServer } from '../../helpers/server.js';
import type { Response } from '../../helpers/client.js';
import { createAsset, toPending, validAsset } from '../../helpers/fixtures.js';

const STATUSES = ['draft', 'pending', 'verification', 'active', 'complete', 'deleted'] as const;
type Status = (typeof STATUSES)[number];
const ROLES = ['owner', 'other broker', 'concierge', 'admins'] as const;
type Role = (typeof ROLES)[number];

const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';
const LOT2 = '0123456789abcdef0123456789abcdef';
const UNKNOWN_STATUS = 'bogus';

/** Who may PATCH at all in each state (editing permissions). */
const EDITORS: Record<Status, readonly Role[]> = {
  draft: ['owner', 'admins'],
  pending: ['owner', 'concierge', 'admins'],
  verification: ['concierge', 'admins'],
  active: ['concierge', 'admins'],
  complete: [],
  deleted: [],
};

/** The only moves, and who makes them. */
const MOVES: Record<string, readonly Role[]> = {
  'draft>pending': ['owner', 'admins'],
  'pending>deleted': ['owner', 'admins'],
  'pending>verification': ['concierge', 'admins'],
  'verification>active': ['concierge', 'admins'],
  'verification>pending': ['concierge', 'admins'],
  'active>pending': ['concierge', 'admins'],
  'active>complete': ['concierge', 'admins'],
};

const cantUpdate = (status: string) => `Can't update asset in current (${status}) status`;
const CANT_DRAFT = "Can't switch asset to draft status";

type Expectation = { status: 200 } | { status: 403; description: string };

function expected(from: Status, to: string, role: Role): Expectation {
  if (!EDITORS[from].includes(role)) return { status: 403, description: cantUpdate(from) };
  if (to === 'draft' && from !== 'draft') return { status: 403, description: CANT_DRAFT };
  if (to === from) return { status: 200 };
  if (MOVES[`${from}>${to}`]?.includes(role)) return { status: 200 };
  return { status: 403, description: cantUpdate(from) };
}

const path = (id: string) => `/api/0.1/assets/${id}`;

const { broker: owner, broker2: other, concierge, admin, anonymous: reader } = useServer();

function ok(res: Response, what: string): any {
  if (res.status !== 200) throw new Error(`${what}: expected 200, got ${res.status}: ${res.text}`);
  return res.json;
}

async function read(id: string): Promise<any> {
  const res = await reader.get(path(id));
  expect(res.status).toBe(200);
  return res.json.data;
}

interface Asset {
  id: string;
  token: string;
}

/** Creates an asset and walks it to `state` through the API (owner → pending/deleted, concierge onwards). */
async function reach(state: Status): Promise<Asset> {
  const { id, token } = await createAsset(owner);
  if (state === 'draft') return { id, token };
  await toPending(owner, id, token);
  if (state === 'pending') return { id, token };
  if (state === 'deleted') {
    ok(await owner.patch(path(id), { data: { status: 'deleted' } }, { token }), 'pending → deleted by owner');
    return { id, token };
  }
  ok(await concierge.patch(path(id), { data: { status: 'verification' } }), 'pending → verification by concierge');
  if (state === 'verification') return { id, token };
  ok(
    await concierge.patch(path(id), { data: { status: 'active', relatedLot: LOT } }),
    'verification → active by concierge',
  );
  if (state === 'active') return { id, token };
  ok(await concierge.patch(path(id), { data: { status: 'complete' } }), 'active → complete by concierge');
  return { id, token };
}

/** PATCH as `role`. The other broker uses the owner's real token with its own key: the asset is not theirs. */
function patchAs(role: Role, asset: Asset, data: Record<string, unknown>): Promise<Response> {
  switch (role) {
    case 'owner':
      return owner.patch(path(asset.id), { data }, { token: asset.token });
    case 'other broker':
      return other.patch(path(asset.id), { data }, { token: asset.token });
    case 'concierge':
      return concierge.patch(path(asset.id), { data });
    case 'admins':
      return admin.patch(path(asset.id), { data });
  }
}

function expect403(res: Response, description: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.json).toEqual({ status: 'error', errors: [{ location: 'body', name: 'data', description }] });
}

describe('every (from, to, role)', () => {
  const cases: [Status, string, Role][] = [];
  for (const from of STATUSES)
    for (const to of [...STATUSES, UNKNOWN_STATUS]) for (const role of ROLES) cases.push([from, to, role]);

  it.each(cases)('%s → %s by %s', async (from, to, role) => {
    const asset = await reach(from);
    const before = await read(asset.id);
    expect(before.status).toBe(from);
    const data: Record<string, unknown> = { status: to };
    if (to === 'active' && from !== 'active') data.relatedLot = LOT;
    const res = await patchAs(role, asset, data);
    const want = expected(from, to, role);
    if (want.status === 200) {
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.status).toBe(to);
      expect((await read(asset.id)).status).toBe(to);
    } else {
      expect403(res, want.description);
      // Refused: nothing changed.
      expect(await read(asset.id)).toEqual(before);
    }
  });

  it('covers 6 × 7 × 4 cases', () => {
    expect(cases).toHaveLength(168);
  });
});

describe('relatedLot', () => {
  it('verification → active without relatedLot is 422 relatedLot "This field is required." (concierge and admins)', async () => {
    for (const client of [concierge, admin]) {
      const { id } = await reach('verification');
      const before = await read(id);
      const res = await client.patch(path(id), { data: { status: 'active' } });
      expect(res.status, res.text).toBe(422);
      expect(res.json).toEqual({
        status: 'error',
        errors: [{ location: 'body', name: 'relatedLot', description: ['This field is required.'] }],
      });
      expect(await read(id)).toEqual(before);
    }
  });

  it('relatedLot sent with the move to active is kept', async () => {
    const { id } = await reach('verification');
    const res = await concierge.patch(path(id), { data: { status: 'active', relatedLot: LOT } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.relatedLot).toBe(LOT);
    expect((await read(id)).relatedLot).toBe(LOT);
  });

  it('relatedLot sent with the move to verification carries into active', async () => {
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const v = await concierge.patch(path(id), { data: { status: 'verification', relatedLot: LOT } });
    expect(v.status, v.text).toBe(200);
    expect(v.json.data.relatedLot).toBe(LOT);
    const a = await concierge.patch(path(id), { data: { status: 'active' } });
    expect(a.status, a.text).toBe(200);
    expect(a.json.data).toMatchObject({ status: 'active', relatedLot: LOT });
  });

  it('active → pending clears relatedLot (concierge and admins)', async () => {
    for (const client of [concierge, admin]) {
      const { id } = await reach('active');
      expect((await read(id)).relatedLot).toBe(LOT);
      const res = await client.patch(path(id), { data: { status: 'pending' } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.status).toBe('pending');
      expect(res.json.data).not.toHaveProperty('relatedLot');
      expect(await read(id)).not.toHaveProperty('relatedLot');
    }
  });

  it('active → pending clears relatedLot also when the bot sends relatedLot: null', async () => {
    const { id } = await reach('active');
    const res = await concierge.patch(path(id), { data: { status: 'pending', relatedLot: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).not.toHaveProperty('relatedLot');
  });

  it('active → complete may change relatedLot', async () => {
    const { id } = await reach('active');
    const res = await concierge.patch(path(id), { data: { status: 'complete', relatedLot: LOT2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: 'complete', relatedLot: LOT2 });
    expect((await read(id)).relatedLot).toBe(LOT2);
  });

  it('active → complete without relatedLot keeps the one from active', async () => {
    const { id } = await reach('active');
    const res = await admin.patch(path(id), { data: { status: 'complete' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: 'complete', relatedLot: LOT });
  });

  it('active → active with a new relatedLot (concierge)', async () => {
    const { id } = await reach('active');
    const res = await concierge.patch(path(id), { data: { status: 'active', relatedLot: LOT2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: 'active', relatedLot: LOT2 });
  });
});

describe('what each role may write', () => {
  it('concierge: only status and relatedLot; other fields are silently ignored (200)', async () => {
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const before = await read(id);
    const res = await concierge.patch(path(id), {
      data: {
        status: 'verification',
        relatedLot: LOT,
        title: 'concierge title',
        description: 'concierge description',
        quantity: 99,
        mode: 'test',
        value: { currency: 'UAH', amount: 555 },
      },
    });
    expect(res.status, res.text).toBe(200);
    const after = await read(id);
    expect(res.json.data).toEqual(after);
    expect(after).toMatchObject({ status: 'verification', relatedLot: LOT });
    const { status: _s, relatedLot: _r, date: _d, dateModified: _m, ...rest } = after;
    const { status: _s0, relatedLot: _r0, date: _d0, dateModified: _m0, ...rest0 } = before;
    expect(rest).toEqual(rest0);
    expect(after).not.toHaveProperty('mode');
  });

  it('concierge: a PATCH of only fields it may not write changes nothing (200, same dateModified)', async () => {
    const { id } = await reach('verification');
    const before = await read(id);
    const res = await concierge.patch(path(id), { data: { title: 'ignored', quantity: 12 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual(before);
    expect(await read(id)).toEqual(before);
  });

  it('admins: status, mode and relatedLot; other fields ignored', async () => {
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const before = await read(id);
    const res = await admin.patch(path(id), {
      data: { status: 'verification', mode: 'test', relatedLot: LOT, quantity: 42, description: 'admin description' },
    });
    expect(res.status, res.text).toBe(200);
    const after = await read(id);
    expect(after).toMatchObject({ status: 'verification', mode: 'test', relatedLot: LOT });
    expect(after.quantity).toBe(before.quantity);
    expect(after).not.toHaveProperty('description');
    expect(after.items).toEqual(before.items);
    expect(after.value).toEqual(before.value);
  });

  it('admins: a field-only PATCH (no status) sets mode and ignores the title', async () => {
    const { id } = await reach('active');
    const res = await admin.patch(path(id), { data: { mode: 'test', title: 'admin title' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.mode).toBe('test');
    expect(res.json.data.title).not.toBe('admin title');
    expect(res.json.data.title).toContain(validAsset().title);
  });

  it('owner: mode is not writable by the owner (ignored, 200)', async () => {
    const { id, token } = await createAsset(owner);
    const res = await owner.patch(path(id), { data: { mode: 'test', title: 'owner title' } }, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.title).toBe('owner title');
    expect(res.json.data).not.toHaveProperty('mode');
  });

  it.each(['draft', 'pending'] as const)('owner edits fields in %s', async (state) => {
    const asset = await reach(state);
    const res = await owner.patch(
      path(asset.id),
      { data: { title: `edited in ${state}`, quantity: 7, value: { amount: 250.5 } } },
      { token: asset.token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: state, title: `edited in ${state}`, quantity: 7 });
    expect(res.json.data.value).toEqual({ currency: 'UAH', amount: 250.5, valueAddedTaxIncluded: true });
    expect(await read(asset.id)).toEqual(res.json.data);
  });

  it.each(['verification', 'active', 'complete', 'deleted'] as const)(
    "owner may not edit fields in %s: 403 Can't update asset in current (%s) status",
    async (state) => {
      const asset = await reach(state);
      const before = await read(asset.id);
      const res = await owner.patch(path(asset.id), { data: { title: 'too late' } }, { token: asset.token });
      expect403(res, cantUpdate(state));
      expect(await read(asset.id)).toEqual(before);
    },
  );

  it.each(['complete', 'deleted'] as const)('%s is final: nobody edits, not even admins', async (state) => {
    const asset = await reach(state);
    const before = await read(asset.id);
    for (const role of ROLES) {
      const res = await patchAs(role, asset, { relatedLot: LOT2 });
      expect403(res, cantUpdate(state));
      const res2 = await patchAs(role, asset, { status: 'pending' });
      expect403(res2, cantUpdate(state));
    }
    expect(await read(asset.id)).toEqual(before);
  });

  it('an unknown status string is 403, not 422, for every role that may edit', async () => {
    for (const [state, role] of [
      ['draft', 'owner'],
      ['draft', 'admins'],
      ['pending', 'owner'],
      ['pending', 'concierge'],
      ['active', 'admins'],
    ] as const) {
      const asset = await reach(state);
      for (const value of ['bogus', 'Pending', 'active.awaiting']) {
        const res = await patchAs(role, asset, { status: value });
        expect403(res, cantUpdate(state));
      }
      expect((await read(asset.id)).status).toBe(state);
    }
  });
});
