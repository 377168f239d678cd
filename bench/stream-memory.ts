/**
 * What one client can make a node hold by not reading (issue 30, spec §16; docs/decisions/0059, 0060, 0061):
 *
 * - `pipelining`: 1,000 pipelined GETs of a 96 KB asset on one connection that reads nothing: the node's RSS
 *   growth over time, and whether the node closed the connection (`REQUEST_TIMEOUT` is 5 s here).
 * - `catchup`: 10 streams `opt_fields=items` that read nothing, over 40 assets of about 950 KB: peak RSS growth.
 * - `fields`: 50 streams with distinct `opt_fields` (`items,f0` … `items,f49`) that read everything, then 20 assets
 *   of about 480 KB enter the feed: RSS growth once all 1,000 events have arrived, and the peak.
 *
 * Each scenario starts its own node (embedded store) as a child process from `--root` (default: this checkout), so
 * the same probe measures another checkout of the registry (e.g. a worktree at main's commit):
 *
 *   npm run bench:stream-memory -- [--root DIR] [--scenario pipelining|catchup|fields|all]
 *
 * Prints one JSON line per scenario. Figures go to docs/performance.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { freePort } from './ports.js';
import { countReads, rawSocket } from './raw-socket.js';

const { values } = parseArgs({
  options: { root: { type: 'string', default: '.' }, scenario: { type: 'string', default: 'all' } },
});
const ROOT = resolve(values.root);
const KEY = '6c1c4e1a0e9b4f7c8d2b3a4f5e6d7c8b';
const AUTH = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
const API = '/api/0.1';
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const round = (value: number) => Math.round(value * 10) / 10;

interface Node {
  url: string;
  pid: number;
  cookie: string;
  stop(): Promise<void>;
}

async function startNode(): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-stream-memory-'));
  writeFileSync(join(dataDir, 'auth.ini'), `[brokers]\nbench = ${KEY}\n`);
  const port = await freePort();
  const child = spawn('node', ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MONGODB_URI: '',
      RATE_LIMIT_MAX: '1000000',
      REQUEST_TIMEOUT: '5000',
      BODY_LIMIT: String(4 * MB),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((done) => child.once('exit', done));
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`node exited (${code ?? signal}): ${stderr.slice(-3000)}\n`);
  });
  let stopping = false;
  const url = `http://127.0.0.1:${port}`;
  // A loaded machine may take a minute to start it.
  for (let i = 0; i < 1200; i++) {
    try {
      const res = await request(`${url}${API}/assets?limit=1`);
      await res.body.text();
      const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0]!;
      return {
        url,
        pid: child.pid!,
        cookie,
        async stop() {
          stopping = true;
          child.kill('SIGTERM');
          await Promise.race([exited, sleep(5000)]);
          child.kill('SIGKILL');
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch {
      if (child.exitCode !== null) throw new Error(`the node exited at start: ${stderr}`);
      await sleep(100);
    }
  }
  child.kill('SIGKILL');
  throw new Error('the node did not start');
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  // A node that has exited has no resident set: 0, and the scenario's own error says why.
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Samples the node's RSS every 100 ms until stopped; `peak()` is the highest seen. */
function sampler(pid: number): { peak(): number; stop(): void } {
  let peak = rssMB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMB(pid));
  }, 100);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

