/**
 * `npm run mirror` (src/cli/mirror.ts) against real registries over real HTTP: it follows the change stream and
 * writes each listed asset's latest JSON, resumes where it stopped, falls back to the listing when the stream is
 * unavailable, repeats on 412 with the new cookie (a balancer moving it to another node) and backs off on 429.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { KEYS, serverForThisTest, useScratch } from '../helpers/server.js';
import { killAllChildren, prepareStore, startChild } from '../reliability/fixtures/child-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ASSETS = '/api/0.1/assets';

interface MirrorProcess {
  process: ChildProcess;
  log: () => string;
  /** SIGTERM, and the exit code. */
  stop: () => Promise<number | null>;
}

const mirrors = new Set<MirrorProcess>();

function startMirror(from: string, folder: string, extra: string[] = []): MirrorProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'mirror', '--from', from, '--to', folder, '--poll-ms', '200', ...extra],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const mirror: MirrorProcess = {
    process: child,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      mirrors.delete(mirror);
      return code;
    },
  };
  mirrors.add(mirror);
  return mirror;
}

/** What the registry serves for each asset, by id (the mirror must hold exactly that). */
async function served(
  client: Client,
  ids: Iterable<string>,
  headers: Record<string, string> = {},
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const res = await client.get(`${ASSETS}/${id}`, { headers });
    expect(res.status).toBe(200);
    out.set(id, res.text);
  }
  return out;
}

