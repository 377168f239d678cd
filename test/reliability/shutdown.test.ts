/**
 * Graceful shutdown of the real server process (src/server.ts, close-with-grace): on SIGTERM it stops taking
 * requests, finishes the one in flight (its write is kept), closes the store and exits 0; a shutdown held up past
 * CLOSE_GRACE_DELAY ends the process anyway, with exit code 1.
 *
 * "In flight" is made real with a POST whose body arrives in two halves: the signal comes between them.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { validAsset } from '../helpers/fixtures.js';
import { killAllChildren, prepareStore, startChild, type ChildServer, type SharedStore } from './fixtures/child-server.js';
import { sleep } from './fixtures/common.js';

interface HalfSentPost {
  request: ClientRequest;
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<{ status: number; body: string }>;
}

/** Starts a create whose body is only half sent; the server has matched the route and waits for the rest. */
async function halfSentCreate(server: ChildServer): Promise<HalfSentPost> {
  const broker = new Client(server.url, { key: KEYS.broker });
  await broker.get('/api/0.1/assets');
  const body = Buffer.from(JSON.stringify({ data: validAsset() }));
  const half = Math.floor(body.length / 2);
  const request = httpRequest(`${server.url}/api/0.1/assets`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Basic ${Buffer.from(`${KEYS.broker}:`).toString('base64')}`,
      cookie: broker.cookieHeader()!,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
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

describe('graceful shutdown (close-with-grace)', () => {
  let store: SharedStore;

  beforeAll(async () => {
    store = await prepareStore();
  });
  afterAll(async () => {
    await killAllChildren();
    await rm(store.dataDir, { recursive: true, force: true });
  });

  it('SIGTERM: no new requests, the one in flight finishes and is kept, the store closes, exit code 0', async () => {
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

  it('a shutdown held up past CLOSE_GRACE_DELAY ends the process anyway, exit code 1', async () => {
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