/** `items` items of about 310 bytes each, or of about `pad` bytes more (at most 1,000 items are allowed). */
function asset(items: number, pad = 0): Record<string, unknown> {
  const item = {
    description: `футляри до державних нагород${'.'.repeat(pad)}`,
    classification: { scheme: 'CAV', id: '39513200-3', description: 'Cartons' },
    address: { countryName: 'Україна', postalCode: '79000', region: 'м. Київ', locality: 'м. Київ' },
    unit: { code: 'H87', name: 'item' },
    quantity: 5,
  };
  return {
    assetType: 'claimRights',
    classification: { scheme: 'CAV', id: '39513200-3', description: 'Земельні ділянки' },
    title: 'bench',
    items: Array.from({ length: items }, () => item),
    value: { currency: 'UAH', amount: 100 },
    unit: { code: 'H87', name: 'item' },
    address: { countryName: 'Україна', postalCode: '79000', region: 'м. Київ', locality: 'м. Київ' },
    assetCustodian: {
      contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
      identifier: { scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' },
      name: 'Державне управління справами',
      address: { countryName: 'Україна', postalCode: '01220', region: 'м. Київ', locality: 'м. Київ' },
    },
    debt: {
      agreementNumber: '42',
      debtCurrencyValue: { currency: 'USD', amount: 100 },
      value: { currency: 'UAH', amount: 1 },
      dateSigned: '2017-08-16T12:30:17.615196+03:00',
      debtorType: 'legalPerson',
    },
    quantity: 5,
  };
}

async function send(node: Node, method: string, path: string, body: unknown): Promise<any> {
  const res = await request(node.url + path, {
    method: method as 'POST',
    headers: { authorization: AUTH, cookie: node.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A draft (see `asset`); `publish()` puts it in the feed. */
async function draft(node: Node, items: number, pad = 0): Promise<{ id: string; publish(): Promise<void> }> {
  const created = await send(node, 'POST', `${API}/assets`, { data: asset(items, pad) });
  const { id } = created.data;
  const token = encodeURIComponent(created.access.token);
  return {
    id,
    // A loaded node may refuse a write (503 when the store is slow to answer): tried again.
    async publish() {
      for (let attempt = 1; ; attempt++) {
        try {
          return await send(node, 'PATCH', `${API}/assets/${id}?acc_token=${token}`, { data: { status: 'pending' } });
        } catch (error) {
          if (attempt === 5 || !String(error).includes(': 503 ')) throw error;
          await sleep(1000);
        }
      }
    },
  };
}

/** A raw connection that counts the events it reads and keeps nothing; `reading: false` reads nothing at all. */
async function rawStream(node: Node, path: string, reading: boolean): Promise<{ socket: Socket; events(): number }> {
  const socket = await rawSocket(node.url);
  const events = countReads(socket, '\nid: ');
  if (!reading) socket.pause();
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${node.cookie}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return { socket, events };
}

async function pipelining(node: Node): Promise<Record<string, unknown>> {
  const { id, publish } = await draft(node, 310);
  await publish();
  const size = (await request(`${node.url}${API}/assets/${id}`).then((res) => res.body.text())).length;
  await sleep(1000);
  const before = rssMB(node.pid);
  const peak = sampler(node.pid);
  const socket = await rawSocket(node.url);
  socket.pause();
  socket.write(`GET ${API}/assets/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(1000));
  const growth: Record<string, number> = {};
  let elapsed = 0;
  for (const at of [1, 3, 8]) {
    await sleep((at - elapsed) * 1000);
    elapsed = at;
    growth[`${at}s`] = round(rssMB(node.pid) - before);
  }
  // Reading now: what the node still sends, and whether it had closed the connection.
  const answers = countReads(socket, 'HTTP/1.1 200 ');
  const closed = new Promise<boolean>((done) => socket.once('close', () => done(true)));
  socket.resume();
  const closedByNode = await Promise.race([closed, sleep(15_000).then(() => false)]);
  peak.stop();
  socket.destroy();
  return {
    scenario: 'pipelining',
    answerBytes: size,
    rssBeforeMB: round(before),
    rssGrowthMB: growth,
    peakGrowthMB: round(peak.peak() - before),
    // Read from 8 s on: all 1,000 when the node kept them, fewer when it closed the connection first.
    answersReceived: answers(),
    closedByNode,
  };
}

async function catchup(node: Node): Promise<Record<string, unknown>> {
  for (let i = 0; i < 40; i++) await (await draft(node, 1000, 640)).publish();
  await sleep(1000);
  const before = rssMB(node.pid);
  const peak = sampler(node.pid);
  const streams = await Promise.all(
    Array.from({ length: 10 }, () => rawStream(node, `${API}/assets/changes?opt_fields=items`, false)),
  );
  await sleep(5000);
  const after = rssMB(node.pid);
  peak.stop();
  for (const stream of streams) stream.socket.destroy();
  return {
    scenario: 'catchup',
    streams: 10,
    assets: 40,
    rssBeforeMB: round(before),
    rssGrowthAfter5sMB: round(after - before),
    peakGrowthMB: round(peak.peak() - before),
  };
}

async function fields(node: Node): Promise<Record<string, unknown>> {
  const drafts = [];
  for (let i = 0; i < 20; i++) drafts.push(await draft(node, 1000, 170));
  const offset = encodeURIComponent(new Date().toISOString());
  const streams = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      rawStream(node, `${API}/assets/changes?offset=${offset}&opt_fields=items,f${i}`, true),
    ),
  );
  await sleep(1000);
  const before = rssMB(node.pid);
  const peak = sampler(node.pid);
  const started = performance.now();
  for (const one of drafts) await one.publish();
  while (streams.some((stream) => stream.events() < 20) && performance.now() - started < 60_000) await sleep(100);
  const deliveredMs = Math.round(performance.now() - started);
  await sleep(1000);
  const after = rssMB(node.pid);
  peak.stop();
  const delivered = streams.reduce((sum, stream) => sum + stream.events(), 0);
  for (const stream of streams) stream.socket.destroy();
  return {
    scenario: 'fields',
    streams: 50,
    writes: 20,
    delivered,
    deliveredMs,
    rssBeforeMB: round(before),
    rssGrowthMB: round(after - before),
    peakGrowthMB: round(peak.peak() - before),
  };
}

const scenarios = { pipelining, catchup, fields };
const chosen = values.scenario === 'all' ? Object.keys(scenarios) : [values.scenario];
for (const name of chosen) {
  const run = scenarios[name as keyof typeof scenarios];
  if (run === undefined) throw new Error(`unknown scenario ${name}`);
  const node = await startNode();
  try {
    process.stdout.write(`${JSON.stringify({ root: ROOT, ...(await run(node)) })}\n`);
  } finally {
    await node.stop();
  }
}
