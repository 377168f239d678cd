/**
 * Shutting down (docs/decisions/0038-graceful-shutdown.md) on the real server process. "In flight" is a POST whose
 * body arrives in two halves, and "after the signal on an open connection" a request whose headers arrive in two
 * halves: the signal comes between them.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useScratch } from '../helpers/server.js';
import { Client, httpTransport, type Response } from '../helpers/client.js';
import { validAsset } from '../helpers/fixtures.js';
import { uploadFile } from '../helpers/uploads.js';
import { openChanges, type OpenedStream } from '../helpers/sse.js';
import {
  killAllChildren,
  prepareStore,
  startChild,
  type ChildServer,
  type SharedStore,
} from './fixtures/child-server.js';
import { bound, reportFigures, sleep } from './fixtures/common.js';

/** §13's bound on the whole shutdown, from the signal to the exit (a slow CI machine may be given more). */
const SHUTDOWN_BOUND_MS = bound('SHUTDOWN_BOUND_MS', 2_000);

interface HalfSentPost {
  request: ClientRequest;
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<{ status: number; headers: IncomingMessage['headers']; body: string; socketClosed: Promise<void> }>;
}

/**
 * Starts a create whose body is only half sent; the server has matched the route and waits for the rest. Through
 * `agent` when given (a kept-alive connection it already holds), else on a connection of its own.
 */
async function halfSentCreate(server: ChildServer, agent?: HttpAgent): Promise<HalfSentPost> {
  const broker = new Client(server.url, { key: KEYS.broker });
  await broker.get('/api/0.1/assets');
  const body = Buffer.from(JSON.stringify({ data: validAsset() }));
  const half = Math.floor(body.length / 2);
  const request = httpRequest(`${server.url}/api/0.1/assets`, {
    method: 'POST',
    agent: agent ?? false,
    headers: {
      authorization: `Basic ${Buffer.from(`${KEYS.broker}:`).toString('base64')}`,
      cookie: broker.cookieHeader()!,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const response = new Promise<Awaited<HalfSentPost['response']>>((resolve, reject) => {
    request.on('response', (res: IncomingMessage) => {
      const socketClosed = new Promise<void>((closed) => res.socket.once('close', () => closed()));
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, socketClosed }));
    });
    request.on('error', reject);
  });
  request.write(body.subarray(0, half));
  await sleep(200);
  return { request, finish: () => request.end(body.subarray(half)), response };
}

