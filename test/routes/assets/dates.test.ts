/**
 * Dates and assetID (registry-spec "Dates", docs/decisions/0010-dates-in-microseconds.md,
 * 0009-ids-tokens-and-asset-id.md): microseconds and a numeric offset in TZ (Europe/Kyiv by default, +00:00 with
 * TZ=UTC); every dateModified unique and increasing; the assetID day counter gap-free and consecutive.
 */
import { describe, expect, it } from 'vitest';
import { serverForThisTest, useServer } from '../../helpers/server.js';
import { micros } from '../../helpers/dates.js';
import { createAsset, toPending, validAsset } from '../../helpers/fixtures.js';

const LIST = '/api/0.1/assets';
const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';
const DATE_RE = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}\.\d{6}([+-]\d{2}:\d{2})$/;

/** `+02:00`-style offset of `timeZone` at the instant `ms`. */
function zoneOffset(ms: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')!.value;
  return name === 'GMT' ? '+00:00' : name.replace('GMT', '');
}

/** The wall-clock date-time (to the second) of `ms` in `timeZone`, `YYYY-MM-DDTHH:MM:SS`. */
function wallClock(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Asserts a registry-written date: microseconds, numeric offset of `timeZone` at that instant, local wall clock. */
function expectZoned(value: unknown, timeZone: string, label: string): void {
  expect(typeof value, label).toBe('string');
  const text = value as string;
  const m = DATE_RE.exec(text);
  expect(m, `${label}: ${text}`).not.toBeNull();
  const us = micros(text);
  const ms = Math.floor(us / 1000);
  expect(m![2], `${label}: offset of ${text}`).toBe(zoneOffset(ms, timeZone));
  expect(text.slice(0, 19), `${label}: wall clock of ${text}`).toBe(wallClock(ms, timeZone));
  // Written now, not some other moment.
  expect(Math.abs(ms - Date.now()), `${label}: ${text} is not now`).toBeLessThan(60_000);
}

describe('dates in the default time zone (Europe/Kyiv)', () => {
  const { broker, concierge, anonymous: reader } = useServer({ TZ: 'Europe/Kyiv' });

  it('every date the registry writes has microseconds and the Kyiv offset (create, patch, read, list)', async () => {
    const tz = 'Europe/Kyiv';
    const { id, token, body } = await createAsset(broker);
    expectZoned(body.data.date, tz, 'create date');
    expectZoned(body.data.dateModified, tz, 'create dateModified');
    expect(micros(body.data.date)).toBeLessThanOrEqual(micros(body.data.dateModified));
    const pending = (await toPending(broker, id, token)).data;
    expectZoned(pending.date, tz, 'pending date');
    expectZoned(pending.dateModified, tz, 'pending dateModified');
    const edited = await broker.patch(`${LIST}/${id}`, { data: { title: 'інша' } }, { token });
    expect(edited.status, edited.text).toBe(200);
    expectZoned(edited.json.data.dateModified, tz, 'edit dateModified');
    for (const data of [{ status: 'verification' }, { status: 'active', relatedLot: LOT }, { status: 'complete' }]) {
      const res = await concierge.patch(`${LIST}/${id}`, { data });
      expect(res.status, res.text).toBe(200);
      expectZoned(res.json.data.date, tz, `${data.status} date`);
      expectZoned(res.json.data.dateModified, tz, `${data.status} dateModified`);
    }
    const read = await reader.get(`${LIST}/${id}`);
    expectZoned(read.json.data.date, tz, 'read date');
    expectZoned(read.json.data.dateModified, tz, 'read dateModified');
    const list = await reader.get(LIST);
    expect(list.status).toBe(200);
    for (const item of list.json.data) expectZoned(item.dateModified, tz, 'listed dateModified');
    expectZoned(list.json.next_page.offset, tz, 'next_page.offset');
  });

  it('dates a client sends are kept as sent', async () => {
    const { body } = await createAsset(broker);
    expect(body.data.debt.dateSigned).toBe(validAsset().debt.dateSigned);
  });

  it('dateModified is unique and increasing across 50 quick writes on one asset', async () => {
    const { id, token, body } = await createAsset(broker);
    let previous = micros(body.data.dateModified);
    const seen = new Set<string>([body.data.dateModified]);
    for (let i = 0; i < 50; i++) {
      const res = await broker.patch(`${LIST}/${id}`, { data: { quantity: 1000 + i } }, { token });
      expect(res.status, res.text).toBe(200);
      const dm = res.json.data.dateModified as string;
      expect(seen.has(dm), dm).toBe(false);
      seen.add(dm);
      const us = micros(dm);
      expect(us).toBeGreaterThan(previous);
      previous = us;
    }
    // Real microseconds, not milliseconds padded with zeros.
    expect(
      [...seen].some((dm) => !/\.\d{3}000[+-]/.test(dm)),
      [...seen].join(' '),
    ).toBe(true);
  });

  it('dateModified is unique across 50 concurrent writes on different assets, and the feed orders them', async () => {
    const assets = await Promise.all(Array.from({ length: 50 }, () => createAsset(broker)));
    const created = assets.map((a) => a.body.data.dateModified as string);
    expect(new Set(created).size).toBe(50);
    const moved = await Promise.all(assets.map((a) => toPending(broker, a.id, a.token)));
    const stamps = moved.map((m) => m.data.dateModified as string);
    expect(new Set(stamps).size).toBe(50);
    for (const i of moved.keys()) expect(micros(stamps[i]!)).toBeGreaterThan(micros(assets[i]!.body.data.dateModified));
    const list = await reader.get(`${LIST}?limit=1000`);
    expect(list.status).toBe(200);
    const listed = list.json.data as { id: string; dateModified: string }[];
    for (const [i, a] of assets.entries()) expect(listed.find((x) => x.id === a.id)?.dateModified).toBe(stamps[i]);
    const times = listed.map((x) => micros(x.dateModified));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
  });
});

describe('assetID day counter', () => {
  const { broker, broker2 } = useServer();

  function parseAssetId(assetID: string): { prefix: string; day: string; index: number } {
    const m = /^(.+)-(\d{4}-\d{2}-\d{2})-(\d{6})$/.exec(assetID);
    expect(m, assetID).not.toBeNull();
    return { prefix: m![1]!, day: m![2]!, index: Number(m![3]) };
  }

  it('starts at 000001 on a fresh store and counts consecutively across sequential creates', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await createAsset(broker);
      const parsed = parseAssetId(body.data.assetID);
      expect(parsed.prefix).toBe('UA-AR-DGF');
      expect(parsed.day).toBe(body.data.date.slice(0, 10));
      ids.push(body.data.assetID);
    }
    const day = parseAssetId(ids[0]!).day;
    expect(ids).toEqual([1, 2, 3, 4, 5].map((n) => `UA-AR-DGF-${day}-${String(n).padStart(6, '0')}`));
  });

  it('stays gap-free and unique across 30 concurrent creates (by two brokers)', async () => {
    const first = parseAssetId((await createAsset(broker)).body.data.assetID);
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => createAsset(i % 2 ? broker2 : broker)));
    const indexes = created
      .map((c) => parseAssetId(c.body.data.assetID))
      .map((p) => {
        expect(p.day).toBe(first.day);
        return p.index;
      });
    expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => first.index + 1 + i));
    const last = parseAssetId((await createAsset(broker)).body.data.assetID);
    expect(last.index).toBe(first.index + 31);
  });

  it('a refused creation does not consume a number', async () => {
    const before = parseAssetId((await createAsset(broker)).body.data.assetID);
    const bad = await broker.post(LIST, { data: validAsset({ value: { currency: 'UAH', amount: -1 } }) });
    expect(bad.status, bad.text).toBe(422);
    const after = parseAssetId((await createAsset(broker)).body.data.assetID);
    expect(after.index).toBe(before.index + 1);
  });
});

