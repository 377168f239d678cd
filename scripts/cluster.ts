/**
 * `npm run cluster`: N registry nodes on one store behind HAProxy, on loopback, for trying the cluster mode.
 *
 *   npm run cluster -- [--nodes 2] [--port 8080] [--node-port 6601] [--data-dir ./data] [--haproxy PATH]
 *
 * Each node is `node --import tsx src/server.ts` with PORT = node-port + i, SERVER_ID = node1, node2, …, one
 * COOKIE_SECRET for all (COOKIE_SECRET from the environment, or a random one), the same DATA_DIR (or
 * MONGODB_URI, when set), TRUST_PROXY = 127.0.0.1 (the balancer), PUBLIC_URL = the balancer's address (a node
 * refuses a Host port other than its own without it) and MAX_CONNECTIONS_PER_CLIENT = 4096 (the
 * balancer's connections all come from one address). Other settings (REDIS_URL,
 * RATE_LIMIT_MAX, LOG_LEVEL, …) pass through from the environment. The balancer's configuration is
 * deploy/haproxy.cfg's, made for these nodes by `haproxyConfig` below. Ctrl-C stops everything.
 *
 * Tests use `startCluster` directly (test/cluster/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'node:http';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const HEALTH_PATH = '/api/0.1/health';

export interface NodeAddress {
  /** SERVER_ID of the node, also its server name in HAProxy. */
  name: string;
  host: string;
  port: number;
}

export interface HaproxyOptions {
  nodes: NodeAddress[];
  /** Where the balancer listens: `127.0.0.1:8080`, `:80`, … */
  bind: string;
  /** Log each request to stderr (for trying it by hand). */
  log?: boolean;
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * The HAProxy configuration for a set of nodes. It routes a request to the node named in its SERVER_ID cookie
 * (the value up to its last two dot-separated fields: `node1.<start>.<signature>` → `node1`, read without the
 * secret), balances requests without a (known) cookie round robin, and sends a client whose node is down to a
 * live one, which answers 412 with its own cookie; the client repeats the request and sticks there.
 */
export function haproxyConfig({ nodes, bind, log = false }: HaproxyOptions): string {
  if (nodes.length === 0) throw new Error('haproxyConfig: no nodes');
  for (const node of nodes) {
    if (!NAME.test(node.name)) throw new Error(`haproxyConfig: node name not usable in the cookie: ${node.name}`);
  }
  const lines = [
    '# HAProxy in front of the claimrights registry nodes, sticky by the SERVER_ID cookie (deploy/README.md).',
    '# Made by haproxyConfig in scripts/cluster.ts: `npm run cluster` writes one for its nodes, and',
    '# deploy/haproxy.cfg is the example for three machines.',
    'global',
    '    maxconn 4096',
    ...(log ? ['    log stderr format raw local0 info'] : []),
    '',
    'defaults',
    '    mode http',
    ...(log ? ['    log global', '    option httplog'] : []),
    '    timeout connect 2s',
    '    timeout client 60s',
    '    timeout server 60s',
    '    timeout http-request 10s',
    '    timeout http-keep-alive 10s',
    '    # Retry, the last time on another node (which answers 412 with its own cookie to a write, or serves a',
    '    # read), when a node refuses the connection (down, not yet seen by the checks), answers 503 (shutting down:',
    '    # the request was not carried out), or closes a kept-alive connection just as a request was sent on it',
    '    # (a stopping node closes its idle connections; it never closes one whose request it has read). Without',
    '    # empty-response that client connection is cut (test/cluster/rolling-restart.test.ts). A node that',
    '    # crashes while it handles a request also ends it with an empty response: that request is sent again.',
    '    retries 2',
    '    retry-on conn-failure empty-response 503',
    '    option redispatch',
    '',
    'frontend registry',
    `    bind ${bind}`,
    '    # The nodes (TRUST_PROXY = this balancer) take the client address from X-Forwarded-For: only ours counts.',
    '    http-request del-header X-Forwarded-For',
    '    option forwardfor',
    '    default_backend registry_nodes',
    '',
    'backend registry_nodes',
    '    balance roundrobin',
    '    # The nodes answer only to their own hosts (docs/decisions/0043-hosts-and-public-url.md): the check names localhost.',
    '    option httpchk',
    `    http-check send meth GET uri ${HEALTH_PATH} ver HTTP/1.1 hdr Host localhost`,
    '    http-check expect status 200',
    '    # The node named in the SERVER_ID cookie: its value up to the last two dot-separated fields.',
    '    http-request set-var(txn.node) req.cook(SERVER_ID),regsub([.][^.]*[.][^.]*$,)',
    ...nodes.map((n) => `    use-server ${n.name} if { var(txn.node) -m str ${n.name} }`),
    '    # A use-server whose node is down is skipped: round robin picks a live node.',
    '    default-server check inter 1s fall 2 rise 2',
    '    # A node busy for a moment (the only one up while the other restarts) stays in; a stopped node refuses',
    '    # the check at once, so this does not delay noticing it.',
    '    timeout check 3s',
    ...nodes.map((n) => `    server ${n.name} ${n.host}:${n.port}`),
    '',
  ];
  return lines.join('\n');
}

/** The haproxy binary: `HAPROXY`, then the PATH, then Debian's /usr/sbin; undefined when none is installed. */
export function findHaproxy(explicit = process.env.HAPROXY): string | undefined {
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin']) {
    if (dir && existsSync(join(dir, 'haproxy'))) return join(dir, 'haproxy');
  }
  return undefined;
}

