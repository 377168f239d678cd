/**
 * The change-stream service over a real store (SQLite, or MongoDB with MONGODB_URI): what the streams carry, the
 * one shared reader per node, slow clients, keep-alives and the end. Over HTTP, across nodes and restarts:
 * test/routes/changes.test.ts and test/reliability/changes.test.ts.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { ChangeStreams, type ChangeStreamSettings } from '../../src/services/changes.js';
import { openStore } from '../../src/store/index.js';
import type { AssetStore, ListQuery } from '../../src/store/types.js';
import { uniqueMongoUri } from '../helpers/server.js';
import { SseParser } from '../helpers/sse.js';
import { DRAFT_ZONE, draftAt, type DraftShape, written } from '../store/fixtures/drafts.js';
import { waitFor } from '../store/contract.js';

const SETTINGS: ChangeStreamSettings = {
  timeZone: 'Europe/Kyiv',
  maxClients: 1000,
  maxPerClient: 1000,
  maxUnread: 1_048_576,
  unreadTimeout: 30_000,
  heartbeat: 15_000,
};
const silentLog = { info: () => undefined, warn: () => undefined };

interface Opened {
  parser: SseParser;
  body: Readable;
  ended: Promise<void>;
}

/** Reads a stream's body as a client would. */
function read(body: Readable): Opened {
  const parser = new SseParser();
  body.setEncoding('utf8');
  body.on('data', (chunk: string) => parser.push(chunk));
  const ended = new Promise<void>((resolve) => body.once('close', () => resolve()));
  return { parser, body, ended };
}

const ids = (parser: SseParser) => parser.events.map((event) => JSON.parse(event.data).id as string);

