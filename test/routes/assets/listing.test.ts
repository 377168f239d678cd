/**
 * GET /api/0.1/assets: the feed (registry-spec "List assets", docs/decisions/0019-listing-query-and-page-links.md).
 * Shapes follow asset-listing.http (empty) and listing-with-some-assets.http (one asset).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../../helpers/server.js';
import { micros } from '../../helpers/dates.js';
import type { Client, Response } from '../../helpers/client.js';
import { createAsset, toPending, validAsset } from '../../helpers/fixtures.js';
import { formatDate, nowMicros } from '../../../src/domain/dates.js';
import { hashToken, newId, newToken } from '../../../src/domain/ids.js';

const LIST = '/api/0.1/assets';
const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';

/** The same instant written with another UTC offset (minutes east), `Z` when `zulu`. */
function atOffset(iso: string, offsetMinutes: number, zulu = false): string {
  const us = micros(iso);
  const seconds = Math.floor(us / 1_000_000);
  const fraction = String(us - seconds * 1_000_000).padStart(6, '0');
  const local = new Date((seconds + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  if (zulu) return `${local}.${fraction}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}.${fraction}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function query(params: Record<string, string>): string {
  const q = new URLSearchParams(params).toString();
  return q ? `${LIST}?${q}` : LIST;
}

function page(res: Response): any {
  expect(res.status, res.text).toBe(200);
  return res.json;
}

function ids(p: any): string[] {
  return p.data.map((item: any) => item.id);
}

function queryOf(pathOrUri: string): URLSearchParams {
  return new URL(pathOrUri, 'http://x').searchParams;
}

/** Follows next_page from `start` until an empty page; returns every item seen, in order. */
async function walk(client: Client, start: string, maxPages = 200): Promise<{ items: any[]; last: any }> {
  const items: any[] = [];
  let next = start;
  for (let i = 0; i < maxPages; i++) {
    const p = page(await client.get(next));
    if (p.data.length === 0) return { items, last: p };
    items.push(...p.data);
    next = p.next_page.path;
  }
  throw new Error('walk: too many pages');
}

describe('an empty registry, then the first asset', () => {
  const server = useServer();
  const { broker, anonymous: reader } = server;

  it('empty registry: data [] and offset "" (asset-listing.http)', async () => {
    const p = page(await reader.get(LIST));
    expect(p).toEqual({
      next_page: { path: `${LIST}?offset=`, uri: `${server.url}${LIST}?offset=`, offset: '' },
      data: [],
    });
  });

  it('a draft is never listed; once pending it is (listing-with-some-assets.http)', async () => {
    const { id, token } = await createAsset(broker);
    expect(page(await reader.get(LIST)).data).toEqual([]);
    expect(page(await reader.get(query({ mode: '_all_' }))).data).toEqual([]);
    expect(page(await reader.get(query({ descending: '1' }))).data).toEqual([]);
    const pending = (await toPending(broker, id, token)).data;
    const second = await createAsset(broker);
    const p = page(await reader.get(LIST));
    const offset = pending.dateModified;
    const encoded = `${LIST}?offset=${encodeURIComponent(offset)}`;
    expect(p).toEqual({
      next_page: { path: encoded, uri: `${server.url}${encoded}`, offset },
      data: [{ id, dateModified: offset }],
    });
    expect(encoded).toContain('%3A');
    expect(encoded).toContain('%2B');
    expect(ids(p)).not.toContain(second.id);
  });
});

describe('the feed', () => {
  const server = useServer();
  const { broker, concierge, anonymous: reader } = server;
  const pending: { id: string; token: string }[] = [];
  let draftId: string;
  let testId: string;
  const byState: Record<string, string> = {};

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const a = await createAsset(broker, validAsset({ title: `актив ${i}` }));
      await toPending(broker, a.id, a.token);
      pending.push(a);
    }
    const ok = (res: Response) => {
      if (res.status !== 200) throw new Error(`setup: ${res.status} ${res.text}`);
    };
    for (const state of ['deleted', 'verification', 'active', 'complete']) {
      const a = await createAsset(broker);
      await toPending(broker, a.id, a.token);
      if (state === 'deleted')
        ok(await broker.patch(`${LIST}/${a.id}`, { data: { status: 'deleted' } }, { token: a.token }));
      else {
        ok(await concierge.patch(`${LIST}/${a.id}`, { data: { status: 'verification' } }));
        if (state !== 'verification')
          ok(await concierge.patch(`${LIST}/${a.id}`, { data: { status: 'active', relatedLot: LOT } }));
        if (state === 'complete') ok(await concierge.patch(`${LIST}/${a.id}`, { data: { status: 'complete' } }));
      }
      byState[state] = a.id;
    }
    draftId = (await createAsset(broker)).id;
    const t = await createAsset(broker, validAsset({ mode: 'test', title: 'тестовий актив' }));
    await toPending(broker, t.id, t.token);
    testId = t.id;
  });

  async function current(id: string): Promise<any> {
    const res = await reader.get(`${LIST}/${id}`);
    expect(res.status).toBe(200);
    return res.json.data;
  }

  it('lists pending, deleted, verification, active and complete assets, never drafts, with their dateModified', async () => {
    const p = page(await reader.get(LIST));
    const listed = ids(p);
    expect(listed).toHaveLength(9);
    for (const id of [...pending.map((a) => a.id), ...Object.values(byState)]) {
      expect(listed).toContain(id);
      const item = p.data.find((x: any) => x.id === id);
      expect(item).toEqual({ id, dateModified: (await current(id)).dateModified });
    }
    expect(listed).not.toContain(draftId);
    expect(page(await reader.get(query({ mode: '_all_' }))).data.map((x: any) => x.id)).not.toContain(draftId);
  });

  it('ascending by dateModified; next_page points after the last entry; no prev_page on a plain request', async () => {
    const p = page(await reader.get(LIST));
    const times = p.data.map((x: any) => micros(x.dateModified));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
    expect(Object.keys(p).sort()).toEqual(['data', 'next_page']);
    for (const item of p.data) expect(Object.keys(item).sort()).toEqual(['dateModified', 'id']);
    const last = p.data[p.data.length - 1].dateModified;
    expect(p.next_page.offset).toBe(last);
    expect(p.next_page.path).toBe(`${LIST}?offset=${encodeURIComponent(last)}`);
    expect(p.next_page.uri).toBe(`${server.url}${p.next_page.path}`);
  });

  it('a modification moves the entry to the end with its new dateModified', async () => {
    const a = pending[0]!;
    const res = await broker.patch(`${LIST}/${a.id}`, { data: { title: 'переміщений' } }, { token: a.token });
    expect(res.status, res.text).toBe(200);
    const p = page(await reader.get(LIST));
    expect(p.data[p.data.length - 1]).toEqual({ id: a.id, dateModified: res.json.data.dateModified });
    expect(ids(p).filter((id) => id === a.id)).toHaveLength(1);
    expect(p.next_page.offset).toBe(res.json.data.dateModified);
  });

  it('a change is in the listing as soon as the response that made it was sent', async () => {
    for (let i = 0; i < 10; i++) {
      const end = (await walk(reader, LIST)).last.next_page.offset as string;
      const a = pending[i % pending.length]!;
      const res = await broker.patch(`${LIST}/${a.id}`, { data: { quantity: 100 + i } }, { token: a.token });
      expect(res.status, res.text).toBe(200);
      const p = page(await reader.get(query({ offset: end })));
      expect(p.data).toEqual([{ id: a.id, dateModified: res.json.data.dateModified }]);
    }
  });

  it('following next_page from the start gives each entry exactly once, then an empty page that echoes the offset', async () => {
    const all = page(await reader.get(LIST)).data;
    const { items, last } = await walk(reader, query({ limit: '2' }));
    expect(items).toEqual(all);
    expect(last.data).toEqual([]);
    expect(last.next_page.offset).toBe(all[all.length - 1].dateModified);
    expect(queryOf(last.next_page.path).get('limit')).toBe('2');
  });

  it('offset is exclusive', async () => {
    const all = page(await reader.get(LIST)).data;
    for (const k of [0, 3, all.length - 1]) {
      const p = page(await reader.get(query({ offset: all[k].dateModified })));
      expect(p.data).toEqual(all.slice(k + 1));
    }
  });

  it('an offset before every entry lists everything', async () => {
    const all = page(await reader.get(LIST)).data;
    expect(page(await reader.get(query({ offset: '2015-01-01T00:00:00+02:00' }))).data).toEqual(all);
  });

  it('the same instant with any ISO 8601 offset gives the same page', async () => {
    const all = page(await reader.get(LIST)).data;
    const at = all[2].dateModified as string;
    const expected = all.slice(3);
    for (const offset of [
      at,
      atOffset(at, 0),
      atOffset(at, 0, true),
      atOffset(at, 120),
      atOffset(at, 180),
      atOffset(at, 330),
      atOffset(at, -240),
    ]) {
      const p = page(await reader.get(query({ offset })));
      expect(p.data, offset).toEqual(expected);
    }
  });

  it('an offset whose + arrived unencoded (decoded to a space) is still understood', async () => {
    const all = page(await reader.get(LIST)).data;
    const at = atOffset(all[1].dateModified, 120);
    expect(at).toContain('+02:00');
    const raw = await reader.get(`${LIST}?offset=${at}`);
    expect(page(raw).data).toEqual(all.slice(2));
    const spaced = await reader.get(`${LIST}?offset=${at.replace('+', '%20')}`);
    expect(page(spaced).data).toEqual(all.slice(2));
  });

  it.each(['garbage', 'yesterday', '2020-13-45T99:99:99+02:00', '2024-01-01T10:00:00+02:00junk'])(
    'a garbage offset (%s) is 400 querystring offset',
    async (offset) => {
      const res = await reader.get(query({ offset }));
      expect(res.status, res.text).toBe(400);
      expect(res.json.status).toBe('error');
      expect(res.json.errors).toHaveLength(1);
      expect(res.json.errors[0]).toMatchObject({ location: 'querystring', name: 'offset' });
      expect(typeof res.json.errors[0].description === 'string' || Array.isArray(res.json.errors[0].description)).toBe(
        true,
      );
    },
  );

  it.each(['abc', '1.5', '0', '-1', '10x'])('limit=%s is 400 querystring limit', async (limit) => {
    const res = await reader.get(query({ limit }));
    expect(res.status, res.text).toBe(400);
    expect(res.json.status).toBe('error');
    expect(res.json.errors[0]).toMatchObject({ location: 'querystring', name: 'limit' });
  });

  it('limit caps the page', async () => {
    const all = page(await reader.get(LIST)).data;
    expect(page(await reader.get(query({ limit: '3' }))).data).toEqual(all.slice(0, 3));
    expect(page(await reader.get(query({ limit: '1' }))).data).toEqual(all.slice(0, 1));
  });

  it('descending: newest first, next_page keeps descending, prev_page flips it', async () => {
    const all = page(await reader.get(LIST)).data;
    const p = page(await reader.get(query({ descending: '1' })));
    expect(p.data).toEqual([...all].reverse());
    expect(p.next_page.offset).toBe(all[0].dateModified);
    expect(queryOf(p.next_page.path).get('descending')).toBeTruthy();
    expect(p.prev_page).toBeDefined();
    expect(queryOf(p.prev_page.path).get('descending') ?? '').toBe('');
    expect(p.prev_page.uri).toBe(`${server.url}${p.prev_page.path}`);
    const { items } = await walk(reader, query({ descending: '1', limit: '2' }));
    expect(items).toEqual([...all].reverse());
  });

  it('prev_page is present only with descending or offset; with an offset it goes back', async () => {
    const all = page(await reader.get(LIST)).data;
    expect(page(await reader.get(LIST)).prev_page).toBeUndefined();
    expect(page(await reader.get(query({ limit: '2' }))).prev_page).toBeUndefined();
    const first = page(await reader.get(query({ limit: '2' })));
    const second = page(await reader.get(first.next_page.path));
    expect(second.data).toEqual(all.slice(2, 4));
    expect(second.prev_page).toBeDefined();
    expect(second.prev_page.offset).toBe(all[2].dateModified);
    const prevQuery = queryOf(second.prev_page.path);
    expect(prevQuery.get('descending')).toBeTruthy();
    expect(prevQuery.get('limit')).toBe('2');
    const back = page(await reader.get(second.prev_page.path));
    expect(back.data).toEqual(all.slice(0, 2).reverse());
  });

  it('mode: the default excludes test assets; test gives only them; _all_ gives both', async () => {
    const real = ids(page(await reader.get(LIST)));
    expect(real).not.toContain(testId);
    const test = page(await reader.get(query({ mode: 'test' })));
    expect(ids(test)).toEqual([testId]);
    expect(queryOf(test.next_page.path).get('mode')).toBe('test');
    const both = page(await reader.get(query({ mode: '_all_' })));
    expect(new Set(ids(both))).toEqual(new Set([...real, testId]));
    expect(queryOf(both.next_page.path).get('mode')).toBe('_all_');
  });

  it('opt_fields adds the named fields to each entry', async () => {
    const p = page(await reader.get(query({ opt_fields: 'status,assetID' })));
    expect(p.data.length).toBeGreaterThan(0);
    for (const item of p.data) {
      expect(Object.keys(item).sort()).toEqual(['assetID', 'dateModified', 'id', 'status']);
      const asset = await current(item.id);
      expect(item).toEqual({
        id: asset.id,
        dateModified: asset.dateModified,
        status: asset.status,
        assetID: asset.assetID,
      });
    }
    expect(queryOf(p.next_page.path).get('opt_fields')).toBe('status,assetID');
    const withLot = page(await reader.get(query({ opt_fields: 'relatedLot' }))).data;
    expect(withLot.find((x: any) => x.id === byState.active)).toEqual({
      id: byState.active,
      dateModified: (await current(byState.active!)).dateModified,
      relatedLot: LOT,
    });
  });

  it('test-mode title prefixes are visible via opt_fields=title', async () => {
    const p = page(await reader.get(query({ mode: 'test', opt_fields: 'title' })));
    expect(p.data).toHaveLength(1);
    expect(p.data[0].id).toBe(testId);
    expect(p.data[0].title).toBe('[ТЕСТУВАННЯ] тестовий актив');
  });

  it('next_page carries limit, descending, mode and opt_fields, with an encoded offset and an absolute uri', async () => {
    const p = page(await reader.get(query({ limit: '3', descending: '1', mode: '_all_', opt_fields: 'status' })));
    expect(p.data).toHaveLength(3);
    const offset = p.data[2].dateModified as string;
    expect(p.next_page.offset).toBe(offset);
    const q = queryOf(p.next_page.path);
    expect(q.get('limit')).toBe('3');
    expect(q.get('descending')).toBeTruthy();
    expect(q.get('mode')).toBe('_all_');
    expect(q.get('opt_fields')).toBe('status');
    expect(q.get('offset')).toBe(offset);
    expect(p.next_page.path).toContain(`offset=${encodeURIComponent(offset)}`);
    expect(p.next_page.path.startsWith(`${LIST}?`)).toBe(true);
    expect(p.next_page.uri).toBe(`${server.url}${p.next_page.path}`);
    expect(/^https?:\/\//.test(p.next_page.uri)).toBe(true);
    const prev = queryOf(p.prev_page.path);
    expect(prev.get('limit')).toBe('3');
    expect(prev.get('mode')).toBe('_all_');
    expect(prev.get('opt_fields')).toBe('status');
    for (const item of p.data) expect(Object.keys(item).sort()).toEqual(['dateModified', 'id', 'status']);
  });
});

describe('page size', () => {
  const server = useServer();
  const { broker, anonymous: reader } = server;
  const TOTAL = 1003;

  beforeAll(async () => {
    // One asset published through the API, then copies of it seeded through the store's bulk path: paging is
    // what is tested here, and 1003 creates through the API take minutes on a slow store.
    const first = await createAsset(broker);
    const published = (await toPending(broker, first.id, first.token)).data;
    const start = nowMicros();
    await server.store.bulkInsert(
      Array.from({ length: TOTAL - 1 }, (_, i) => {
        const id = newId();
        const modified = start + 1 + i;
        const dateModified = formatDate(modified, 'Europe/Kyiv');
        return {
          id,
          ownerTokenHash: hashToken(newToken()),
          transferTokenHash: null,
          appliedTransfers: [],
          documentHistory: [],
          modified,
          listed: true,
          test: false,
          asset: { ...published, id, dateModified },
        };
      }),
    );
  }, 180_000);

  it('the default page is 100', async () => {
    const p = page(await reader.get(LIST));
    expect(p.data).toHaveLength(100);
    const d = page(await reader.get(query({ descending: '1' })));
    expect(d.data).toHaveLength(100);
  });

  it('limit up to 1000 is served', async () => {
    expect(page(await reader.get(query({ limit: '1000' }))).data).toHaveLength(1000);
    expect(page(await reader.get(query({ limit: '250' }))).data).toHaveLength(250);
  });

  it.each(['1001', '5000', '100000'])('limit=%s is served as 1000', async (limit) => {
    const p = page(await reader.get(query({ limit })));
    expect(p.data).toHaveLength(1000);
    const rest = page(await reader.get(p.next_page.path));
    expect(rest.data).toHaveLength(TOTAL - 1000);
  });

  it('every listed asset is seen exactly once across pages of 1000', async () => {
    const { items } = await walk(reader, query({ limit: '1000' }));
    expect(items).toHaveLength(TOTAL);
    expect(new Set(items.map((x) => x.id)).size).toBe(TOTAL);
  });
});

describe('query quirks as in the original', () => {
  const { broker, anonymous: reader } = useServer();
  let all: any[];

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const a = await createAsset(broker);
      await toPending(broker, a.id, a.token);
    }
    all = page(await reader.get(LIST)).data;
  });

  it('descending takes any non-empty value as true (descending=0 included)', async () => {
    for (const value of ['1', 'true', '0']) {
      expect(page(await reader.get(query({ descending: value }))).data).toEqual([...all].reverse());
    }
    expect(page(await reader.get(query({ descending: '' }))).data).toEqual(all);
  });

  it('an unknown mode falls back to the default and is not echoed', async () => {
    const p = page(await reader.get(query({ mode: 'bogus' })));
    expect(p.data).toEqual(all);
    expect(queryOf(p.next_page.path).has('mode')).toBe(false);
  });

  it('opt_fields names a field an entry lacks: the entry has only id and dateModified', async () => {
    const p = page(await reader.get(query({ opt_fields: 'relatedLot' })));
    expect(p.data).toEqual(all);
  });
});

// docs/decisions/0020-feed-complete-by-construction.md
describe('completeness while others write (record 0020)', () => {
  const server = useServer();
  const { broker, anonymous: reader } = server;

  it('a client following next_page sees the final dateModified of every asset, nothing twice', async () => {
    const assets: { id: string; token: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await createAsset(broker);
      await toPending(broker, a.id, a.token);
      assets.push(a);
    }
    let writing = true;
    const writer = async (w: number) => {
      const client = server.client({ key: KEYS.broker });
      for (let i = 0; i < 25; i++) {
        if (i % 8 === 0) {
          const a = await createAsset(client);
          await toPending(client, a.id, a.token);
          assets.push(a);
        } else {
          const a = assets[(w * 7 + i) % assets.length]!;
          const res = await client.patch(`${LIST}/${a.id}`, { data: { quantity: w * 1000 + i } }, { token: a.token });
          if (res.status !== 200) throw new Error(`writer: ${res.status} ${res.text}`);
        }
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer)).finally(() => {
      writing = false;
    });

    const seen = new Map<string, Set<string>>();
    const pairs: string[] = [];
    let next = query({ limit: '3' });
    let quietPolls = 0;
    for (let guard = 0; guard < 5000 && quietPolls < 2; guard++) {
      const p = page(await reader.get(next));
      const times = p.data.map((x: any) => micros(x.dateModified));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
      for (const item of p.data) {
        pairs.push(`${item.id} ${item.dateModified}`);
        if (!seen.has(item.id)) seen.set(item.id, new Set());
        seen.get(item.id)!.add(item.dateModified);
      }
      next = p.next_page.path;
      if (p.data.length === 0) {
        if (writing) await new Promise((r) => setTimeout(r, 2));
        else quietPolls++;
      }
    }
    await writers;
    expect(quietPolls).toBe(2);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(assets.length).toBe(6 + 4 * 4);
    for (const a of assets) {
      const res = await reader.get(`${LIST}/${a.id}`);
      const final = res.json.data.dateModified as string;
      expect(seen.get(a.id)?.has(final), `${a.id} final ${final} not seen`).toBe(true);
    }
  });
});
