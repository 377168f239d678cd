/**
 * What one client can make a node hold through change streams (docs/decisions/0060-stream-bounds-per-event.md):
 * the unread bound per event, one serialisation of an event for every stream, a share of streams per client, and
 * no position past the feed's end and the clock.
 */
import type { Socket } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { serverForThisTest } from '../helpers/server.js';
import { rawConnection, sleep } from '../helpers/raw.js';
import { CHANGES, openChanges } from '../helpers/sse.js';
import { expectRefusedForSlots } from '../helpers/stream-slots.js';
import { draftAt } from '../store/fixtures/drafts.js';
import { formatDate } from '../../src/domain/dates.js';
import { countReads, rawSocket } from '../../bench/raw-socket.js';

const MiB = 1024 * 1024;

/** A full collection first: what stays is what the node holds. */
function heldBytes(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** A stream read over a raw socket that counts its events and keeps nothing of them (`socket.pause()`: reads nothing). */
async function rawStream(url: string, query: string): Promise<{ socket: Socket; events(): number }> {
  const socket = await rawSocket(url);
  const events = countReads(socket, '\nid: ');
  socket.write(`GET ${CHANGES}${query} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAccept: text/event-stream\r\n\r\n`);
  return { socket, events };
}

describe('change streams: what a client can make a node hold (record 0060)', () => {
  it('the unread bound holds per event during a catch-up: a client that reads nothing holds at most one event more', async () => {
    const maxUnread = 256 * 1024;
    const server = await serverForThisTest({ STREAM_MAX_UNREAD: String(maxUnread), STREAM_UNREAD_TIMEOUT: '1500' });
    const title = 'x'.repeat(100_000);
    const base = Date.now() * 1000 - 3_600_000_000;
    // 12 MB in all: a page of the catch-up (200) takes the whole feed, far past the kernel's buffers.
    for (let batch = 0; batch < 4; batch++) {
      await server.store.bulkInsert(
        Array.from({ length: 30 }, (_, i) => draftAt({ now: base + (batch * 30 + i) * 10 }, { title })),
      );
    }
    const stream = await rawStream(server.url, '?opt_fields=title');
    stream.socket.pause();
    const deadline = Date.now() + 30_000;
    let dropped: string | undefined;
    while (dropped === undefined && Date.now() < deadline) {
      await sleep(200);
      dropped = server.logLines().find((line) => line.includes('client too slow'));
    }
    stream.socket.destroy();
    expect(dropped).toBeDefined();
    const { unreadBytes } = JSON.parse(dropped!) as { unreadBytes: number };
    // One event past the bound (its chunk framing included), not a page of them.
    expect(unreadBytes).toBeLessThanOrEqual(maxUnread + title.length + 1000);
  }, 90_000);

  it('50 streams with distinct opt_fields and 20 large writes: the node holds one copy of each event', async () => {
    const server = await serverForThisTest({ STREAM_HEARTBEAT: '5000' });
    const start = encodeURIComponent(formatDate(Date.now() * 1000, 'UTC'));
    const streams = await Promise.all(
      Array.from({ length: 50 }, (_, i) => rawStream(server.url, `?offset=${start}&opt_fields=title,f${i}`)),
    );
    await sleep(500);
    const before = heldBytes();
    const title = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 20; i++) await server.store.bulkInsert([draftAt({ now: Date.now() * 1000 }, { title })]);
    const deadline = Date.now() + 60_000;
    while (streams.some((stream) => stream.events() < 20) && Date.now() < deadline) await sleep(200);
    expect(streams.map((stream) => stream.events())).toEqual(streams.map(() => 20));
    const grown = heldBytes() - before;
    for (const stream of streams) stream.socket.destroy();
    // 20 events of 256 KiB held once each are 5 MiB; held once per stream's fields, 250 MiB.
    expect(grown).toBeLessThan(64 * MiB);
  }, 120_000);

  it('serves at most STREAM_MAX_PER_CLIENT streams per client address: 503 beyond, others still served', async () => {
    const server = await serverForThisTest({ STREAM_MAX_PER_CLIENT: '2', STREAM_MAX_CLIENTS: '10' });
    const first = await openChanges(server.url);
    const second = await openChanges(server.url);
    const third = await openChanges(server.url);
    expect([first.status, second.status]).toEqual([200, 200]);
    expectRefusedForSlots(third);
    const other = await rawConnection(server.url, { localAddress: '127.0.0.2' });
    other.write(`GET ${CHANGES} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`);
    await other.waitFor((text) => text.includes('\r\n\r\n'), 10_000);
    expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
    other.destroy();
    first.close();
    await first.ended;
    let again = 0;
    for (let attempt = 0; attempt < 50 && again !== 200; attempt++) {
      const stream = await openChanges(server.url);
      again = stream.status;
      if (again !== 200) await sleep(50);
      else stream.close();
    }
    expect(again).toBe(200);
    second.close();
  });

  it('counts streams per client after TRUST_PROXY', async () => {
    const server = await serverForThisTest({ STREAM_MAX_PER_CLIENT: '1', TRUST_PROXY: '127.0.0.1' });
    const a = await openChanges(server.url, '', { 'x-forwarded-for': '203.0.113.1' });
    const b = await openChanges(server.url, '', { 'x-forwarded-for': '203.0.113.2' });
    const a2 = await openChanges(server.url, '', { 'x-forwarded-for': '203.0.113.1' });
    expect([a.status, b.status, a2.status]).toEqual([200, 200, 503]);
    a.close();
    b.close();
  });

  it('refuses a Last-Event-ID or offset later than both the feed and the clock: 400', async () => {
    const server = await serverForThisTest();
    const inAMinute = formatDate(Date.now() * 1000 + 60_000_000, 'Europe/Kyiv');
    const header = await openChanges(server.url, '', { 'last-event-id': inAMinute });
    expect(header.status).toBe(400);
    expect(JSON.parse(header.text)).toMatchObject({
      status: 'error',
      errors: [{ location: 'header', name: 'Last-Event-ID' }],
    });
    const query = await openChanges(server.url, `?offset=${encodeURIComponent(inAMinute)}`);
    expect(query.status).toBe(400);
    expect(JSON.parse(query.text).errors).toMatchObject([{ location: 'querystring', name: 'offset' }]);

    // Not later than the clock, or not later than the newest entry (written by a node whose clock runs ahead): 200.
    const now = await openChanges(server.url, '', { 'last-event-id': formatDate(Date.now() * 1000, 'UTC') });
    expect(now.status).toBe(200);
    now.close();
    await server.store.bulkInsert([draftAt({ now: Date.now() * 1000 + 120_000_000 })]);
    const ahead = await openChanges(server.url, '', { 'last-event-id': inAMinute });
    expect(ahead.status).toBe(200);
    await ahead.waitFor((parser) => parser.events.length === 1, 10_000);
    ahead.close();
  });
});
