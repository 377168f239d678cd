/**
 * GET /api/0.1/assets/changes (docs/decisions/0034-change-stream-is-the-feed-pushed.md): format and headers, where
 * it starts, what it carries (the listing's entries), the limits and refusals, keep-alives, slow clients and
 * shutdown. Across nodes, restarts and concurrent writers: test/reliability/changes.test.ts.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { serverForThisTest, useServer } from '../helpers/server.js';
import { changeEvents, CHANGES, openChanges, type OpenedStream } from '../helpers/sse.js';
import { expectRefusedForSlots } from '../helpers/stream-slots.js';
import { draftAt } from '../store/fixtures/drafts.js';

const LIST = '/api/0.1/assets';

/** Creates and publishes an asset; returns its id and the dateModified it was listed with. */
async function publish(client: Client, data = validAsset()): Promise<{ id: string; dateModified: string }> {
  const created = await createAsset(client, data);
  const pending = await toPending(client, created.id, created.token);
  return { id: created.id, dateModified: pending.data.dateModified };
}

const eventIds = (stream: OpenedStream) => changeEvents(stream.parser).map((event) => event.data.id);

describe('GET /assets/changes', () => {
  // Streams are read over real HTTP (openChanges); the other requests go through the app.
  const server = useServer({ STREAM_HEARTBEAT: '400' });
  const { broker } = server;
  const open: OpenedStream[] = [];

  afterAll(() => {
    for (const stream of open) stream.close();
  });

  async function changes(query = '', headers: Record<string, string> = {}): Promise<OpenedStream> {
    const stream = await openChanges(server.url, query, headers);
    open.push(stream);
    return stream;
  }

  it('answers an event stream: headers, a cluster cookie for a new client, retry first, then the feed', async () => {
    const first = await publish(broker);
    const stream = await changes();
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.headers['x-request-id']).toMatch(/^req-/);
    expect(stream.headers['set-cookie']).toMatch(/^SERVER_ID=test-node\./);
    await stream.waitFor((parser) => parser.events.length >= 1, 5000);
    expect(stream.parser.retry).toBe(1000);
    expect(changeEvents(stream.parser)[0]).toEqual({
      id: first.dateModified,
      data: { id: first.id, dateModified: first.dateModified },
    });
  });

  it('sends each change as it is listed, drafts never, with strictly increasing ids equal to the listing', async () => {
    const head = await broker.get(`${LIST}?descending=1&limit=1`);
    const offset: string = head.json.data[0].dateModified;
    const stream = await changes(`?offset=${encodeURIComponent(offset)}`);
    const draft = await createAsset(broker);
    const published = await publish(broker);
    const edited = await broker.patch(`${LIST}/${draft.id}`, { data: { status: 'pending' } }, { token: draft.token });
    expect(edited.status).toBe(200);
    await stream.waitFor((parser) => parser.events.length >= 2, 5000);
    const events = changeEvents(stream.parser);
    expect(events.map((event) => event.data.id)).toEqual([published.id, draft.id]);
    const listed = await broker.get(`${LIST}?offset=${encodeURIComponent(offset)}`);
    expect(events.map((event) => event.data)).toEqual(listed.json.data);
  });

  it('starts after Last-Event-ID, which wins over offset', async () => {
    const a = await publish(broker);
    const b = await publish(broker);
    const c = await publish(broker);
    const byHeader = await changes(`?offset=${encodeURIComponent(a.dateModified)}`, {
      'last-event-id': b.dateModified,
    });
    const byQuery = await changes(`?offset=${encodeURIComponent(a.dateModified)}`);
    await byHeader.waitFor((parser) => parser.events.length >= 1, 5000);
    await byQuery.waitFor((parser) => parser.events.length >= 2, 5000);
    expect(eventIds(byHeader)).toEqual([c.id]);
    expect(eventIds(byQuery)).toEqual([b.id, c.id]);
  });

  it('understands an offset in another time zone or with its + decoded to a space, as the listing does', async () => {
    const a = await publish(broker);
    const b = await publish(broker);
    const plusAsSpace = a.dateModified.replace('+', ' ');
    const stream = await changes(`?offset=${plusAsSpace}`);
    await stream.waitFor((parser) => parser.events.length >= 1, 5000);
    expect(eventIds(stream)[0]).toBe(b.id);
  });

  it('takes mode and opt_fields as the listing does', async () => {
    const head = await broker.get(`${LIST}?descending=1&limit=1&mode=_all_`);
    const offset = encodeURIComponent(head.json.data[0].dateModified);
    const testOnly = await changes(`?offset=${offset}&mode=test&opt_fields=title,status`);
    const all = await changes(`?offset=${offset}&mode=_all_&opt_fields=status,nothing`);
    const real = await publish(broker, validAsset({ title: 'real one' }));
    const test = await publish(broker, validAsset({ title: 'test one', mode: 'test' }));
    await all.waitFor((parser) => parser.events.length >= 2, 5000);
    await testOnly.waitFor((parser) => parser.events.length >= 1, 5000);
    const listedTest = await broker.get(`${LIST}?offset=${offset}&mode=test&opt_fields=title,status`);
    expect(changeEvents(testOnly.parser).map((event) => event.data)).toEqual(listedTest.json.data);
    expect(changeEvents(testOnly.parser)[0]!.data).toMatchObject({
      id: test.id,
      title: '[ТЕСТУВАННЯ] test one',
      status: 'pending',
    });
    expect(changeEvents(all.parser).map((event) => event.data)).toEqual([
      { id: real.id, dateModified: real.dateModified, status: 'pending' },
      { id: test.id, dateModified: test.dateModified, status: 'pending' },
    ]);
  });

  it('keeps a silent stream open with keep-alive comments', async () => {
    const head = await broker.get(`${LIST}?descending=1&limit=1&mode=_all_`);
    const stream = await changes(`?mode=test&offset=${encodeURIComponent(head.json.data[0].dateModified)}`);
    await stream.waitFor((parser) => parser.comments.length >= 2, 3000);
    expect(stream.parser.comments.every((comment) => comment === 'keep-alive')).toBe(true);
    expect(stream.parser.events).toEqual([]);
  });

  it.each([
    ['an offset that is no date', '?offset=yesterday', {}, 'querystring', 'offset'],
    ['a Last-Event-ID that is no date', '', { 'last-event-id': 'event-17' }, 'header', 'Last-Event-ID'],
  ])('refuses %s with 400', async (_case, query, headers, location, name) => {
    const refused = await changes(query, headers);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).errors[0]).toMatchObject({ location, name });
  });

  it('answers HEAD with the headers and opens no stream; other methods are 405', async () => {
    const head = await server.client().request('HEAD', CHANGES);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const post = await broker.post(CHANGES, { data: {} });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('ends its streams cleanly when the server shuts down', async () => {
    const other = await serverForThisTest();
    const streams = [await openChanges(other.url), await openChanges(other.url, '?mode=_all_&opt_fields=title')];
    await Promise.all(streams.map((stream) => stream.waitFor((parser) => parser.retry !== undefined, 5000)));
    await other.close();
    expect(await Promise.all(streams.map((stream) => stream.ended))).toEqual([true, true]);
  });
});

