/**
 * `npm run bench:compare -- <name>=<folder>[,NAME=value...] <name>=<folder> ...`: the create and PATCH scenarios of
 * `npm run bench` (the same bodies, 50 connections) on two or more builds of the registry at once, in short bursts
 * taken in turn, so that a machine whose speed drifts over minutes weighs on every build alike. Each build is a
 * compiled service (`tsc -p tsconfig.build.json --outDir <folder>`, the folder inside this repository so that it
 * finds node_modules), with the settings after its folder, on a store of its own seeded with 5,000 assets; the
 * servers share the server core and the load runs on the other, as in `npm run bench`. It prints, per scenario and
 * build, the median throughput and CPU per request, and each build's cost against the first: the median over the
 * rounds of each round's ratio (how the log's cost per write was measured: docs/transparency-log.md), and the CPU
 * per request of each kind of thread over all its bursts (the requests' thread `main`, Node's worker threads, V8's
 * garbage collector and compiler, libuv's pool).
 *
 * Options: --rounds N (12 bursts per build), --burst S (5 seconds), --scenarios create,patch.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { nowMicros } from '../src/domain/dates.js';
import { openStore } from '../src/store/index.js';
import { cpuSeconds, threadCpuSeconds } from './cpu.js';
import { AUTH_INI, BENCH_TZ, BROKER_KEY, createPayload, OWNER_TOKEN, Seeder } from './data.js';
import { freePort, hasTaskset } from './ports.js';

const API = '/api/0.1';
const SEEDED = 5_000;
const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const rounds = Number(option('rounds', '12'));
const burstSeconds = Number(option('burst', '5'));
const scenarios = option('scenarios', 'create,patch').split(',');
const builds = process.argv
  .slice(2)
  .filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'))
  .map((arg) => {
    const [name, rest] = arg.split(/=(.*)/s) as [string, string];
    const [folder, ...settings] = rest.split(',');
    return { name, folder: resolve(folder!), env: Object.fromEntries(settings.map((s) => s.split(/=(.*)/s))) };
  });
if (builds.length < 2) throw new Error('usage: npm run bench:compare -- <name>=<folder>[,NAME=value...] (two or more)');

const pin = hasTaskset();
if (pin) execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
const authorization = `Basic ${Buffer.from(`${BROKER_KEY}:`).toString('base64')}`;
const createBody = JSON.stringify({ data: createPayload() });
let titles = 0;

interface Running {
  name: string;
  proc: ChildProcess;
  url: string;
  cookie: string;
  ids: string[];
  dataDir: string;
}

async function start(build: (typeof builds)[number]): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), `registry-compare-${build.name}-`));
  const authFile = join(dataDir, 'auth.ini');
  writeFileSync(authFile, AUTH_INI);
  const seeded = new Seeder(nowMicros() - 7_200_000_000).records(0, SEEDED);
  const store = await openStore({ dataDir, timeZone: BENCH_TZ });
  await store.bulkInsert(seeded);
  await store.close();
  const port = await freePort();
  const server = [process.execPath, join(build.folder, 'src/server.js')];
  const proc = spawn(pin ? 'taskset' : server[0]!, pin ? ['-c', '1', ...server] : server.slice(1), {
    env: {
      ...process.env,
      ...build.env,
      DATA_DIR: dataDir,
      AUTH_FILE: authFile,
      RATE_LIMIT_MAX: '1000000000',
      MAX_CONNECTIONS_PER_CLIENT: '1000000',
      LOG_LEVEL: 'warn',
      TZ: BENCH_TZ,
      COOKIE_SECRET: 'bench-cookie-secret-0123456789abcdef',
      SERVER_ID: 'bench',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      const res = await fetch(`${url}${API}/assets?limit=1`);
      const cookie = res.headers.get('set-cookie')?.split(';')[0];
      if (res.ok && cookie) return { name: build.name, proc, url, cookie, ids: seeded.map((r) => r.id), dataDir };
    } catch {
      if (tries > 600) throw new Error(`${build.name} did not start`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

interface Burst {
  rps: number;
  cpuUs: number;
  requests: number;
  /** Seconds of CPU by thread name. */
  threads: Map<string, number>;
}

