/**
 * `npm run bench:history-probe`: issue 30's history figures, as an attacker would get them
 * (docs/decisions/0058-a-node-stays-responsive-while-histories-are-read.md). One asset, PATCHed `--revisions` times
 * (300) with about `--patch-kb` (950) KB of item descriptions each, then, against the registry running as a child
 * process (its own folder, SQLite; MONGODB_URI set: a fresh database there, dropped at the end):
 *
 *   - `GET …/revisions?limit=1000`: time, bytes, revisions held, the node's peak RSS;
 *   - `HEAD` of it: time, peak RSS;
 *   - `GET …/revisions/{last}` and `…/revisions/{last - 2}`: time, peak RSS;
 *   - `--clients` (8) clients at once, each `--rounds` (3) times the largest page and both revisions, while
 *     `GET /health` is asked every 100 ms: its slowest answer, any that was not 200, and the node's RSS growth.
 *
 *   npm run bench:history-probe -- [--revisions 300] [--patch-kb 950] [--clients 8] [--rounds 3]
 *
 * RSS is the child's VmRSS, sampled every 10 ms; growth is against its RSS right before the phase. Prints one line
 * per figure and a JSON summary. A shared machine's figures vary: run it once and say so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { BROKER_KEY, createPayload } from './data.js';
import { freePort } from './ports.js';
import { dropMongo } from './mongo.js';

const { values } = parseArgs({
  options: {
    revisions: { type: 'string', default: '300' },
    'patch-kb': { type: 'string', default: '950' },
    clients: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    'crowd-seconds': { type: 'string', default: '120' },
    'rss-cap-mib': { type: 'string', default: '8192' },
    'data-dir': { type: 'string' },
    asset: { type: 'string' },
    'crowd-only': { type: 'boolean', default: false },
  },
});
const REVISIONS = Number(values.revisions);
const PATCH_BYTES = Number(values['patch-kb']) * 1000;
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
/** The eight clients stop there, their requests in flight abandoned: a node that is not bounded takes far longer. */
const CROWD_SECONDS = Number(values['crowd-seconds']);
/** The machine is shared: a node past this RSS ends the phase (reported) rather than take the machine's memory. */
const RSS_CAP = Number(values['rss-cap-mib']) * 1024 * 1024;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const API = '/api/0.1';
const authorization = `Basic ${Buffer.from(`${BROKER_KEY}:`).toString('base64')}`;
// Enough sockets for every client and the health poller at once.
// A socket idle for 1 s is not reused: on a loaded machine the node's 5-s keep-alive timer and this client's reuse
// of the socket can cross (ECONNRESET), which would measure the machine and not the node.
const dispatcher = new Agent({
  connections: 64,
  headersTimeout: 600_000,
  bodyTimeout: 600_000,
  keepAliveTimeout: 1000,
  keepAliveMaxTimeout: 1000,
});

const log = (line: string) => process.stdout.write(`${line}\n`);
const mib = (bytes: number) => +(bytes / MiB).toFixed(0);

function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** The child's peak RSS while `work` runs, and its RSS right before. */
async function measured<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; before: number; peak: number; seconds: number }> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, before, peak: Math.max(peak, rssOf(pid)), seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(sampler);
  }
}

async function startRegistry(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the registry exited with ${proc.exitCode}`);
    try {
      const res = await request(`${url}${API}/health`, { dispatcher });
      await res.body.text();
      if (res.statusCode === 200) return { proc, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the registry did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Answer {
  status: number;
  bytes: number;
  body: string;
}

async function call(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  json?: unknown,
): Promise<Answer> {
  const res = await request(`${url}${path}`, {
    method: method as 'GET',
    headers: { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    dispatcher,
  });
  const body = await res.body.text();
  return { status: res.statusCode, bytes: Buffer.byteLength(body), body };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`);
}

