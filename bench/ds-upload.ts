/**
 * The document service's upload throughput and the server's memory while it takes a large file.
 *
 *   npm run bench -- --ds-upload                 a 100 MiB file, 3 runs, on the compiled service
 *   npm run bench -- --ds-upload --size 10 --runs 1 --no-build
 *                                                a quick try (10 MiB, the TypeScript sources through tsx)
 *
 * Options: --size MiB (100), --runs N (3), --no-build (run src/server.ts through tsx instead of compiling),
 * --no-pin, --keep (keep the temporary store). MONGODB_URI set: the files go to GridFS in a fresh database,
 * dropped at the end.
 *
 * The registry runs in a child process (pinned to core 1 when there are two cores and taskset, this process on
 * core 0). The file is generated 1 MiB at a time and streamed as a chunked multipart body, so the sender holds
 * no more than a block either. Each run prints the upload's MB/s (10^6 bytes per second, and MiB/s), the
 * server's resident memory before the upload and at its peak during it (VmRSS sampled every 5 ms), and checks
 * the answer's MD5; the file is then downloaded through its signed URL and its MD5 checked again.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { freePort, hasTaskset } from './ports.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const BROKER_KEY = randomBytes(16).toString('hex');

interface Options {
  sizeMiB: number;
  runs: number;
  build: boolean;
  pin: boolean;
  keep: boolean;
}

function readOptions(argv: readonly string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  return {
    sizeMiB: Number(value('size') ?? 100),
    runs: Number(value('runs') ?? 3),
    build: !argv.includes('--no-build'),
    pin: !argv.includes('--no-pin') && cpus().length >= 2 && hasTaskset(),
    keep: argv.includes('--keep'),
  };
}

const log = (text: string): void => void process.stderr.write(`${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process now, bytes. */
function rss(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** The command that starts the registry: the compiled service, as `npm start` runs it, or the sources via tsx. */
function serverCommand(build: boolean): string[] {
  if (!build) return ['--import', 'tsx', join(ROOT, 'src/server.ts')];
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
  return [join(outDir, 'src/server.js')];
}

async function startRegistry(
  args: string[],
  env: Record<string, string>,
  pin: boolean,
): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const command = pin ? 'taskset' : process.execPath;
  const argv = pin ? ['-c', '1', process.execPath, ...args] : args;
  const proc = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the registry exited with ${proc.exitCode}`);
    try {
      const res = await request(`${url}/api/0.1/health`);
      await res.body.text();
      if (res.statusCode === 200) return { proc, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the registry did not start within 60 s');
    await sleep(20);
  }
}

/** A multipart body of one part `file` holding `sizeMiB` generated MiB; `md5()` once it has been sent. */
function generatedUpload(sizeMiB: number): { contentType: string; body: AsyncIterable<Buffer>; md5: () => string } {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const hash = createHash('md5');
  async function* body(): AsyncGenerator<Buffer> {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const block = randomBytes(MiB);
    for (let i = 0; i < sizeMiB; i++) {
      block.writeUInt32LE(i, 0);
      hash.update(block);
      yield Buffer.from(block);
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  let digest: string | undefined;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: body(),
    md5: () => (digest ??= hash.digest('hex')),
  };
}

interface RunResult {
  uploadMBps: number;
  uploadMiBps: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  downloadMBps: number;
}

async function oneRun(url: string, pid: number, cookie: string, sizeMiB: number): Promise<RunResult> {
  const upload = generatedUpload(sizeMiB);
  const before = rss(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 5);
  const started = performance.now();
  let answer: { data: { url: string; hash: string } };
  try {
    const res = await request(`${url}/api/0.1/ds/upload`, {
      method: 'POST',
      body: Readable.from(upload.body),
      headers: {
        'content-type': upload.contentType,
        authorization: `Basic ${Buffer.from(`${BROKER_KEY}:`).toString('base64')}`,
        cookie,
      },
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}: ${text}`);
    answer = JSON.parse(text);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  if (answer.data.hash !== `md5:${upload.md5()}`)
    throw new Error(`the stored file's hash ${answer.data.hash} is not the sent file's`);

  const fileUrl = new URL(answer.data.url);
  const downloadStarted = performance.now();
  const download = await request(`${url}${fileUrl.pathname}${fileUrl.search}`);
  const hash = createHash('md5');
  for await (const chunk of download.body) hash.update(chunk as Buffer);
  const downloadSeconds = (performance.now() - downloadStarted) / 1000;
  if (download.statusCode !== 200 || hash.digest('hex') !== upload.md5())
    throw new Error('the downloaded file differs from the uploaded one');

  const bytes = sizeMiB * MiB;
  return {
    uploadMBps: +(bytes / 1e6 / seconds).toFixed(1),
    uploadMiBps: +(sizeMiB / seconds).toFixed(1),
    rssBeforeMiB: +(before / MiB).toFixed(1),
    rssPeakMiB: +(peak / MiB).toFixed(1),
    downloadMBps: +(bytes / 1e6 / downloadSeconds).toFixed(1),
  };
}