async function burst(server: Running, scenario: string, seconds: number): Promise<Burst> {
  const headers = { authorization, cookie: server.cookie, 'content-type': 'application/json' };
  const patched = () => server.ids[Math.floor(Math.random() * server.ids.length)];
  const request =
    scenario === 'create'
      ? { url: `${server.url}${API}/assets`, method: 'POST' as const, headers, body: createBody }
      : {
          url: `${server.url}${API}/assets/${server.ids[0]}?acc_token=${OWNER_TOKEN}`,
          method: 'PATCH' as const,
          headers,
          requests: [
            {
              setupRequest: (req: object) => ({
                ...req,
                path: `${API}/assets/${patched()}?acc_token=${OWNER_TOKEN}`,
                body: JSON.stringify({ data: { title: `Права вимоги за кредитним договором № ${++titles}` } }),
              }),
            },
          ],
        };
  const before = cpuSeconds(server.proc.pid!)!;
  const threadsBefore = threadCpuSeconds(server.proc.pid!);
  const result = await autocannon({ ...request, connections: 50, duration: seconds });
  const used = cpuSeconds(server.proc.pid!)! - before;
  const threads = new Map(
    [...threadCpuSeconds(server.proc.pid!)].map(([name, s]) => [name, s - (threadsBefore.get(name) ?? 0)]),
  );
  if (result.non2xx + result.errors > 0)
    throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = result.requests.total;
  return { rps: requests / seconds, cpuUs: (used * 1e6) / requests, requests, threads };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const servers: Running[] = [];
try {
  for (const build of builds) servers.push(await start(build));
  for (const scenario of scenarios) {
    for (const server of servers) await burst(server, scenario, 3);
    const runs = new Map(servers.map((server) => [server.name, { rps: [] as number[], cpuUs: [] as number[] }]));
    const threads = new Map(
      servers.map((server) => [server.name, { requests: 0, seconds: new Map<string, number>() }]),
    );
    for (let round = 0; round < rounds; round++) {
      // Each build in each place of the turn as often as the others.
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(round + k) % servers.length]!;
        const { rps, cpuUs, requests, threads: used } = await burst(server, scenario, burstSeconds);
        runs.get(server.name)!.rps.push(Math.round(rps));
        runs.get(server.name)!.cpuUs.push(Math.round(cpuUs));
        const sum = threads.get(server.name)!;
        sum.requests += requests;
        for (const [name, s] of used) sum.seconds.set(name, (sum.seconds.get(name) ?? 0) + s);
      }
    }
    const [base] = servers;
    const baseRuns = runs.get(base!.name)!;
    for (const { name } of servers) {
      const { rps, cpuUs } = runs.get(name)!;
      // Against the base's burst of the same round, minutes apart at most: the machine's drift weighs on both alike.
      const cost = median(rps.map((r, round) => baseRuns.rps[round]! / r - 1)) * 100;
      const cpu = median(cpuUs.map((c, round) => c / baseRuns.cpuUs[round]! - 1)) * 100;
      process.stdout.write(
        `${scenario.padEnd(7)} ${name.padEnd(12)} ${String(median(rps)).padStart(6)} req/s ${String(median(cpuUs)).padStart(5)} µs CPU a request` +
          `${name === base!.name ? '' : `   against ${base!.name}, round by round: throughput cost ${cost.toFixed(1)} %, CPU ${cpu.toFixed(1)} %`}\n`,
      );
    }
    for (const [name, { requests, seconds }] of threads) {
      const perThread = [...seconds]
        .filter(([, s]) => s > 0)
        .map(([thread, s]) => `${thread} ${((s * 1e6) / requests).toFixed(1)}`);
      process.stdout.write(
        `${scenario.padEnd(7)} ${name.padEnd(12)} µs CPU a request by thread: ${perThread.join(', ')}\n`,
      );
    }
    process.stdout.write(`${JSON.stringify({ scenario, runs: Object.fromEntries(runs) })}\n`);
  }
} finally {
  for (const server of servers) {
    if (server.proc.exitCode === null) {
      server.proc.kill('SIGTERM');
      await new Promise((done) => server.proc.once('exit', done));
    }
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