/** Item descriptions of about `bytes` in all, different each time: every PATCH replaces them all. */
function largeItems(bytes: number, round: number): unknown[] {
  const perItem = 19_000;
  const items = [];
  for (let i = 0; i * perItem < bytes; i++) {
    const seed = randomBytes(8).toString('hex');
    items.push({
      description: `${round}.${i} ${seed} ${'x'.repeat(perItem - 40)}`,
      classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
      unit: { code: 'H87', name: 'штука' },
      quantity: 1,
    });
  }
  return items;
}

/** One request at a time: the largest page, its HEAD, the last revisions and a HEAD of one. */
async function singleRequests(
  phase: (name: string, method: string, path: string) => Promise<void>,
  history: string,
): Promise<void> {
  await phase('GET revisions?limit=1000', 'GET', `${history}?limit=1000`);
  await phase('HEAD revisions?limit=1000', 'HEAD', `${history}?limit=1000`);
  await phase(`GET revisions/${REVISIONS}`, 'GET', `${history}/${REVISIONS}`);
  await phase(`GET revisions/${REVISIONS - 2}`, 'GET', `${history}/${REVISIONS - 2}`);
  await phase(`HEAD revisions/${REVISIONS}`, 'HEAD', `${history}/${REVISIONS}`);
}

/** `GET /health` every 100 ms until killed, a JSON line per answer: its status and seconds (0 if it failed). */
const HEALTH_POLLER = `
const url = process.argv[1];
(async () => {
  for (;;) {
    const started = performance.now();
    let status = 0;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(60000) });
      await res.arrayBuffer();
      status = res.status;
    } catch {}
    process.stdout.write(JSON.stringify({ seconds: (performance.now() - started) / 1000, status }) + '\\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
`;

