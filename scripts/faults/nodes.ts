/**
 * Registry nodes as OS processes (`node --import tsx src/server.ts`) on one store, for the fault suite: started,
 * stopped, paused (SIGSTOP) and resumed, optionally under libfaketime with a clock the suite steps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const API = '/api/0.1';

/** Debian's libfaketime (package libfaketime). */
const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface SharedStore {
  dataDir: string;
  authFile: string;
  mongodbUri?: string;
}

export interface NodeOptions {
  name: string;
  store: SharedStore;
  /** REQUEST_TIMEOUT of the node, ms. */
  requestTimeoutMs: number;
  /** A file holding the node's clock offset for libfaketime (`+0`, `-1h`), re-read every second. */
  clockFile?: string;
  env?: Record<string, string>;
}

export function faketimeAvailable(): boolean {
  return existsSync(FAKETIME_LIBRARY);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export class RegistryNode {
  url = '';
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';
  private partial = '';
  /**
   * The first lines the process logged at level error (50): a request it answered with an error of its own (a
   * reqId), or its own work's (the transparency log's integrator).
   */
  readonly errors: string[] = [];
  paused = false;

  constructor(readonly options: NodeOptions) {}

  get name(): string {
    return this.options.name;
  }

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  /** The tail of what the process wrote (warnings and errors). */
  log(): string {
    return this.output;
  }

  async start(port?: number): Promise<void> {
    const { name, store, requestTimeoutMs, clockFile, env = {} } = this.options;
    const listen = port ?? (await freePort());
    const vars: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(listen),
      DATA_DIR: store.dataDir,
      AUTH_FILE: store.authFile,
      SERVER_ID: name,
      COOKIE_SECRET: 'faults-cookie-secret-0123456789abcdef0123456789abcdef',
      RATE_LIMIT_MAX: '100000000',
      LOG_LEVEL: 'warn',
      VALIDATE_REPLIES: 'true',
      TZ: 'Europe/Kyiv',
      REQUEST_TIMEOUT: String(requestTimeoutMs),
      // A stream to a stopped node goes silent: keep-alives every second let a follower tell.
      STREAM_HEARTBEAT: '1000',
      ...env,
    };
    if (store.mongodbUri) vars.MONGODB_URI = store.mongodbUri;
    if (clockFile) {
      if (!existsSync(clockFile)) writeFileSync(clockFile, '+0\n');
      Object.assign(vars, {
        LD_PRELOAD: FAKETIME_LIBRARY,
        FAKETIME_TIMESTAMP_FILE: clockFile,
        FAKETIME_CACHE_DURATION: '1',
        // A stepped wall clock leaves the monotonic clock alone; libuv's timers run on it.
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      });
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: REPO_ROOT,
      env: vars,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.paused = false;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.output = (this.output + text).slice(-20_000);
      const lines = (this.partial + text).split('\n');
      this.partial = lines.pop()!.slice(-100_000);
      for (const line of lines) {
        if (this.errors.length < 10 && line.includes('"level":50')) this.errors.push(`${name} ${line.slice(0, 2000)}`);
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.url = `http://127.0.0.1:${listen}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited while starting:\n${this.output}`);
      try {
        const res = await request(`${this.url}${API}/health`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
        await res.body.text();
        if (res.statusCode === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${name} did not start within 60 s:\n${this.output}`);
      await sleep(100);
    }
  }

  pause(): void {
    if (this.child?.pid) process.kill(this.child.pid, 'SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    if (this.child?.pid) process.kill(this.child.pid, 'SIGCONT');
    this.paused = false;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    if (this.paused) this.resume();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** auth.ini with one broker key per writer, named w0, w1, … (all in [brokers]). */
export function writeAuthFile(dir: string, writers: number): { file: string; keys: string[] } {
  const keys = Array.from({ length: writers }, (_, i) => `fa${String(i).padStart(2, '0')}`.padEnd(32, '0'));
  const file = join(dir, 'auth.ini');
  writeFileSync(file, `[brokers]\n${keys.map((key, i) => `w${i} = ${key}`).join('\n')}\n`);
  return { file, keys };
}