describe('change streams (service, one node)', () => {
  let store: AssetStore;
  let streams: ChangeStreams;
  let listCalls: ListQuery[];

  async function setUp(settings: Partial<ChangeStreamSettings> = {}): Promise<void> {
    const dataDir = await mkdtemp(join(tmpdir(), 'registry-changes-'));
    const mongodbUri = process.env.MONGODB_URI ? uniqueMongoUri(process.env.MONGODB_URI) : undefined;
    const real = await openStore({ dataDir, mongodbUri, timeZone: DRAFT_ZONE });
    listCalls = [];
    // The real store, with its feed reads counted (the one-reader-per-node claim is about how many there are).
    store = {
      create: (build) => real.create(build),
      get: (id) => real.get(id),
      getText: (id) => real.getText(id),
      revisions: (id, after, limit, maxBytes) => real.revisions(id, after, limit, maxBytes),
      snapshot: (id, rev) => real.snapshot(id, rev),
      update: (id, rev, build) => real.update(id, rev, build),
      list: (query) => {
        listCalls.push(query);
        return real.list(query);
      },
      bulkInsert: (records) => real.bulkInsert(records),
      watchWrites: (onWrite) => real.watchWrites(onWrite),
      ping: () => real.ping(),
      close: () => real.close(),
      transfers: real.transfers,
      files: real.files,
      log: real.log,
    };
    streams = new ChangeStreams(store, { ...SETTINGS, ...settings }, silentLog);
  }

  afterEach(async () => {
    await streams?.close();
    await store?.close();
  });

  async function create(shape: DraftShape = {}) {
    return store.create((stamp) => written(draftAt(stamp, shape)));
  }

  it('sends the feed from its start, then every change as it is listed, with strictly increasing ids', async () => {
    await setUp();
    const before = [await create(), await create({ listed: false }), await create()];
    const client = read(streams.open({ mode: 'real', fields: [] }));
    await waitFor(() => client.parser.events.length >= 2, 5000);
    expect(client.parser.retry).toBe(1000);
    expect(ids(client.parser)).toEqual([before[0]!.id, before[2]!.id]);

    const draft = before[1]!;
    const published = await store.update(draft.id, 1, (stamp) =>
      written(draftAt(stamp, { id: draft.id, title: 'published' })),
    );
    const later = await create();
    await waitFor(() => client.parser.events.length >= 4, 5000);
    expect(ids(client.parser)).toEqual([before[0]!.id, before[2]!.id, draft.id, later.id]);
    // The event is the listing entry: the same id, dateModified and data as the feed shows.
    const listing = await store.list({ descending: false, limit: 10, mode: 'real', fields: [] });
    expect(client.parser.events.map((event) => ({ id: event.id, data: JSON.parse(event.data) }))).toEqual(
      listing.map((row) => ({ id: row.dateModified, data: { id: row.id, dateModified: row.dateModified } })),
    );
    expect(published).not.toBe('conflict');
    const stamps = listing.map((row) => row.modified);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it('starts after the position asked for, and sends an asset again only with a later dateModified', async () => {
    await setUp();
    const first = await create();
    const second = await create();
    const client = read(streams.open({ after: first.modified, mode: 'real', fields: [] }));
    await waitFor(() => client.parser.events.length >= 1, 5000);
    const edited = await store.update(first.id, 1, (stamp) =>
      written(draftAt(stamp, { id: first.id, title: 'edited' })),
    );
    await waitFor(() => client.parser.events.length >= 2, 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ids(client.parser)).toEqual([second.id, first.id]);
    expect(client.parser.events[1]!.id).toBe(edited !== 'conflict' ? edited.asset.dateModified : '');
  });

  it('filters by mode and adds opt_fields, as the listing does', async () => {
    await setUp();
    const test = read(streams.open({ mode: 'test', fields: [] }));
    const all = read(streams.open({ mode: 'all', fields: ['title', 'status', 'nothing'] }));
    const real = await create({ title: 'real one' });
    const testOne = await create({ test: true, title: 'test one' });
    await waitFor(() => all.parser.events.length >= 2 && test.parser.events.length >= 1, 5000);
    expect(ids(test.parser)).toEqual([testOne.id]);
    expect(all.parser.events.map((event) => JSON.parse(event.data))).toEqual([
      { id: real.id, dateModified: real.asset.dateModified, title: 'real one', status: 'pending' },
      { id: testOne.id, dateModified: testOne.asset.dateModified, title: 'test one', status: 'pending' },
    ]);
  });

  it('feeds many streams from one read per change, not one per stream', async () => {
    await setUp();
    const clients = Array.from({ length: 200 }, () => read(streams.open({ mode: 'real', fields: [] })));
    // Every stream is level with the (empty) feed and live.
    await create();
    await waitFor(() => clients.every((client) => client.parser.events.length >= 1), 10_000);
    const callsBefore = listCalls.length;
    const written = [];
    for (let i = 0; i < 10; i++) written.push((await create()).id);
    await waitFor(() => clients.every((client) => client.parser.events.length >= 11), 10_000);
    for (const client of clients) expect(ids(client.parser).slice(1)).toEqual(written);
    // At most a few reads per write (signals may come twice: the writer's own and the poll's), whatever the
    // number of streams.
    expect(listCalls.length - callsBefore).toBeLessThanOrEqual(10 * 3);
  });

  it('lets a stream that starts far behind catch up page by page, then join the others', async () => {
    await setUp();
    const base = Date.now() * 1000 - 60_000_000;
    // More than two pages of a stream's own reads (kept small: on DocumentDB a page sorts every row after its
    // position).
    await store.bulkInsert(Array.from({ length: 450 }, (_, i) => draftAt({ now: base + i * 10 })));
    const live = read(streams.open({ after: base + 449 * 10, mode: 'real', fields: [] }));
    const behind = read(streams.open({ mode: 'real', fields: [] }));
    await waitFor(() => behind.parser.events.length >= 450, 10_000);
    const next = await create();
    await waitFor(() => behind.parser.events.length >= 451 && live.parser.events.length >= 1, 5000);
    expect(ids(live.parser)).toEqual([next.id]);
    expect(new Set(behind.parser.events.map((event) => event.id)).size).toBe(451);
    expect(ids(behind.parser).at(-1)).toBe(next.id);
  });

  it('serves a stream that is level with the feed but behind a group started further on, without spinning', async () => {
    await setUp();
    const before = await create();
    // The first stream starts the group an hour ahead of every row; the second is level with the feed below it.
    const ahead = read(streams.open({ after: before.modified + 3_600_000_000, mode: 'real', fields: [] }));
    await waitFor(() => ahead.parser.retry !== undefined, 2000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const level = read(streams.open({ after: before.modified, mode: 'real', fields: [] }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const calls = listCalls.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing was written: no read loop runs meanwhile.
    expect(listCalls.length - calls).toBeLessThanOrEqual(2);
    const written = [(await create()).id, (await create()).id];
    await waitFor(() => level.parser.events.length >= 2, 5000);
    expect(ids(level.parser)).toEqual(written);
    expect(ahead.parser.events).toEqual([]);
  });

  it('refuses a stream beyond maxClients with 503 and Retry-After', async () => {
    await setUp({ maxClients: 2 });
    streams.open({ mode: 'real', fields: [] });
    const second = streams.open({ mode: 'real', fields: [] });
    let refusal: unknown;
    try {
      streams.open({ mode: 'real', fields: [] });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      statusCode: 503,
      errors: [{ location: 'url', name: 'stream', description: 'Too many streams, retry later' }],
      headers: { 'Retry-After': '5' },
    });
    // A client that goes away frees its place.
    second.destroy();
    await waitFor(() => streams.size === 1, 2000);
    expect(() => streams.open({ mode: 'real', fields: [] })).not.toThrow();
  });

  it('keeps an idle stream alive with comments', async () => {
    await setUp({ heartbeat: 200 });
    const client = read(streams.open({ mode: 'real', fields: [] }));
    await waitFor(() => client.parser.comments.length >= 3, 3000);
    expect(client.parser.comments[0]).toBe('keep-alive');
    expect(client.parser.events).toEqual([]);
  });

  it('stops writing to a client that does not read, drops it after the timeout, and bounds what waits', async () => {
    await setUp({ maxUnread: 8192, unreadTimeout: 500 });
    const base = Date.now() * 1000 - 60_000_000;
    await store.bulkInsert(
      Array.from({ length: 600 }, (_, i) => draftAt({ now: base + i * 10 }, { title: 'x'.repeat(1000) })),
    );
    // Nobody reads this body: everything written to it waits in the process.
    const stalled = streams.open({ mode: 'real', fields: ['title'] });
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    let largest = 0;
    const sampler = setInterval(() => (largest = Math.max(largest, stalled.readableLength)), 5);
    // A reading client on the same node keeps getting everything meanwhile.
    const reader = read(streams.open({ mode: 'real', fields: [] }));
    await waitFor(() => reader.parser.events.length >= 600, 10_000);
    await closed;
    clearInterval(sampler);
    expect(streams.size).toBe(1);
    // Not the 600 events (~680 kB): the limit plus at most one page of 200 events (< 1200 bytes each).
    expect(largest).toBeLessThan(8192 + 200 * 1200);
    expect(largest).toBeGreaterThan(8192);
  });

  it('lets a slow client that reads again catch up, without losing or repeating an event', async () => {
    await setUp({ maxUnread: 4096, unreadTimeout: 10_000 });
    const body = streams.open({ mode: 'real', fields: ['title'] });
    const parser = new SseParser();
    body.setEncoding('utf8');
    const written: string[] = [];
    for (let i = 0; i < 100; i++) written.push((await create({ title: `asset ${i} ${'y'.repeat(300)}` })).id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiting = body.readableLength;
    // Only now the client starts reading: the stream was paused and picks up where it stopped.
    let received = 0;
    body.on('data', (chunk: string) => {
      received += chunk.length;
      parser.push(chunk);
    });
    await waitFor(() => parser.events.length >= 100, 10_000);
    expect(ids(parser)).toEqual(written);
    expect(waiting).toBeLessThan(received / 2);
  });

  it('ends every stream cleanly on close and refuses new ones', async () => {
    await setUp();
    const clients = [read(streams.open({ mode: 'real', fields: [] })), read(streams.open({ mode: 'all', fields: [] }))];
    const ends = clients.map(
      (client) => new Promise<boolean>((resolve) => client.body.once('end', () => resolve(true))),
    );
    await streams.close();
    expect(await Promise.all(ends)).toEqual([true, true]);
    expect(() => streams.open({ mode: 'real', fields: [] })).toThrow(ApiError);
  });
});