describe('other time zones and prefix', () => {
  it('TZ=UTC writes +00:00 and counts days in UTC', async () => {
    const { broker, anonymous } = await serverForThisTest({ TZ: 'UTC' });
    const { id, token, body } = await createAsset(broker);
    expect(body.data.date).toMatch(/\.\d{6}\+00:00$/);
    expect(body.data.dateModified).toMatch(/\.\d{6}\+00:00$/);
    expectZoned(body.data.dateModified, 'UTC', 'UTC dateModified');
    expect(body.data.assetID).toBe(`UA-AR-DGF-${body.data.date.slice(0, 10)}-000001`);
    const pending = (await toPending(broker, id, token)).data;
    expect(pending.dateModified).toMatch(/\.\d{6}\+00:00$/);
    const list = await anonymous.get(LIST);
    expect(list.json.next_page.offset).toMatch(/\.\d{6}\+00:00$/);
  });

  it('TZ=Asia/Kolkata writes +05:30', async () => {
    const { broker } = await serverForThisTest({ TZ: 'Asia/Kolkata' });
    const { body } = await createAsset(broker);
    expect(body.data.dateModified).toMatch(/\.\d{6}\+05:30$/);
    expectZoned(body.data.date, 'Asia/Kolkata', 'Kolkata date');
  });

  it('ASSET_ID_PREFIX sets the prefix', async () => {
    const { broker } = await serverForThisTest({ ASSET_ID_PREFIX: 'UA-TEST' });
    const { body } = await createAsset(broker);
    expect(body.data.assetID).toBe(`UA-TEST-${body.data.date.slice(0, 10)}-000001`);
  });
});