export async function runUploadBench(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options = readOptions(argv);
  if (options.pin) execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  const args = serverCommand(options.build);
  const workDir = join(ROOT, 'bench/tmp', `ds-upload-${Date.now().toString(36)}`);
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'auth.ini'), `[brokers]\nbench = ${BROKER_KEY}\n`);
  const mongoUri = process.env.MONGODB_URI
    ? process.env.MONGODB_URI.replace(
        /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/,
        `$1/registry_bench_ds_${Date.now().toString(36)}`,
      )
    : undefined;
  const env: Record<string, string> = {
    DATA_DIR: join(workDir, 'data'),
    AUTH_FILE: join(workDir, 'auth.ini'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    DS_MAX_BYTES: String((options.sizeMiB + 1) * MiB),
    ...(mongoUri ? { MONGODB_URI: mongoUri } : {}),
  };
  const { proc, url } = await startRegistry(args, env, options.pin);
  try {
    const first = await request(`${url}/api/0.1/assets?limit=1`);
    await first.body.text();
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    log(
      `store: ${mongoUri ? 'MongoDB (GridFS)' : 'embedded (a folder beside SQLite)'}; file: ${options.sizeMiB} MiB; pinning: ${options.pin ? 'on' : 'off'}`,
    );
    // A first small upload loads every code path, so the runs measure the upload and not the start-up.
    await oneRun(url, proc.pid!, cookie, 1);
    const results: RunResult[] = [];
    for (let run = 1; run <= options.runs; run++) {
      const result = await oneRun(url, proc.pid!, cookie, options.sizeMiB);
      results.push(result);
      log(
        `run ${run}: upload ${result.uploadMBps} MB/s (${result.uploadMiBps} MiB/s), server RSS ${result.rssBeforeMiB} MiB before, ` +
          `${result.rssPeakMiB} MiB at peak (+${(result.rssPeakMiB - result.rssBeforeMiB).toFixed(1)}); download ${result.downloadMBps} MB/s`,
      );
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const summary = {
      store: mongoUri ? 'mongodb' : 'embedded',
      fileMiB: options.sizeMiB,
      runs: options.runs,
      uploadMBps: median(results.map((r) => r.uploadMBps)),
      peakRssMiB: Math.max(...results.map((r) => r.rssPeakMiB)),
      rssGrowthMiB: +Math.max(...results.map((r) => r.rssPeakMiB - r.rssBeforeMiB)).toFixed(1),
      downloadMBps: median(results.map((r) => r.downloadMBps)),
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    proc.kill('SIGTERM');
    await new Promise((resolve) => proc.once('exit', resolve));
    if (mongoUri) {
      const { MongoClient } = await import('mongodb');
      const client = new MongoClient(mongoUri);
      await client
        .db()
        .dropDatabase()
        .finally(() => client.close());
    }
    if (!options.keep) rmSync(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runUploadBench();
}
