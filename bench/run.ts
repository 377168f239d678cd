/**
 * `npm run bench`: how close the registry runs to a bare Fastify route on this machine, and how its cost grows
 * with the number of assets.
 *
 *   npm run bench                 full run: scenarios at 10,000 assets, then scaling to 100,000 and 1,000,000;
 *                                 writes bench/results/<timestamp>.json, docs/performance.md and
 *                                 docs/performance-scaling.svg
 *   npm run bench -- --quick      about two minutes: the five scenarios at 10,000 assets only, each with the limit
 *                                 and the object route; the last line of output is the ratios to the limit as one
 *                                 JSON object (nothing is written)
 *   npm run bench -- --report bench/results/<file>.json
 *                                 rewrites docs/performance.md and the chart from a saved result
 *   npm run bench -- --ds-upload  the document service instead: upload MB/s and the server's peak RSS for a
 *                                 100 MiB file (bench/ds-upload.ts; --size, --runs, --no-build)
 *
 *   npm run bench -- --quick --profile
 *                                 each scenario on a registry of its own under `node --cpu-prof`: where its time
 *                                 goes (bench/profile.ts), profiles kept in bench/profiles/<scenario>/
 *
 *   npm run bench -- --stream-only --sizes 1000 --stream-counts 1,10
 *                                 only the change stream's latency (a quick try; nothing is written)
 *
 * Options: --scenarios read,listing,listingFields,create,patch (all), --connections N (50), --duration S (10 full, 3 quick), --sizes 10000,100000,1000000,
 * --log-level L (the registry's LOG_LEVEL, default warn), --no-pin, --keep (keep the temporary store),
 * --stream-counts 1,100,1000 (connected change streams), --stream-events N (50 changes per count),
 * --stream-interval MS (100 between changes). The change stream is measured at the first size, after the four
 * scenarios (bench/stream.ts).
 * MONGODB_URI set: the registry runs on MongoDB (a fresh database, dropped at the end) instead of SQLite, at
 * 10,000 and 100,000 assets unless --sizes says otherwise; each measurement also gives the CPU of the engine's
 * processes when they run on this machine (bench/cpu.ts: FerretDB and PostgreSQL started by
 * scripts/ferretdb.sh, or a mongod), and the run writes bench/results/<timestamp>-mongodb.json and
 * docs/performance-mongodb.md, which says which figures are the engine's.
 *
 * What runs where: the registry is the compiled service (`tsc` into bench/tmp/dist, started as
 * `node bench/tmp/dist/src/server.js`, as `npm start` does) in a child process; the bare route is another child
 * (bench/bare-server.ts); autocannon runs in this process. On a machine with 2+ cores, this process is
 * pinned to core 0 and the servers to core 1 (taskset), so the load generator never competes with the server.
 * Seeding goes through the storage interface (`store.bulkInsert`), not HTTP.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, release, platform } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openStore } from '../src/store/index.js';
import type { AssetStore } from '../src/store/types.js';
import { nowMicros } from '../src/domain/dates.js';
import { AUTH_INI, BENCH_TZ, BROKER_KEY, createPayload, OWNER_TOKEN, Seeder } from './data.js';
import {
  serverNote,
  writeReport,
  type BenchResults,
  type Measure,
  type MongoServer,
  type ScalingPoint,
} from './report.js';
import { enginePids, startCpuMeter } from './cpu.js';
import { measureStreams } from './stream.js';
import { freePort, hasTaskset } from './ports.js';
import { formatSummary, summarise } from './profile.js';
import { dropMongo } from './mongo.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API = '/api/0.1';

// ---------------------------------------------------------------- options

function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const reportOnly = option('report');
const quick = flag('quick');
const streamOnly = flag('stream-only');
const streamCounts = (option('stream-counts') ?? '1,100,1000').split(',').map(Number);
const streamEvents = Number(option('stream-events') ?? 50);
const streamInterval = Number(option('stream-interval') ?? 100);
/** Runs that write no result file: the quick ratios, the stream-only try, the profiles. */
const tryOnly = quick || streamOnly || flag('profile');
const connections = Number(option('connections') ?? 50);
const duration = Number(option('duration') ?? (quick ? 3 : 10));
const warmup = quick ? 1 : 2;
/** The sizes of this run: --sizes, or 10,000 for --quick, or the scaling sizes (to 100,000 on MongoDB). */
function runSizes(mongo: boolean): number[] {
  const given = option('sizes');
  if (given === undefined && (quick || streamOnly)) return [10_000];
  return (given ?? (mongo ? '10000,100000' : '10000,100000,1000000')).split(',').map(Number);
}
const logLevel = option('log-level') ?? 'warn';
const mongoUri = process.env.MONGODB_URI || undefined;
/** `--scenarios read,listing`: only these of the paired scenarios. */
const onlyScenarios = option('scenarios')?.split(',');
/** `--profile`: each scenario on a registry of its own under `node --cpu-prof`, profiles kept in bench/profiles/. */
const profileDir = flag('profile') ? join(ROOT, 'bench/profiles') : undefined;
const SEED_BATCH = 10_000;