export interface ClusterOptions {
  nodes?: number;
  /** Balancer port (0: a free one). */
  port?: number;
  /** First node's port; the others follow (0: free ones). */
  nodePort?: number;
  host?: string;
  /** Shared embedded store folder; ignored when `env.MONGODB_URI` is set. */
  dataDir: string;
  /** Settings for every node (REDIS_URL, RATE_LIMIT_MAX, COOKIE_SECRET, MONGODB_URI, …), over the defaults. */
  env?: Record<string, string | undefined>;
  haproxy?: string;
  /** `inherit`: children's output prefixed on this process's; `buffer`: kept in `output()` (tests). */
  output?: 'inherit' | 'buffer';
  log?: boolean;
}

export interface ClusterNode extends NodeAddress {
  process: ChildProcess;
  /** Starts the node again (a new process: its earlier cookies are stale). */
  restart(): Promise<void>;
  /** SIGKILL, without a goodbye. */
  kill(): Promise<void>;
}

export interface Cluster {
  /** `http://127.0.0.1:<port>` of the balancer. */
  url: string;
  nodes: ClusterNode[];
  cookieSecret: string;
  config: string;
  output(): string;
  stop(): Promise<void>;
}

function freePort(host: string): Promise<number> {
  return import('node:net').then(
    ({ createServer }) =>
      new Promise<number>((resolvePort, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, host, () => {
          const address = server.address();
          server.close(() =>
            typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
          );
        });
      }),
  );
}

function healthy(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ host, port, path: HEALTH_PATH, method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => {
      req.destroy();
      done(false);
    });
    req.end();
  });
}

