/** docs/decisions/0059-pipelined-requests-bounded.md, on raw sockets: a client that pipelines and reads nothing. */
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { rawConnection, sleep } from '../helpers/raw.js';

const REQUEST_TIMEOUT = 3000;
/** What the bound may overshoot by on a busy machine. */
const SLACK = 1500;
const PIPELINED = 1000;

/** An asset whose answer is about 96 KB. */
function largeAsset(): Record<string, unknown> {
  const asset = validAsset();
  asset.items = Array.from({ length: 190 }, () => structuredClone((asset.items as unknown[])[0]));
  return asset;
}

describe('pipelined requests (record 0059)', () => {
  const server = useServer({ REQUEST_TIMEOUT: String(REQUEST_TIMEOUT), STREAM_HEARTBEAT: '5000' }, { via: 'http' });
  const { broker, anonymous } = server;
  let path = '';

  async function pipelined(count: number): Promise<Awaited<ReturnType<typeof rawConnection>>> {
    const connection = await rawConnection(server.url);
    const request = `GET ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`;
    connection.write(request.repeat(count));
    return connection;
  }

  /** Requests for the asset the server has started to handle (its log says so for each). */
  function handled(): number {
    return server.logLines().filter((line) => line.includes('"incoming request"') && line.includes(path)).length;
  }

  it('an answer of about 96 KB', async () => {
    const { id } = await createAsset(broker, largeAsset());
    path = `/api/0.1/assets/${id}`;
    const res = await anonymous.get(path);
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThan(90_000);
    expect(res.text.length).toBeLessThan(110_000);
  });

  it('a client that reads nothing: no further request is read while answers wait unsent', async () => {
    const before = handled();
    const connection = await pipelined(PIPELINED);
    connection.socket.pause();
    await sleep(600);
    const first = handled() - before;
    await sleep(400);
    // The kernel's buffers on both sides take some answers; beyond them at most 16 answers or 1 MiB wait here.
    expect(handled() - before).toBe(first);
    expect(first).toBeLessThan(PIPELINED / 4);
    connection.destroy();
  });

  /** Once no request has been handed on for `quietMs`: no answer has left either, since each one leaving lets in the next. */
  async function untilHeld(quietMs = 500): Promise<void> {
    for (let last = -1; handled() !== last; await sleep(quietMs)) last = handled();
  }

  it('a client that reads nothing for REQUEST_TIMEOUT while answers wait is closed', async () => {
    const connection = await pipelined(PIPELINED);
    connection.socket.pause();
    // The timeout runs from the last byte the client took: on a slow store, answers fill the kernel's buffers late.
    await untilHeld();
    await sleep(REQUEST_TIMEOUT + SLACK);
    // Reading now takes what the kernel holds, then the close: the rest was never answered.
    const answers = countAnswers(connection);
    connection.socket.resume();
    const closed = await Promise.race([connection.closed.then(() => true), sleep(10_000).then(() => false)]);
    connection.destroy();
    expect(closed).toBe(true);
    expect(answers()).toBeLessThan(PIPELINED / 4);
  });

  it('a client that reads, late, gets every answer', async () => {
    const count = 60;
    const connection = await pipelined(count);
    connection.socket.pause();
    await sleep(REQUEST_TIMEOUT / 2);
    const answers = countAnswers(connection);
    connection.socket.resume();
    await connection.waitFor(() => answers() === count, 20_000);
    expect(connection.received().split('HTTP/1.1 ').length - 1).toBe(count);
    connection.destroy();
  });
});

/** Counts the status lines of 200 answers as they arrive, without rescanning what came before. */
function countAnswers(connection: Awaited<ReturnType<typeof rawConnection>>): () => number {
  const marker = 'HTTP/1.1 200 ';
  let count = 0;
  let carry = '';
  // Before the connection's own listener, which then sees the count of the chunk it is told about.
  connection.socket.prependListener('data', (chunk: Buffer) => {
    const text = carry + chunk.toString('latin1');
    count += text.split(marker).length - 1;
    carry = text.slice(-(marker.length - 1));
  });
  return () => count;
}