async function main(): Promise<void> {
  // `--data-dir` and `--asset`: the asset of an earlier run (kept in that folder), without its setup.
  const workDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'history-probe-'));
  writeFileSync(join(workDir, 'auth.ini'), `[brokers]\nbroker = ${BROKER_KEY}\n`);
  const mongoUri = process.env.MONGODB_URI
    ? process.env.MONGODB_URI.replace(
        /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/,
        `$1/registry_history_probe_${Date.now().toString(36)}`,
      )
    : undefined;
  const { proc, url } = await startRegistry({
    DATA_DIR: join(workDir, 'data'),
    AUTH_FILE: join(workDir, 'auth.ini'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    CACHE_MB: '0',
    MONGODB_URI: mongoUri ?? '',
  });
  const pid = proc.pid!;
  const summary: Record<string, unknown> = { store: mongoUri ? 'mongodb' : 'embedded', revisions: REVISIONS };
  try {
    const first = await request(`${url}${API}/health`, { dispatcher });
    await first.body.text();
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    const writer = { authorization, cookie };

    const setup = await measured(pid, async () => {
      if (values.asset !== undefined) return values.asset;
      const created = await call(url, 'POST', `${API}/assets`, writer, { data: createPayload() });
      expectStatus(created, 201, 'create');
      const { data, access } = JSON.parse(created.body) as { data: { id: string }; access: { token: string } };
      const owner = { ...writer, 'x-access-token': access.token };
      expectStatus(
        await call(url, 'PATCH', `${API}/assets/${data.id}`, owner, { data: { status: 'pending' } }),
        200,
        'pending',
      );
      for (let rev = 3; rev <= REVISIONS; rev++) {
        const patched = await call(url, 'PATCH', `${API}/assets/${data.id}`, owner, {
          data: { items: largeItems(PATCH_BYTES, rev) },
        });
        expectStatus(patched, 200, `PATCH ${rev}`);
      }
      return data.id;
    });
    const id = setup.result;
    const history = `${API}/assets/${id}/revisions`;
    log(`setup: ${REVISIONS} revisions (~${PATCH_BYTES / 1000} KB PATCHes) in ${setup.seconds.toFixed(1)} s`);
    summary.setupSeconds = +setup.seconds.toFixed(1);

    const phase = async (name: string, method: string, path: string) => {
      const run = await measured(pid, () => call(url, method, path));
      expectStatus(run.result, 200, name);
      const held =
        method === 'GET' && path.includes('limit=')
          ? (JSON.parse(run.result.body) as { data: unknown[] }).data.length
          : undefined;
      const figures = {
        seconds: +run.seconds.toFixed(2),
        bytes: run.result.bytes,
        ...(held === undefined ? {} : { revisions: held }),
        rssBeforeMiB: mib(run.before),
        rssPeakMiB: mib(run.peak),
      };
      log(`${name}: ${JSON.stringify(figures)}`);
      summary[name] = figures;
    };
    if (!values['crowd-only']) await singleRequests(phase, history);
    // A node just started compiles what these requests first run: not what the eight clients should measure.
    else
      for (const path of [`${history}?limit=1000`, `${history}/${REVISIONS - 2}`])
        await call(url, 'HEAD', path).then(() => call(url, 'GET', path));

    // Eight readers at once, /health asked every 100 ms meanwhile by another process: the probe's own event loop,
    // busy with eight large answers, would delay what it measures.
    const poller = spawn(process.execPath, ['-e', HEALTH_POLLER, `${url}${API}/health`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let polled = '';
    poller.stdout.on('data', (chunk: Buffer) => {
      polled += chunk.toString();
    });
    const stop = new AbortController();
    let answered = 0;
    const errors: string[] = [];
    let ended = 'all rounds done';
    const deadline = setTimeout(() => {
      ended = `stopped after ${CROWD_SECONDS} s`;
      stop.abort();
    }, CROWD_SECONDS * 1000);
    const cap = setInterval(() => {
      if (rssOf(pid) <= RSS_CAP) return;
      ended = `stopped: RSS past ${RSS_CAP / MiB} MiB`;
      stop.abort();
    }, 10);
    const crowd = await measured(pid, async () => {
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let round = 0; round < ROUNDS && !stop.signal.aborted; round++) {
            for (const path of [`${history}?limit=1000`, `${history}/${REVISIONS}`, `${history}/${REVISIONS - 2}`]) {
              if (stop.signal.aborted) return;
              try {
                const res = await request(`${url}${path}`, { dispatcher, signal: stop.signal });
                await res.body.text();
                if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
                answered++;
              } catch (error) {
                // Counted, not fatal: the figures of the rest still tell.
                if (!stop.signal.aborted) errors.push(String((error as { code?: string }).code ?? error));
              }
            }
          }
        }),
      );
    });
    clearTimeout(deadline);
    clearInterval(cap);
    poller.kill('SIGTERM');
    await new Promise((resolve) => poller.once('exit', resolve));
    const latencies = polled
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { seconds: number; status: number });
    const health = {
      asked: latencies.length,
      slowest: Math.max(0, ...latencies.map((answer) => answer.seconds)),
      failed: latencies.filter((answer) => answer.status !== 200 || answer.seconds > 1).length,
    };
    const crowdFigures = {
      seconds: +crowd.seconds.toFixed(1),
      ended,
      answered: `${answered} of ${CLIENTS * ROUNDS * 3}`,
      errors,
      rssBeforeMiB: mib(crowd.before),
      rssPeakMiB: mib(crowd.peak),
      rssGrowthMiB: mib(crowd.peak - crowd.before),
      healthAsked: health.asked,
      healthSlowestSeconds: +health.slowest.toFixed(2),
      healthNot200Within1s: health.failed,
    };
    log(`${CLIENTS} clients × ${ROUNDS} rounds: ${JSON.stringify(crowdFigures)}`);
    summary.concurrent = crowdFigures;
    log(JSON.stringify(summary));
  } finally {
    proc.kill('SIGTERM');
    await new Promise((resolve) => proc.once('exit', resolve));
    if (values['data-dir'] === undefined) rmSync(workDir, { recursive: true, force: true });
    if (mongoUri) await dropMongo(mongoUri);
    await dispatcher.close();
  }
}

await main();