async function waitHealthy(what: string, host: string, port: number, child: ChildProcess, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before answering ${HEALTH_PATH}`);
    }
    if (await healthy(host, port)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not answer ${HEALTH_PATH} on ${host}:${port} within ${ms} ms`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

async function terminate(child: ChildProcess, ms = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited(child);
  clearTimeout(timer);
}

/** Creates the shared AUTH_FILE once, before the nodes start (they would race to create it). */
async function ensureKeys(authFile: string): Promise<string | undefined> {
  const { ensureAuthFile } = await import('../src/plugins/auth.js');
  return ensureAuthFile(authFile).createdText;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const host = options.host ?? '127.0.0.1';
  const count = options.nodes ?? 2;
  if (!Number.isInteger(count) || count < 1) throw new Error(`nodes must be a whole number ≥ 1, got ${count}`);
  const haproxy = options.haproxy ?? findHaproxy();
  if (!haproxy) throw new Error('haproxy is not installed (Debian: apt-get install haproxy), or set HAPROXY');
  const outputMode = options.output ?? 'inherit';
  let buffered = '';
  const emit = (prefix: string, chunk: Buffer | string) => {
    const text = chunk.toString();
    if (outputMode === 'buffer') buffered += text.replace(/^(?=.)/gm, `[${prefix}] `);
    else process.stdout.write(text.replace(/^(?=.)/gm, `[${prefix}] `));
  };

  const dataDir = resolve(options.dataDir);
  const env = { ...options.env };
  const cookieSecret = env.COOKIE_SECRET || randomBytes(32).toString('hex');
  const authFile = env.AUTH_FILE || join(dataDir, 'auth.ini');
  const createdKeys = await ensureKeys(authFile);
  if (createdKeys) emit('cluster', `Created ${authFile} with fresh API keys:\n${createdKeys}\n`);

  const nodePorts: number[] = [];
  for (let i = 0; i < count; i++) {
    nodePorts.push(options.nodePort ? options.nodePort + i : await freePort(host));
  }
  const port = options.port || (await freePort(host));

  const nodes: ClusterNode[] = [];
  const spawnNode = (name: string, nodePortNumber: number): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
        HOST: host,
        PORT: String(nodePortNumber),
        SERVER_ID: name,
        COOKIE_SECRET: cookieSecret,
        DATA_DIR: dataDir,
        AUTH_FILE: authFile,
        TRUST_PROXY: env.TRUST_PROXY ?? '127.0.0.1',
        // Clients name the balancer's port in Host (docs/decisions/0062-smaller-rules-of-round-two.md).
        PUBLIC_URL: env.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        // Every connection a node sees comes from the balancer's one address.
        MAX_CONNECTIONS_PER_CLIENT: env.MAX_CONNECTIONS_PER_CLIENT ?? '4096',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => emit(name, c));
    child.stderr?.on('data', (c: Buffer) => emit(name, c));
    return child;
  };

  const workDir = await mkdtemp(join(tmpdir(), 'registry-cluster-'));
  let balancer: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all([...nodes.map((n) => terminate(n.process)), ...(balancer ? [terminate(balancer)] : [])]);
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    for (let i = 0; i < count; i++) {
      const name = `node${i + 1}`;
      const node: ClusterNode = {
        name,
        host,
        port: nodePorts[i]!,
        process: spawnNode(name, nodePorts[i]!),
        async kill() {
          node.process.kill('SIGKILL');
          await exited(node.process);
        },
        async restart() {
          await terminate(node.process);
          node.process = spawnNode(name, node.port);
          await waitHealthy(name, host, node.port, node.process);
        },
      };
      nodes.push(node);
    }
    await Promise.all(nodes.map((n) => waitHealthy(n.name, host, n.port, n.process)));

    const config = haproxyConfig({ nodes, bind: `${host}:${port}`, log: options.log ?? false });
    const configFile = join(workDir, 'haproxy.cfg');
    await writeFile(configFile, config);
    balancer = spawn(haproxy, ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.stdout?.on('data', (c: Buffer) => emit('haproxy', c));
    balancer.stderr?.on('data', (c: Buffer) => emit('haproxy', c));
    await waitHealthy('haproxy', host, port, balancer, 15_000);

    return { url: `http://${host}:${port}`, nodes, cookieSecret, config, output: () => buffered, stop };
  } catch (error) {
    await stop();
    if (outputMode === 'buffer' && error instanceof Error) error.message += `\n--- cluster output ---\n${buffered}`;
    throw error;
  }
}

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') out.help = 'true';
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq !== -1) out[arg.slice(2, eq)] = arg.slice(eq + 1);
      else out[arg.slice(2)] = argv[++i] ?? '';
    } else throw new Error(`unexpected argument: ${arg}`);
  }
  return out;
}

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return n;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(
      'npm run cluster -- [--nodes 2] [--port 8080] [--node-port 6601] [--data-dir ./data] [--haproxy PATH]\n' +
        'Starts N registry nodes on one store behind HAProxy on 127.0.0.1; Ctrl-C stops them all.\n' +
        'Node settings (REDIS_URL, RATE_LIMIT_MAX, MONGODB_URI, COOKIE_SECRET, LOG_LEVEL, ...) come from the environment.\n',
    );
    return;
  }
  const cluster = await startCluster({
    nodes: whole('nodes', args.nodes, 2),
    port: whole('port', args.port, 8080),
    nodePort: whole('node-port', args['node-port'], 6601),
    dataDir: args['data-dir'] || process.env.DATA_DIR || './data',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    ...(args.haproxy ? { haproxy: args.haproxy } : {}),
    output: 'inherit',
    log: true,
  });
  process.stdout.write(
    `\nRegistry cluster: ${cluster.url}/api/0.1/assets\n` +
      cluster.nodes.map((n) => `  ${n.name}: http://${n.host}:${n.port} (pid ${n.process.pid})`).join('\n') +
      `\n  store: ${process.env.MONGODB_URI ? 'MongoDB (MONGODB_URI)' : resolve(args['data-dir'] || process.env.DATA_DIR || './data')}` +
      `\n  rate counters: ${process.env.REDIS_URL ? `Redis (${process.env.REDIS_URL})` : 'per node (set REDIS_URL to share them)'}` +
      '\nCtrl-C stops everything.\n\n',
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the cluster\n`);
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  for (const node of cluster.nodes) {
    node.process.once('exit', (code, signal) => {
      if (!stopping)
        process.stdout.write(
          `[cluster] ${node.name} exited (${code ?? signal}); the balancer sends its clients elsewhere\n`,
        );
    });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`cluster: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