// ---------------------------------------------------------------- helpers

const log = (text: string): void => void process.stderr.write(`${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The answer's body, exactly as it came. */
  bytes: Buffer;
}

/** One request (set-up and captures, not load); the answer's status, headers and exact bytes. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, timeout: options.timeoutMs ?? 2000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Kilobytes of a /proc/<pid>/status line (VmRSS: now, VmHWM: peak). */
function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- pinning and child processes

const canPin = !flag('no-pin') && cpus().length >= 2 && hasTaskset();
const LOADER_CORE = '0';
const SERVER_CORE = '1';

interface Child {
  proc: ChildProcess;
  url: string;
  startupMs: number;
  stderr: () => string;
}

const children = new Set<ChildProcess>();

/** Starts a server child pinned to the server core and waits until `healthPath` answers 200. */
async function startChild(args: string[], env: Record<string, string>, healthPath: string): Promise<Child> {
  const port = await freePort();
  const command = canPin ? 'taskset' : process.execPath;
  const argv = canPin ? ['-c', SERVER_CORE, process.execPath, ...args] : args;
  const t0 = performance.now();
  const proc = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(proc);
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${stderr}`);
    try {
      const res = await send(url + healthPath, { timeoutMs: 1000 });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 30 s: ${stderr}`);
    await sleep(2);
  }
  return { proc, url, startupMs: round(performance.now() - t0, 0), stderr: () => stderr };
}

/** Seconds until the revision of `id` has its transparency log index. */
async function logIntegrated(url: string, id: string | undefined): Promise<number> {
  const t0 = performance.now();
  while (id !== undefined) {
    const res = await send(`${url}${API}/assets/${id}/revisions`, { timeoutMs: 10_000 });
    const [revision] = (JSON.parse(res.bytes.toString('utf8')) as { data: { logIndex?: number }[] }).data;
    if (revision?.logIndex !== undefined) break;
    await sleep(100);
  }
  return round((performance.now() - t0) / 1000, 1);
}

async function stopChild(child: Child): Promise<void> {
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!killed) {
    proc.kill('SIGKILL');
    await exited;
  }
  children.delete(proc);
}

function killChildren(): void {
  for (const proc of children) if (proc.exitCode === null) proc.kill('SIGKILL');
}

// ---------------------------------------------------------------- load

interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** Varies each request: path and/or body. */
  setup?: () => { path?: string; body?: string };
  /** The status every response must have. */
  expect?: number;
}

async function runLoad(spec: LoadSpec, seconds: number): Promise<Measure> {
  const result = await autocannon({
    url: spec.url,
    connections,
    duration: seconds,
    timeout: 10,
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.setup
      ? {
          requests: [
            {
              method: spec.method ?? 'GET',
              setupRequest: (req) => {
                const change = spec.setup!();
                return { ...req, ...change } as typeof req;
              },
            },
          ],
        }
      : {}),
  });
  const expected = spec.expect ?? 200;
  const total = result.requests.total;
  const wrong = (result.statusCodeStats as Record<string, { count: number }> | undefined) ?? {};
  const unexpected = Object.entries(wrong)
    .filter(([code]) => Number(code) !== expected)
    .reduce((sum, [, stats]) => sum + stats.count, 0);
  return {
    rps: round(result.requests.average, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: total,
    bytesPerResponse: total > 0 ? round(result.throughput.total / total, 0) : 0,
    unexpected,
    errors: result.errors + result.timeouts,
  };
}

/** The MongoDB engine's processes on this machine (none on the embedded store), for the CPU beside each figure. */
let engine: (() => number[]) | undefined;

/** Measures `spec` after a warm-up; with `registryPid`, also the CPU the registry and the engine used meanwhile. */
async function measure(name: string, spec: LoadSpec, registryPid?: number): Promise<Measure> {
  await runLoad(spec, warmup);
  const meter = registryPid === undefined ? undefined : startCpuMeter(registryPid, engine);
  const m = await runLoad(spec, duration);
  if (meter) m.cpu = meter.stop();
  const problems = m.unexpected + m.errors > 0 ? `  (!! ${m.unexpected} unexpected statuses, ${m.errors} errors)` : '';
  const cpu = m.cpu
    ? `   cpu: registry ${m.cpu.registry}${m.cpu.engine === undefined ? '' : `, engine ${m.cpu.engine}`} cores`
    : '';
  log(`  ${name.padEnd(26)} ${String(m.rps).padStart(7)} req/s   p50 ${m.p50} ms   p99 ${m.p99} ms${cpu}${problems}`);
  return m;
}

/**
 * One scenario on a registry started for it under `--cpu-prof`: the profile is written when it stops, then
 * summarised (bench/profile.ts). No bare-route pairing: the figures under a profiler are not comparable.
 */
async function profileScenario(
  key: string,
  label: string,
  build: (base: string, cookie: string) => LoadSpec,
  serverJs: string,
  env: Record<string, string>,
): Promise<void> {
  const dir = join(profileDir!, key);
  rmSync(dir, { recursive: true, force: true });
  const registry = await startChild(['--cpu-prof', `--cpu-prof-dir=${dir}`, serverJs], env, `${API}/health`);
  await measure(`${label} (profiled)`, build(registry.url, await serverCookie(registry.url)), registry.proc.pid);
  await stopChild(registry);
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no profile written in ${dir}`);
  log(formatSummary(summarise(join(dir, file))));
}