describe('GET /assets/changes: limits and the rules of every GET', () => {
  it('serves at most STREAM_MAX_CLIENTS streams: 503 with Retry-After beyond, room again when one closes', async () => {
    const server = await serverForThisTest({ STREAM_MAX_CLIENTS: '2' });
    const first = await openChanges(server.url);
    const second = await openChanges(server.url);
    const third = await openChanges(server.url);
    expect([first.status, second.status]).toEqual([200, 200]);
    expectRefusedForSlots(third);
    // Neither HEAD nor the refusal took a place.
    expect((await server.anonymous.request('HEAD', CHANGES)).status).toBe(200);
    first.close();
    await first.ended;
    let again: OpenedStream | undefined;
    for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
      again = await openChanges(server.url);
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(again?.status).toBe(200);
    again?.close();
    second.close();
  });

  it('STREAM_MAX_CLIENTS=0 turns streams off (503), the listing stays', async () => {
    const server = await serverForThisTest({ STREAM_MAX_CLIENTS: '0' });
    expect((await openChanges(server.url)).status).toBe(503);
    expect((await server.anonymous.get(LIST)).status).toBe(200);
  });

  it('refuses a cookie of another node with 412 and a fresh cookie, and counts streams in the rate limit', async () => {
    const nodeA = await serverForThisTest();
    const nodeB = await serverForThisTest({ SERVER_ID: 'other-node', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW: '60000' });
    const client = nodeA.anonymous;
    await client.get(LIST);
    const foreign = await openChanges(nodeB.url, '', { cookie: client.cookieHeader()! });
    expect(foreign.status).toBe(412);
    expect(foreign.headers['set-cookie']).toMatch(/^SERVER_ID=other-node\./);
    expect(JSON.parse(foreign.text).errors[0]).toMatchObject({ location: 'cookies', name: 'SERVER_ID' });
    const own = foreign.headers['set-cookie']!.split(';')[0]!;
    // The 412 was refused before the rate limit counted it: two streams are allowed, the third is not.
    const allowed = [
      await openChanges(nodeB.url, '', { cookie: own }),
      await openChanges(nodeB.url, '', { cookie: own }),
    ];
    expect(allowed.map((stream) => stream.status)).toEqual([200, 200]);
    const limited = await openChanges(nodeB.url, '', { cookie: own });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (const stream of allowed) stream.close();
  });

  it('drops a client that leaves more than STREAM_MAX_UNREAD unread for STREAM_UNREAD_TIMEOUT, and frees its place', async () => {
    const server = await serverForThisTest({
      STREAM_MAX_CLIENTS: '1',
      STREAM_MAX_UNREAD: '65536',
      STREAM_UNREAD_TIMEOUT: '500',
    });
    // Enough events to fill the socket's buffers on both sides, then the registry's allowance.
    const base = Date.now() * 1000 - 3_600_000_000;
    const title = 'т'.repeat(2000);
    for (let batch = 0; batch < 4; batch++) {
      await server.store.bulkInsert(
        Array.from({ length: 500 }, (_, i) => draftAt({ now: base + (batch * 500 + i) * 10 }, { title })),
      );
    }
    const port = Number(new URL(server.url).port);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.setEncoding('utf8');
    socket.write(`GET ${CHANGES}?opt_fields=title HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    // Read the first bytes (the answer began), then nothing more for now.
    let received = await new Promise<string>((resolve) => socket.once('data', resolve));
    socket.pause();
    const busy = await openChanges(server.url);
    expect(busy.status).toBe(503);

    // The registry drops the client once the socket's buffers and its own allowance are full for 500 ms: its
    // place is free again.
    const deadline = Date.now() + 30_000;
    let again: OpenedStream | undefined;
    while (Date.now() < deadline) {
      again = await openChanges(server.url, `?offset=${encodeURIComponent(new Date().toISOString())}`);
      if (again.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.status).toBe(200);
    again?.close();

    // Reading again, the client gets what was on its way, then the connection ends without the end of the
    // chunked body: it was cut, well before the end of the feed.
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.resume();
    await closed;

    const events = received.split('\nid: ').length - 1;
    expect(events).toBeGreaterThan(0);
    expect(events).toBeLessThan(2000);
    expect(received.endsWith('\r\n0\r\n\r\n')).toBe(false);
  }, 60_000);
});