/** Resolves once the folder holds exactly these files with these texts; fails with the mirror's log otherwise. */
async function mirrored(
  folder: string,
  expected: Map<string, string>,
  mirror: MirrorProcess,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(folder)
      ? readdirSync(folder).filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      : [];
    const same =
      files.length === expected.size &&
      [...expected].every(
        ([id, text]) =>
          existsSync(join(folder, `${id}.json`)) && readFileSync(join(folder, `${id}.json`), 'utf8') === text,
      );
    if (same) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the mirror did not catch up within ${timeoutMs} ms (${files.length} of ${expected.size} files):\n${mirror.log()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function publish(client: Client, title = 'Права вимоги'): Promise<string> {
  const created = await createAsset(client, validAsset({ title }));
  await toPending(client, created.id, created.token);
  tokens.set(created.id, created.token);
  return created.id;
}

const tokens = new Map<string, string>();

/** The owner edits the title of a published asset. */
async function retitle(client: Client, id: string, title: string): Promise<void> {
  const res = await client.patch(`${ASSETS}/${id}`, { data: { title } }, { token: tokens.get(id)! });
  expect(res.status).toBe(200);
}

describe('npm run mirror', () => {
  // The mirrors' folders and the two nodes' store; removed after the processes are gone.
  const scratch = useScratch();

  // Before the test's servers close (they close when the test has finished, after this hook).
  afterEach(async () => {
    await Promise.all([...mirrors].map((mirror) => mirror.stop()));
  });

  afterAll(async () => {
    await killAllChildren();
  });

  it('follows the stream, writes each listed asset as served, and resumes where it stopped', async () => {
    const server = await serverForThisTest();
    const { broker } = server;
    const folder = await scratch.dir('registry-mirror-');
    const listed = [await publish(broker), await publish(broker)];
    await createAsset(broker); // a draft: never listed, never mirrored

    let mirror = startMirror(server.url, folder);
    await mirrored(folder, await served(broker, listed), mirror);
    // Live: a new asset and a change of an old one arrive through the stream.
    listed.push(await publish(broker, 'нове'));
    await retitle(broker, listed[0]!, 'змінене');
    await mirrored(folder, await served(broker, listed), mirror);
    expect(mirror.log()).toMatch(/stream open/);

    expect(await mirror.stop()).toBe(0);
    const state = JSON.parse(readFileSync(join(folder, '.mirror-state.json'), 'utf8'));
    const untouched = join(folder, `${listed[1]}.json`);
    const untouchedAt = statSync(untouched).mtimeMs;
    // While it is stopped: a new asset, and an edit of a mirrored one.
    listed.push(await publish(broker, 'поки зупинено'));
    await retitle(broker, listed[0]!, 'змінене ще раз');
    mirror = startMirror(server.url, folder);
    await mirrored(folder, await served(broker, listed), mirror);
    expect(mirror.log()).toContain(`stream open after ${state.position}`);
    // Resumed from its position: the assets that did not change were not read and written again.
    expect(statSync(untouched).mtimeMs).toBe(untouchedAt);
  }, 60_000);

  it('follows the listing when the stream is unavailable (503), from the same position', async () => {
    const server = await serverForThisTest({ STREAM_MAX_CLIENTS: '0' });
    const { broker } = server;
    const folder = await scratch.dir('registry-mirror-');
    const listed = [await publish(broker)];
    const mirror = startMirror(server.url, folder);
    await mirrored(folder, await served(broker, listed), mirror);
    listed.push(await publish(broker, 'друге'));
    await mirrored(folder, await served(broker, listed), mirror);
    expect(mirror.log()).toMatch(/stream unavailable \(503\); following the listing/);
  }, 60_000);

  it('backs off on 429 and still mirrors everything', async () => {
    const server = await serverForThisTest({
      RATE_LIMIT_MAX: '8',
      RATE_LIMIT_WINDOW: '1000',
      TRUST_PROXY: '127.0.0.1',
    });
    // The test's own requests come "from" addresses of their own, so that only the mirror meets the limit.
    let addresses = 0;
    const elsewhere = () => ({ 'x-forwarded-for': `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}` });
    const { broker } = server;
    await broker.get(ASSETS, { headers: elsewhere() });
    const listed: string[] = [];
    for (let i = 0; i < 20; i++) {
      const created = await broker.post(ASSETS, { data: validAsset() }, { headers: elsewhere() });
      expect(created.status).toBe(201);
      const { id } = created.json.data;
      const pending = await broker.patch(
        `${ASSETS}/${id}`,
        { data: { status: 'pending' } },
        { token: created.json.access.token, headers: elsewhere() },
      );
      expect(pending.status).toBe(200);
      listed.push(id);
    }
    const folder = await scratch.dir('registry-mirror-');
    const mirror = startMirror(server.url, folder, ['--concurrency', '4']);
    const expected = new Map<string, string>();
    for (const id of listed) expected.set(id, (await served(broker, [id], elsewhere())).get(id)!);
    await mirrored(folder, expected, mirror, 40_000);
    expect(mirror.log()).toMatch(/answered 429; again in \d+ s/);
  }, 60_000);

  it('keeps the cookie and repeats on 412 when a balancer moves it to another node', async () => {
    const store = await prepareStore(scratch);
    const [nodeA, nodeB] = await Promise.all([
      startChild(store, { serverId: 'node-a' }),
      startChild(store, { serverId: 'node-b' }),
    ]);
    // A balancer in front of the two nodes: everything goes to A, then (A "gone") to B.
    let target = new URL(nodeA.url);
    const statuses: string[] = [];
    const open = new Set<import('node:net').Socket>();
    const balancer: Server = createServer((req, res) => {
      const upstream = httpRequest(
        // The upstream's own Host, as nginx's proxy_pass sends it by default.
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          statuses.push(`${target.port} ${answer.statusCode} ${req.method} ${req.url}`);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    balancer.on('connection', (socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', () => resolve()));
    const front = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
    try {
      const writerA = new Client(nodeA.url, { key: KEYS.broker });
      const listed = [await publish(writerA)];
      const folder = await scratch.dir('registry-mirror-');
      const mirror = startMirror(front, folder);
      await mirrored(folder, await served(writerA, listed), mirror);

      // Failover: the balancer now sends everything to B and cuts the connections it had.
      target = new URL(nodeB.url);
      for (const socket of open) socket.destroy();
      const writerB = new Client(nodeB.url, { key: KEYS.broker });
      listed.push(await publish(writerB, 'після перемикання'));
      await mirrored(folder, await served(writerB, listed), mirror);
      const onB = statuses.filter((line) => line.startsWith(`${target.port} `));
      // B refused the cookie of A once (412, with its own), then served the same request with B's cookie.
      expect(onB[0]).toMatch(/^\d+ 412 GET \/api\/0\.1\/assets\/changes/);
      expect(onB[1]).toMatch(/^\d+ 200 GET \/api\/0\.1\/assets\/changes/);
      expect(onB.filter((line) => / 412 /.test(line))).toHaveLength(1);
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => balancer.close(() => resolve()));
      await Promise.all([nodeA.stop(), nodeB.stop()]);
    }
  }, 90_000);
});