// ---------------------------------------------------------------- the run

function machine(): BenchResults['machine'] {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGB: round(totalmem() / 2 ** 30, 1),
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

function buildRegistry(): string {
  const outDir = join(ROOT, 'bench/tmp/dist');
  log('building the registry (tsc) into bench/tmp/dist …');
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  return join(outDir, 'src/server.js');
}

async function main(): Promise<void> {
  if (reportOnly !== undefined) {
    const results = JSON.parse(readFileSync(reportOnly, 'utf8')) as BenchResults;
    log(`wrote ${writeReport(results, ROOT).join(' and ')}`);
    return;
  }
  const watchdog = setTimeout(
    () => {
      log('bench: time limit reached, stopping');
      killChildren();
      process.exit(2);
    },
    (quick ? 180 : 45 * 60) * 1000,
  );
  watchdog.unref();
  process.on('SIGINT', () => {
    killChildren();
    process.exit(130);
  });

  if (canPin) execFileSync('taskset', ['-a', '-cp', LOADER_CORE, String(process.pid)], { stdio: 'ignore' });
  log(
    canPin
      ? `pinning: load generator (this process) on core ${LOADER_CORE}, servers on core ${SERVER_CORE}`
      : 'pinning: off (fewer than 2 cores, no taskset, or --no-pin)',
  );

  const serverJs = buildRegistry();
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const workDir = join(ROOT, 'bench/tmp', `run-${stamp}`);
  const dataDir = join(workDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const authFile = join(workDir, 'auth.ini');
  writeFileSync(authFile, AUTH_INI);
  const mongoDb = mongoUri ? uniqueMongoUri(mongoUri) : undefined;
  const mongoServer = mongoDb ? await describeMongoServer(mongoDb) : undefined;
  const sizes = runSizes(mongoDb !== undefined);
  if (mongoDb && mongoServer) {
    engine = () => enginePids(mongoDb);
    const found = engine().length;
    log(`store: ${mongoServer.version}; seeding ${sizes.map((size) => size.toLocaleString('en')).join(', ')} assets`);
    log(
      found > 0
        ? `engine: ${found} processes on this machine, their CPU measured`
        : 'engine: not on this machine (BENCH_ENGINE_PIDS names its processes), its CPU not measured',
    );
    const note = serverNote(mongoServer);
    if (note) log(note);
  }

  const registryEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_FILE: authFile,
    RATE_LIMIT_MAX: '1000000000',
    // All the load comes from this one address: neither the rate nor the connections per client may be the limit.
    MAX_CONNECTIONS_PER_CLIENT: '1000000',
    LOG_LEVEL: logLevel,
    TZ: BENCH_TZ,
    COOKIE_SECRET: 'bench-cookie-secret-0123456789abcdef',
    SERVER_ID: 'bench',
    ...(mongoDb ? { MONGODB_URI: mongoDb } : {}),
  };

  // The bare route's body: a seeded asset, exactly as the registry serves it.
  const seeder = new Seeder(nowMicros() - 2 * 3600 * 1_000_000);
  const bareBody = join(workDir, 'bare-asset.json');
  writeFileSync(bareBody, JSON.stringify(seeder.sampleAsset()));
  const bare = await startChild(
    ['--import', 'tsx', join(ROOT, 'bench/bare-server.ts')],
    { BENCH_BARE_BODY: bareBody },
    '/health',
  );

  const openBenchStore = () => openStore({ mongodbUri: mongoDb, dataDir, timeZone: BENCH_TZ });
  let store: AssetStore = await openBenchStore();
  let seeded = 0;
  /** Ids sampled across the whole seeded range, for reads by id. */
  const sampleIds: string[] = [];
  const patchIds: string[] = [];
  /** The record seeded last: once its revision is in the transparency log, so is every seeded one. */
  let lastSeededId: string | undefined;

  async function seedTo(size: number): Promise<number> {
    const t0 = performance.now();
    while (seeded < size) {
      const batch = seeder.records(seeded, Math.min(size, seeded + SEED_BATCH));
      await store.bulkInsert(batch);
      for (let k = 0; k < 200 && k < batch.length; k++)
        sampleIds.push(batch[Math.floor(Math.random() * batch.length)]!.id);
      if (patchIds.length === 0) patchIds.push(...batch.slice(0, 1000).map((r) => r.id));
      seeded += batch.length;
      lastSeededId = batch[batch.length - 1]!.id;
      if (seeded % 100_000 === 0) log(`  seeded ${seeded.toLocaleString('en')}`);
    }
    // Closed and opened again, so that the registry starts on the store as a running one leaves it: on SQLite, the
    // last connection's close moves the seeding's WAL into the database, a WAL a running registry's checkpoints
    // never let pile up.
    await store.close();
    store = await openBenchStore();
    const seconds = (performance.now() - t0) / 1000;
    return round(seconds, 1);
  }

  const results: BenchResults = {
    timestamp: started.toISOString(),
    resultFile: tryOnly ? undefined : `bench/results/${resultName(stamp)}`,
    command: `npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    quick,
    store: mongoDb ? 'mongodb' : 'embedded',
    ...(mongoServer ? { mongoServer } : {}),
    machine: machine(),
    pinning: canPin
      ? `load generator on core ${LOADER_CORE}, registry and bare route on core ${SERVER_CORE} (taskset)`
      : 'none',
    settings: { connections, durationSeconds: duration, warmupSeconds: warmup, registryLogLevel: logLevel },
    limit: [],
    bare: [],
    scenarios: {},
    ratios: {},
    ratiosToObjectRoute: {},
    startupMs: [],
    scaling: [],
    peakRssMB: 0,
    streams: [],
  };

  const randomOf = (list: string[]) => list[Math.floor(Math.random() * list.length)]!;
  const authorization = `Basic ${Buffer.from(`${BROKER_KEY}:`).toString('base64')}`;
  const createBody = JSON.stringify({ data: createPayload() });
  let counter = 0;
  /** The paired scenarios, each built for a registry's address and its cluster cookie. */
  const SCENARIOS: [keyof BenchResults['scenarios'], string, (base: string, cookie: string) => LoadSpec][] = [
    [
      'read',
      'read one asset (random id)',
      (base, cookie) => ({
        url: `${base}${API}/assets/${sampleIds[0]}`,
        headers: { cookie },
        setup: () => ({ path: `${API}/assets/${randomOf(sampleIds)}` }),
      }),
    ],
    [
      'listing',
      'listing page of 100',
      (base, cookie) => ({ url: `${base}${API}/assets?limit=100`, headers: { cookie } }),
    ],
    [
      'listingFields',
      'listing, opt_fields',
      (base, cookie) => ({
        url: `${base}${API}/assets?limit=100&opt_fields=status,assetID`,
        headers: { cookie },
      }),
    ],
    [
      'create',
      'create (POST)',
      (base, cookie) => ({
        url: `${base}${API}/assets`,
        method: 'POST',
        headers: { authorization, cookie, 'content-type': 'application/json' },
        body: createBody,
        expect: 201,
      }),
    ],
    [
      'patch',
      'PATCH (a title)',
      (base, cookie) => ({
        url: `${base}${API}/assets/${patchIds[0]}?acc_token=${OWNER_TOKEN}`,
        method: 'PATCH',
        headers: { authorization, cookie, 'content-type': 'application/json' },
        setup: () => ({
          path: `${API}/assets/${randomOf(patchIds)}?acc_token=${OWNER_TOKEN}`,
          body: JSON.stringify({ data: { title: `Права вимоги за кредитним договором № ${++counter}` } }),
        }),
      }),
    ],
  ];
  let peakRssKb = 0;

  try {
    for (const size of sizes) {
      log(`\n== ${size.toLocaleString('en')} assets`);
      const seedSeconds = await seedTo(size);
      log(`  seeded in ${seedSeconds} s`);
      const registry = await startChild([serverJs], registryEnv, `${API}/health`);
      log(`  registry started in ${registry.startupMs} ms`);
      results.startupMs.push({ assets: size, ms: registry.startupMs });
      // A running registry has no backlog for its transparency log: the seeded revisions are integrated first.
      log(
        `  transparency log: the seeded revisions integrated in ${await logIntegrated(registry.url, lastSeededId)} s`,
      );

      const cookie = await serverCookie(registry.url);
      const spec = (key: string): LoadSpec => SCENARIOS.find(([name]) => name === key)![2](registry.url, cookie);
      const readSpec = spec('read');
      const listSpec = spec('listing');
      const bareSpec: LoadSpec = { url: `${bare.url}/asset` };

      if (size === sizes[0] && !streamOnly) {
        // Each scenario right after the bare route, so both see the same machine (its other load drifts).
        for (const [key, label, build] of SCENARIOS.filter(([key]) => onlyScenarios?.includes(key) ?? true)) {
          if (profileDir !== undefined) {
            await profileScenario(key, label, build, serverJs, registryEnv);
            continue;
          }
          const scenario = build(registry.url, cookie);
          const limitMeasure = await measure('limit (same bytes)', await sameBytesSpec(key, scenario, bare.url));
          const bareMeasure = await measure('bare route (object)', bareSpec);
          const m = await measure(label, scenario, registry.proc.pid);
          results.limit!.push({ ...limitMeasure, pairedWith: key });
          results.bare.push({ ...bareMeasure, pairedWith: key });
          results.scenarios[key] = m;
          results.ratios[key] = round(m.rps / limitMeasure.rps, 3);
          results.ratiosToObjectRoute![key] = round(m.rps / bareMeasure.rps, 3);
          log(
            `  ${''.padEnd(26)} ratio to the limit ${results.ratios[key]}, to the object route ${results.ratiosToObjectRoute![key]}`,
          );
        }
      }

      if (size === sizes[0] && !quick) {
        log('  change stream: latency from the answer to a PATCH to its event on every stream');
        results.streams = await measureStreams({
          url: registry.url,
          pid: registry.proc.pid!,
          cookie,
          authorization,
          ownerToken: OWNER_TOKEN,
          patchIds,
          streamCounts,
          events: streamEvents,
          intervalMs: streamInterval,
          log,
        });
      }

      let point: ScalingPoint | undefined;
      let storeOnlyHwm = 0;
      if (!tryOnly) {
        const lastPage = await store.list({ descending: true, limit: 101, mode: 'real', fields: [] });
        const endOffset = encodeURIComponent(lastPage[lastPage.length - 1]!.dateModified);
        // Reads by random id on the registry as configured: at the larger sizes they mostly miss its served cache,
        // and they fill it (the peak RSS includes it). The feed's pages on a registry without the cache
        // (CACHE_MB=0): with it, every page after the first is read from memory, which would hide the store's growth.
        const read = await measure('read by id (random)', readSpec, registry.proc.pid);
        const storeOnly = await startChild([serverJs], { ...registryEnv, CACHE_MB: '0' }, `${API}/health`);
        const pages: LoadSpec = {
          ...listSpec,
          url: `${storeOnly.url}${API}/assets?limit=100`,
          headers: { cookie: await serverCookie(storeOnly.url) },
        };
        point = {
          assets: size,
          seedSeconds,
          startupMs: registry.startupMs,
          listStart: await measure('listing, start of feed (no cache)', pages, storeOnly.proc.pid),
          listEnd: await measure(
            'listing, end of feed (no cache)',
            { ...pages, url: `${storeOnly.url}${API}/assets?offset=${endOffset}` },
            storeOnly.proc.pid,
          ),
          read,
          rssMB: 0,
        };
        storeOnlyHwm = procStatusKb(storeOnly.proc.pid!, 'VmHWM') ?? 0;
        await stopChild(storeOnly);
      }

      const hwm = Math.max(procStatusKb(registry.proc.pid!, 'VmHWM') ?? 0, storeOnlyHwm);
      peakRssKb = Math.max(peakRssKb, hwm);
      log(`  registry peak RSS ${round(hwm / 1024, 0)} MB`);
      if (point) {
        point.rssMB = round(hwm / 1024, 0);
        results.scaling.push(point);
      }
      await stopChild(registry);
    }
  } finally {
    await stopChild(bare).catch(() => undefined);
    await store.close().catch(() => undefined);
    killChildren();
    if (mongoDb) await dropMongo(mongoDb).catch(() => undefined);
    if (!flag('keep')) rmSync(workDir, { recursive: true, force: true });
  }
  results.peakRssMB = round(peakRssKb / 1024, 0);

  if (!tryOnly) {
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const file = join(ROOT, 'bench/results', resultName(stamp));
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    const written = writeReport(results, ROOT);
    log(`\nwrote ${file.slice(ROOT.length)}, ${written.join(', ')}`);
  }
  const note = mongoServer && serverNote(mongoServer);
  if (note) log(`\n${note}`);
  process.stdout.write(`${JSON.stringify(streamOnly ? results.streams : results.ratios)}\n`);
}

/**
 * The limit of a scenario: one request of the scenario is sent to the registry and its answer's bytes
 * are handed to the bare server, which then answers exactly those bytes, with the same status, to the same
 * requests (same method, same request bodies, parsed as JSON).
 */
async function sameBytesSpec(key: string, scenario: LoadSpec, bareUrl: string): Promise<LoadSpec> {
  const varied = scenario.setup?.() ?? {};
  const target = new URL(scenario.url);
  const body = varied.body ?? scenario.body;
  const answer = await send(`${target.origin}${varied.path ?? target.pathname + target.search}`, {
    method: scenario.method ?? 'GET',
    headers: scenario.headers ?? {},
    ...(body === undefined ? {} : { body }),
    timeoutMs: 30_000,
  });
  if (answer.status !== (scenario.expect ?? 200)) {
    throw new Error(
      `capturing ${key}: the registry answered ${answer.status}: ${answer.bytes.toString('utf8').slice(0, 300)}`,
    );
  }
  await send(`${bareUrl}/bytes/${key}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/octet-stream',
      'x-status': String(answer.status),
      'x-type': String(answer.headers['content-type'] ?? ''),
    },
    body: answer.bytes,
  });
  const path = `/bytes/${key}`;
  const setup = scenario.setup;
  return {
    url: `${bareUrl}${path}`,
    method: scenario.method ?? 'GET',
    headers: (scenario.method ?? 'GET') === 'GET' ? {} : { 'content-type': 'application/json' },
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    ...(setup
      ? {
          setup: () => {
            const { body } = setup();
            return body === undefined ? { path } : { path, body };
          },
        }
      : {}),
    expect: answer.status,
  };
}

