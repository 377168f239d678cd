/**
 * `npm run bench:log-delay`: how long after the answer to a write its revision is in a checkpoint of the
 * transparency log (decisions.md §17: within 2 s), under the benchmark's write load (50 connections creating assets,
 * as the create scenario of bench/run.ts). Alongside the load, a probe creates an asset every `--probe-ms` and polls
 * its history until the revision carries its `logIndex`; the delays' p50, p99 and maximum are printed as JSON with the
 * load reached and the machine's load average, which says how busy the machine was.
 *
 * Options: --duration S (20), --connections N (50), --probe-ms MS (100), --poll-ms MS (5). With MONGODB_URI set,
 * the registry runs on a fresh database of that server (dropped at the end).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { AUTH_INI, BROKER_KEY, createPayload } from './data.js';
import { freePort } from './ports.js';
import { dropMongo } from './mongo.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API = '/api/0.1';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const duration = option('duration', 20);
const connections = option('connections', 50);
const probeMs = option('probe-ms', 100);
const pollMs = option('poll-ms', 5);
const authorization = `Basic ${Buffer.from(`${BROKER_KEY}:`).toString('base64')}`;
const body = JSON.stringify({ data: createPayload() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-log-delay-'));
  writeFileSync(join(dataDir, 'auth.ini'), AUTH_INI);
  const mongodbUri = process.env.MONGODB_URI
    ? process.env.MONGODB_URI.replace(/\/[^/?]*(\?|$)/, `/log_delay_${Date.now()}$1`)
    : undefined;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      AUTH_FILE: join(dataDir, 'auth.ini'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
      ...(mongodbUri ? { MONGODB_URI: mongodbUri } : { MONGODB_URI: '' }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let tries = 0; ; tries++) {
      try {
        const res = await request(`${url}${API}/health`);
        await res.body.dump();
        if (res.statusCode === 200) break;
      } catch {
        // not listening yet
      }
      if (tries > 600) throw new Error('the registry did not start');
      await sleep(50);
    }
    const first = await request(`${url}${API}/assets`);
    await first.body.dump();
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    const headers = { authorization, cookie, 'content-type': 'application/json' };

    const delays: number[] = [];
    let probing = true;
    const probes: Promise<void>[] = [];
    const probe = async (): Promise<void> => {
      const res = await request(`${url}${API}/assets`, { method: 'POST', headers, body });
      const answer = (await res.body.json()) as { data: { id: string } };
      const answered = performance.now();
      for (;;) {
        const page = await request(`${url}${API}/assets/${answer.data.id}/revisions?limit=1`);
        const [revision] = ((await page.body.json()) as { data: { logIndex?: number }[] }).data;
        if (revision?.logIndex !== undefined) break;
        await sleep(pollMs);
      }
      delays.push(performance.now() - answered);
    };
    const prober = (async () => {
      while (probing) {
        probes.push(probe());
        await sleep(probeMs);
      }
    })();
    const loadBefore = loadavg()[0];
    const load = await autocannon({
      url: `${url}${API}/assets`,
      method: 'POST',
      headers,
      body,
      connections,
      duration,
    });
    probing = false;
    await prober;
    await Promise.all(probes);
    const sorted = [...delays].sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    process.stdout.write(
      `${JSON.stringify({
        store: mongodbUri ? 'mongodb' : 'sqlite',
        writeLoad: { connections, durationSeconds: duration, createsPerSecond: Math.round(load.requests.average) },
        probes: sorted.length,
        integrationDelayMs: {
          p50: round(percentile(sorted, 50)),
          p99: round(percentile(sorted, 99)),
          max: round(sorted.at(-1) ?? Number.NaN),
        },
        loadAverage1m: { before: loadBefore, after: loadavg()[0] },
      })}\n`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    if (mongodbUri) await dropMongo(mongodbUri);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