function exitOf(server: ChildServer): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The status of a fresh request, or the network error's code when the server takes no connection. */
async function freshRequest(url: string): Promise<number | string> {
  try {
    const res = await fetch(`${url}/api/0.1/health`, { signal: AbortSignal.timeout(5_000) });
    await res.text();
    return res.status;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A connection that writes exactly what it is given and reads the answer up to the server's close: one answer
 * that the server closes the connection after (anything else never resolves, and the test times out).
 */
function rawConnection(url: string): { socket: Socket; write(text: string): void; answer: Promise<RawAnswer> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const split = received.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no answer before the connection closed: ${JSON.stringify(received)}`));
      const [statusLine, ...lines] = received.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: received.slice(split + 4) });
    });
  });
  return { socket, write: (text) => socket.write(text), answer };
}

/** `GET <path>` with its headers cut before their end: the request is complete once `finish` is written. */
const UNFINISHED_GET = (path: string): { start: string; finish: string } => ({
  start: `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n`,
  finish: 'Accept: application/json\r\n\r\n',
});

function expectShuttingDown(answer: RawAnswer): void {
  expect(answer.status, answer.body).toBe(503);
  expect(JSON.parse(answer.body)).toEqual({
    status: 'error',
    errors: [{ location: 'url', name: 'server', description: 'Shutting down' }],
  });
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-request-id']).toBeTruthy();
  expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(answer.headers.connection).toBe('close');
}

// docs/decisions/0038-graceful-shutdown.md
describe('graceful shutdown (record 0038)', () => {
  // The processes' store; removed after they are gone (hooks after run in reverse order).
  const scratch = useScratch();
  let store: SharedStore;

  beforeAll(async () => {
    store = await prepareStore(scratch);
  });
  afterAll(async () => {
    await killAllChildren();
  });

  it('SIGTERM: no new connections, the request in flight finishes and is kept, the store closes, exit code 0', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    const inFlight = await halfSentCreate(server);

    server.process.kill('SIGTERM');
    await sleep(300);
    expect(server.exited(), 'the process waits for the request in flight').toBe(false);
    expect(await freshRequest(server.url), 'a new connection after SIGTERM').toBe('ECONNREFUSED');

    inFlight.finish();
    const created = await inFlight.response;
    expect(created.status, created.body).toBe(201);
    expect(await exited).toEqual({ code: 0, signal: null });

    const id = (JSON.parse(created.body) as { data: { id: string } }).data.id;
    const again = await startChild(store);
    try {
      const read = await new Client(again.url).get(`/api/0.1/assets/${id}`);
      expect(read.status).toBe(200);
      expect(read.json.data.title).toBe(validAsset().title);
    } finally {
      await again.stop();
    }
  }, 60_000);

  it('a kept-alive connection whose request was in flight at the signal: answered with Connection: close and closed, exit 0 at once', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    // One kept-alive connection, used once before the signal: the create goes out on it.
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      const warmUp = await halfSentCreate(server, agent);
      warmUp.finish();
      expect((await warmUp.response).headers.connection).toBe('keep-alive');
      const inFlight = await halfSentCreate(server, agent);
      expect(inFlight.request.reusedSocket, 'the create rides the kept-alive connection').toBe(true);

      server.process.kill('SIGTERM');
      await sleep(300);
      const finished = Date.now();
      inFlight.finish();
      const created = await inFlight.response;
      expect(created.status, created.body).toBe(201);
      expect(created.headers.connection).toBe('close');
      await created.socketClosed;
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - finished, 'exit after the last answer, not after CLOSE_GRACE_DELAY').toBeLessThan(
        SHUTDOWN_BOUND_MS,
      );
    } finally {
      agent.destroy();
    }
  }, 60_000);

  it('a download under way at the signal on a kept-alive connection: finished whole, then its connection closed, exit 0 at once', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    const file = randomBytes(8 * 1024 * 1024);
    const { url } = await uploadFile(new Client(server.url, { key: KEYS.broker }), file);
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      // The answer's headers (keep-alive) and its first bytes arrive before the signal; the client then stops
      // reading, so most of the file is still to be sent when the node starts draining.
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        httpRequest(url, { agent }, resolve).on('error', reject).end(),
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers.connection).toBe('keep-alive');
      const socketClosed = new Promise<void>((resolve) => response.socket.once('close', () => resolve()));
      const chunks: Buffer[] = [];
      const first = await new Promise<Buffer>((resolve) => response.once('data', resolve));
      chunks.push(first);
      response.pause();

      server.process.kill('SIGTERM');
      await sleep(300);
      expect(server.exited(), 'the process waits for the download').toBe(false);
      const resumed = Date.now();
      const ended = new Promise((resolve) => response.once('end', resolve));
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.resume();
      await ended;
      expect(Buffer.concat(chunks).equals(file), 'the whole file').toBe(true);
      await socketClosed;
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - resumed, 'exit after the download, not after CLOSE_GRACE_DELAY').toBeLessThan(
        SHUTDOWN_BOUND_MS,
      );
    } finally {
      agent.destroy();
    }
  }, 60_000);

  it('a request that arrives on an open connection after the signal: 503 Shutting down in the envelope, also from /health', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    const inFlight = await halfSentCreate(server);
    const listing = rawConnection(server.url);
    const health = rawConnection(server.url);
    const listingRequest = UNFINISHED_GET('/api/0.1/assets');
    const healthRequest = UNFINISHED_GET('/api/0.1/health');
    listing.write(listingRequest.start);
    health.write(healthRequest.start);
    await sleep(200);

    server.process.kill('SIGTERM');
    await sleep(300);
    listing.write(listingRequest.finish);
    health.write(healthRequest.finish);
    expectShuttingDown(await listing.answer);
    expectShuttingDown(await health.answer);

    inFlight.finish();
    expect((await inFlight.response).status).toBe(201);
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('a repeated SIGTERM or SIGINT while shutting down is ignored: the request in flight still finishes, exit 0', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    const inFlight = await halfSentCreate(server);

    server.process.kill('SIGTERM');
    await sleep(100);
    server.process.kill('SIGTERM');
    server.process.kill('SIGINT');
    await sleep(300);
    expect(server.exited(), 'the process still waits for the request in flight').toBe(false);

    inFlight.finish();
    expect((await inFlight.response).status).toBe(201);
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('under write load with change streams open: streams end cleanly, every acknowledged write is kept, exit 0 within 2 s', async () => {
    const server = await startChild(store);
    const exited = exitOf(server);
    const streams: OpenedStream[] = [];
    for (let i = 0; i < 10; i++) streams.push(await openChanges(server.url));
    expect(streams.map((stream) => stream.status)).toEqual(Array(10).fill(200));

    // Writers on kept-alive connections, as a client library keeps them: each creates an asset and publishes it
    // (which lists it in the feed), until the node turns it away. The status each asset was acknowledged in is kept.
    const agent = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    const acknowledged = new Map<string, string>();
    const refusals: string[] = [];
    let signalledAt = 0;
    let answeredAfterSignal = 0;
    const writers = Array.from({ length: 8 }, async (_, n) => {
      const writer = new Client(httpTransport(server.url, agent), { key: KEYS.broker });
      const answered = (res: Response): boolean => {
        if (signalledAt > 0) answeredAfterSignal++;
        if (res.status === 200 || res.status === 201) return true;
        refusals.push(`${res.status} ${res.text}`);
        return false;
      };
      try {
        for (let i = 0; ; i++) {
          const created = await writer.post('/api/0.1/assets', {
            data: validAsset({ title: `writer ${n} asset ${i}` }),
          });
          if (!answered(created)) return;
          const id: string = created.json.data.id;
          acknowledged.set(id, 'draft');
          const published = await writer.patch(
            `/api/0.1/assets/${id}`,
            { data: { status: 'pending' } },
            { token: created.json.access.token },
          );
          if (!answered(published)) return;
          acknowledged.set(id, 'pending');
        }
      } catch {
        // The node no longer takes connections.
      }
    });
    await Promise.all(
      streams.map((stream) => stream.waitFor((parser) => parser.events.length >= 5, 20_000, 'five events')),
    );
    for (const deadline = Date.now() + 20_000; acknowledged.size < 40 && Date.now() < deadline; ) await sleep(20);

    signalledAt = Date.now();
    server.process.kill('SIGTERM');
    const exit = await exited;
    const shutdownMs = Date.now() - signalledAt;
    await Promise.all(writers);
    const endings = await Promise.all(streams.map((stream) => stream.ended));
    await agent.close();

    reportFigures('shutdown under load', {
      shutdownMs,
      acknowledged: acknowledged.size,
      answeredAfterSignal,
      refusals: refusals.length,
    });
    expect(exit, server.stderr()).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(SHUTDOWN_BOUND_MS);
    expect(endings, 'every stream ended with a complete chunked response').toEqual(Array(10).fill(true));
    for (const refusal of refusals) expect(refusal).toMatch(/^503 .*Shutting down/);

    const again = await startChild(store);
    try {
      const reader = new Client(again.url);
      for (const [id, status] of acknowledged)
        expect((await reader.get(`/api/0.1/assets/${id}`)).json.data.status, id).toBe(status);
    } finally {
      await again.stop();
    }
  }, 90_000);

  it('a shutdown held up past CLOSE_GRACE_DELAY ends the process anyway, exit code 1, logged', async () => {
    const server = await startChild(store, { env: { CLOSE_GRACE_DELAY: '300' } });
    const exited = exitOf(server);
    const stuck = await halfSentCreate(server);
    stuck.response.catch(() => undefined);

    const signalled = Date.now();
    server.process.kill('SIGTERM');
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(server.stderr()).toContain('shutdown cut short');
    stuck.request.destroy();
  }, 60_000);
});