/** GET once, keep the SERVER_ID cookie the registry hands out (writes need it). */
async function serverCookie(base: string): Promise<string> {
  // Set-up, not a measurement: a generous timeout for a first page on a cold engine.
  const res = await send(`${base}${API}/assets?limit=1`, { timeoutMs: 30_000 });
  const setCookie = res.headers['set-cookie'];
  const first = (Array.isArray(setCookie) ? setCookie : [String(setCookie ?? '')]).find((c) =>
    c.startsWith('SERVER_ID='),
  );
  if (!first) throw new Error('the registry handed out no SERVER_ID cookie');
  return first.split(';')[0]!;
}

/** Which server MONGODB_URI names: MongoDB itself, or a stand-in speaking its protocol (FerretDB). */
async function describeMongoServer(uri: string): Promise<MongoServer> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri);
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    const ferret = (info.ferretdb as { version?: unknown } | undefined)?.version;
    return ferret === undefined
      ? { version: `MongoDB ${String(info.version)}`, standIn: false }
      : { version: `FerretDB ${String(ferret)} on DocumentDB`, standIn: true };
  } finally {
    await client.close();
  }
}

/** The result file's name: the run's time, and `-mongodb` for a run on MongoDB. */
function resultName(stamp: string): string {
  return `${stamp}${mongoUri ? '-mongodb' : ''}.json`;
}

function uniqueMongoUri(uri: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!m) throw new Error(`MONGODB_URI not understood: ${uri}`);
  return `${m[1]}/registry_bench_${Date.now().toString(36)}${m[3] ?? ''}`;
}

if (!flag('ds-upload') && !existsSync(join(ROOT, 'node_modules/autocannon'))) {
  log('autocannon is not installed: npm install');
  process.exit(1);
}

/** `--ds-upload`: the document service's upload benchmark (bench/ds-upload.ts) instead of the HTTP one. */
const run = flag('ds-upload') ? () => import('./ds-upload.js').then((bench) => bench.runUploadBench()) : main;

run().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    killChildren();
    process.exit(1);
  },
);
