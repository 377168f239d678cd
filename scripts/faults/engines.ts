/**
 * The engines and tools the scenarios run on, each set up with the project's own scripts: FerretDB on DocumentDB
 * (scripts/ferretdb.sh), the replicated engine (scripts/replicated-engine.sh), Toxiproxy (scripts/toxiproxy.sh)
 * between the nodes and FerretDB, and a small file system for the embedded store.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { freePort, REPO_ROOT, sleep } from './nodes.js';

function script(name: string, ...args: string[]): string {
  return execFileSync('bash', [join(REPO_ROOT, 'scripts', name), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * `scripts/ferretdb.sh start PORT`: the URI of its `registry` database. Repeated for a while: PostgreSQL's port may
 * still be held by a connection of the last run in TIME_WAIT.
 */
export async function startFerretDb(port: number): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const line = script('ferretdb.sh', 'start', String(port))
        .split('\n')
        .find((l) => l.startsWith('MONGODB_URI='));
      if (!line) throw new Error('ferretdb.sh printed no MONGODB_URI');
      return line.slice('MONGODB_URI='.length);
    } catch (error) {
      if (attempt >= 15) throw error;
      await sleep(5000);
    }
  }
}

export function stopFerretDb(port: number): void {
  script('ferretdb.sh', 'stop', String(port));
}

/** FerretDB's own process (not PostgreSQL's) on `port`, as ferretdb.sh started it. */
function ferretDbPid(port: number): number {
  const runDir = process.env.FERRETDB_RUN_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'claimrights-ferretdb2');
  return Number(readFileSync(join(runDir, String(port), 'ferretdb.pid'), 'utf8').trim());
}

/** `kill -9` of FerretDB; returns how to start it again with the same command line. */
export function killFerretDb(port: number): () => Promise<void> {
  const pid = ferretDbPid(port);
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  process.kill(pid, 'SIGKILL');
  return async () => {
    const child = spawn(argv[0]!, argv.slice(1), {
      env: { ...process.env, DO_NOT_TRACK: '1' },
      detached: true,
      stdio: 'ignore',
    });
    child.unref();
    const runDir = process.env.FERRETDB_RUN_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'claimrights-ferretdb2');
    execFileSync('sh', ['-c', `echo ${child.pid} > ${join(runDir, String(port), 'ferretdb.pid')}`]);
    for (let i = 0; i < 300 && !(await portAnswers(port)); i++) await sleep(100);
  };
}

/** `scripts/replicated-engine.sh start BASE`: the URI, and the engine's parts. */
export function startReplicated(base: number): string {
  const line = script('replicated-engine.sh', 'start', String(base))
    .split('\n')
    .find((l) => l.startsWith('MONGODB_URI='));
  if (!line) throw new Error('replicated-engine.sh printed no MONGODB_URI');
  return line.slice('MONGODB_URI='.length);
}

export function stopReplicated(base: number): void {
  script('replicated-engine.sh', 'stop', String(base));
}

/** `kill -9` of the primary PostgreSQL node (its postmaster and its Patroni): which node it was. */
export function killReplicatedPrimary(base: number): string {
  return script('replicated-engine.sh', 'kill-primary', String(base));
}

export function replicatedPrimary(base: number): string {
  return script('replicated-engine.sh', 'primary', String(base));
}

/** Toxiproxy in front of an upstream port, driven over its HTTP API. */
export class Toxiproxy {
  private server: ChildProcess | undefined;
  private api = '';
  listenPort = 0;

  async start(upstreamPort: number): Promise<void> {
    const binary = script('toxiproxy.sh', 'build');
    const apiPort = await freePort();
    this.listenPort = await freePort();
    this.server = spawn(binary, ['-host', '127.0.0.1', '-port', String(apiPort)], { stdio: 'ignore' });
    this.api = `http://127.0.0.1:${apiPort}`;
    for (let i = 0; i < 100 && !(await portAnswers(apiPort)); i++) await sleep(100);
    await this.call('POST', '/proxies', {
      name: 'engine',
      listen: `127.0.0.1:${this.listenPort}`,
      upstream: `127.0.0.1:${upstreamPort}`,
      enabled: true,
    });
  }

  private async call(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    const res = await request(this.api + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`toxiproxy ${method} ${path}: ${res.statusCode} ${text}`);
  }

  addToxic(name: string, type: string, stream: 'upstream' | 'downstream', attributes: Record<string, number>) {
    return this.call('POST', '/proxies/engine/toxics', { name, type, stream, toxicity: 1, attributes });
  }

  removeToxic(name: string) {
    return this.call('DELETE', `/proxies/engine/toxics/${name}`);
  }

  stop(): void {
    this.server?.kill('SIGTERM');
  }
}

/** A small ext4 file system, loop-mounted at `dir` (root only); a tmpfs of that size where loop devices fail. */
export function mountSmallFileSystem(dir: string, megabytes: number): () => void {
  const image = `${dir}.img`;
  try {
    execFileSync('truncate', ['-s', `${megabytes}M`, image]);
    execFileSync('mkfs.ext4', ['-q', '-F', image], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'loop', image, dir]);
  } catch {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  }
  return () => {
    execFileSync('umount', [dir]);
    execFileSync('rm', ['-f', image]);
  };
}
