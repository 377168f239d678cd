/** docs/decisions/0042-connection-bounds.md, on real sockets. */
import { describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../helpers/server.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { lastJsonBody, rawConnection, sleep, type RawConnection } from '../helpers/raw.js';
import { openChanges } from '../helpers/sse.js';
import { multipart, collect } from '../helpers/uploads.js';

const REQUEST_TIMEOUT = 600;
const KEEP_ALIVE_TIMEOUT = 800;
/** What the bounds may overshoot by: Node checks headers every tenth of the bound, the machine is busy. */
const SLACK = 700;
const TIMEOUT_ERROR = {
  status: 'error',
  errors: [{ location: 'header', name: 'request', description: 'Request timeout' }],
};
const BASIC = `Basic ${Buffer.from(`${KEYS.broker}:`).toString('base64')}`;

/**
 * Expects a 408 in the envelope, then the connection closed, both within the bound from the last byte sent
 * (`sentAt`: milliseconds after the connection was made).
 */
async function expectTimedOut(connection: RawConnection, sentAt = connection.elapsed()): Promise<void> {
  const closedAt = await connection.closed;
  expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  expect(connection.received()).toMatch(/\r\nconnection: close\r\n/i);
  expect(lastJsonBody(connection.received())).toEqual(TIMEOUT_ERROR);
  expect(closedAt - sentAt).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
  expect(closedAt - sentAt).toBeLessThan(REQUEST_TIMEOUT + SLACK);
}

describe('REQUEST_TIMEOUT and KEEP_ALIVE_TIMEOUT', () => {
  const server = useServer(
    {
      REQUEST_TIMEOUT: String(REQUEST_TIMEOUT),
      KEEP_ALIVE_TIMEOUT: String(KEEP_ALIVE_TIMEOUT),
      STREAM_HEARTBEAT: '5000',
    },
    { via: 'http' },
  );
  const host = () => new URL(server.url).host;

  /** The cluster cookie for hand-written writes. */
  async function cookie(): Promise<string> {
    const client = server.client({ via: 'http' });
    await client.get('/api/0.1/assets');
    return client.cookieHeader()!;
  }

  it('a connection that sends nothing is closed within the bound (a 408 first)', async () => {
    const connection = await rawConnection(server.url);
    await expectTimedOut(connection, 0);
  });

  it('headers that stop half-way: 408, the connection closed', async () => {
    const connection = await rawConnection(server.url);
    connection.write(`GET /api/0.1/assets HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: `);
    await expectTimedOut(connection);
  });

  it('a body that never comes, on a path that does not exist: 408, the connection closed', async () => {
    const connection = await rawConnection(server.url);
    connection.write(
      `POST /api/0.1/nothing HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    await expectTimedOut(connection);
  });

  it("a broker's create whose body stops arriving: 408, the connection closed, nothing created", async () => {
    const before = (await server.anonymous.get('/api/0.1/assets?limit=1000')).json.data.length;
    const connection = await rawConnection(server.url);
    const body = JSON.stringify({ data: validAsset() });
    connection.write(
      `POST /api/0.1/assets HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${BASIC}\r\nCookie: ${await cookie()}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 40)}`,
    );
    await expectTimedOut(connection);
    expect((await server.anonymous.get('/api/0.1/assets?limit=1000')).json.data.length).toBe(before);
  });

  it('a request answered before its body (401) keeps its connection only while the rest arrives in time', async () => {
    const silent = await rawConnection(server.url);
    silent.write(
      `POST /api/0.1/assets HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${await cookie()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    await silent.waitFor((text) => text.includes('\r\n\r\n{'), 2000);
    expect(silent.received()).toMatch(/^HTTP\/1\.1 401 /);
    const closedAt = await silent.closed;
    expect(closedAt).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
    expect(closedAt).toBeLessThan(REQUEST_TIMEOUT + SLACK);

    // The same, with the rest of the body arriving in pauses shorter than the bound: the connection serves on.
    const patient = await rawConnection(server.url);
    patient.write(
      `POST /api/0.1/assets HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${await cookie()}\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n`,
    );
    await patient.waitFor((text) => text.includes('\r\n\r\n{'), 2000);
    expect(patient.received()).toMatch(/^HTTP\/1\.1 401 /);
    for (const byte of '{}  ') {
      await sleep(REQUEST_TIMEOUT / 2);
      patient.write(byte);
    }
    patient.write(`GET /api/0.1/assets?limit=1 HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    await patient.waitFor((text) => (text.match(/HTTP\/1\.1 /g) ?? []).length === 2, 2000);
    expect(patient.received()).toMatch(/HTTP\/1\.1 200 /);
    patient.destroy();
  });

  it('a JSON body that keeps arriving, a byte at a time for several bounds, is not cut: 201', async () => {
    const connection = await rawConnection(server.url);
    const body = Buffer.from(JSON.stringify({ data: validAsset() }));
    connection.write(
      `POST /api/0.1/assets HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${BASIC}\r\nCookie: ${await cookie()}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // Twelve pauses of a third of the bound: four bounds in all.
    const pieces = 12;
    const size = Math.ceil(body.length / pieces);
    for (let offset = 0; offset < body.length; offset += size) {
      await sleep(REQUEST_TIMEOUT / 3);
      connection.write(body.subarray(offset, offset + size));
    }
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 201 /);
  });

  it('an upload that keeps arriving is not cut: 201', async () => {
    const content = Buffer.alloc(64 * 1024, 'a');
    const form = multipart([{ name: 'file', filename: 'slow.txt', contentType: 'text/plain', content }]);
    const body = await collect(form.body);
    const connection = await rawConnection(server.url);
    connection.write(
      `POST /api/0.1/ds/upload HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${BASIC}\r\nCookie: ${await cookie()}\r\n` +
        `Content-Type: ${form.contentType}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    const size = Math.ceil(body.length / 10);
    for (let offset = 0; offset < body.length; offset += size) {
      await sleep(REQUEST_TIMEOUT / 3);
      connection.write(body.subarray(offset, offset + size));
    }
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 201 /);
  });

  it('an upload that pauses longer than the bound: 408, the connection closed', async () => {
    const form = multipart([
      { name: 'file', filename: 'stalled.txt', contentType: 'text/plain', content: Buffer.alloc(4096, 'b') },
    ]);
    const body = await collect(form.body);
    const connection = await rawConnection(server.url);
    connection.write(
      `POST /api/0.1/ds/upload HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${BASIC}\r\nCookie: ${await cookie()}\r\n` +
        `Content-Type: ${form.contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    connection.write(body.subarray(0, 1000));
    await expectTimedOut(connection);
  });

  it('an idle kept-alive connection closes after KEEP_ALIVE_TIMEOUT', async () => {
    const connection = await rawConnection(server.url);
    connection.write(`GET /api/0.1/assets?limit=1 HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    await connection.waitFor((text) => /\r\n\r\n\{.*\}$/s.test(text), 2000);
    const idle = (await connection.closed) - connection.firstByteAfter()!;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT - 50);
    // Node adds a second to the announced timeout before it closes, so that clients leave first.
    expect(idle).toBeLessThan(KEEP_ALIVE_TIMEOUT + 1000 + SLACK);
  });

  it('an open change stream outlives every bound', async () => {
    const stream = await openChanges(server.url);
    expect(stream.status).toBe(200);
    await sleep(REQUEST_TIMEOUT * 2 + KEEP_ALIVE_TIMEOUT * 2);
    const { id, token } = await createAsset(server.broker);
    await toPending(server.broker, id, token);
    await stream.waitFor((parser) => parser.events.some((event) => event.data.includes(id)), 5000, 'the new asset');
    stream.close();
  });
});

describe('MAX_CONNECTIONS_PER_CLIENT', () => {
  const CAP = 8;
  const server = useServer({ MAX_CONNECTIONS_PER_CLIENT: String(CAP) }, { via: 'http' });
  const host = () => new URL(server.url).host;

  it('a client over its cap is closed within a second, unanswered, and does not starve another', async () => {
    const held = await Promise.all(
      Array.from({ length: CAP }, () => rawConnection(server.url, { localAddress: '127.0.0.2' })),
    );
    const extra = await Promise.all(
      Array.from({ length: 20 }, () => rawConnection(server.url, { localAddress: '127.0.0.2' })),
    );
    for (const connection of extra) {
      expect(await connection.closed).toBeLessThan(1000);
      expect(connection.received()).toBe('');
    }
    // The ones within the cap are still open and served.
    const first = held[0]!;
    first.write(`GET /api/0.1/assets?limit=1 HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    await first.waitFor((text) => text.startsWith('HTTP/1.1 200 '), 2000);

    // Another client address is served all along.
    const other = server.client({ via: 'http' });
    for (let i = 0; i < 3; i++) expect((await other.get('/api/0.1/assets?limit=1')).status).toBe(200);

    // A place freed is a place taken again.
    held.pop()!.destroy();
    await sleep(100);
    const again = await rawConnection(server.url, { localAddress: '127.0.0.2' });
    again.write(`GET /api/0.1/assets?limit=1 HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    await again.waitFor((text) => text.startsWith('HTTP/1.1 200 '), 2000);
    for (const connection of [...held, again]) connection.destroy();
  });
});
