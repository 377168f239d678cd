/**
 * How many silent connections a registry node with 1,024 file descriptors survives while a normal client is still
 * served (docs/decisions/0042-connection-bounds.md). The node runs as a child process under `ulimit -n 1024` with the default settings
 * (MAX_CONNECTIONS_PER_CLIENT 256, REQUEST_TIMEOUT 30 s, longer than the whole run). Attackers open connections
 * that never send a byte, in steps, from one loopback address and then from many (127.0.0.2, .3, …, each up to
 * the cap and beyond); after every step a normal client on 127.0.0.1 makes a fresh connection and reads the
 * listing.
 *
 *   npm run bench:silent-connections -- [--max 3000] [--step 64] [--fd-limit 1024] [--settle 300]
 *
 * Prints one JSON line per step and a summary: the silent connections the node held when the normal client was
 * last served, when (if ever) it first failed, and whether it is served again once the attacker lets go.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { freePort } from './ports.js';

const { values } = parseArgs({
  options: {
    max: { type: 'string', default: '3000' },
    step: { type: 'string', default: '64' },
    'fd-limit': { type: 'string', default: '1024' },
    settle: { type: 'string', default: '300' },
  },
});
const MAX = Number(values.max);
const STEP = Number(values.step);
const FD_LIMIT = Number(values['fd-limit']);
/** Milliseconds between a step and the count: connections beyond the cap are closed at once (within 1 s by rule). */
const SETTLE = Number(values.settle);
const CAP = 256;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startNode(port: number, dataDir: string): Promise<() => Promise<void>> {
  const child = spawn('bash', ['-c', `ulimit -n ${FD_LIMIT} && exec node --import tsx src/server.ts`], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MONGODB_URI: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 200; i++) {
    if (await served(port)) {
      return async () => {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (stderr.trim() !== '') process.stderr.write(`node stderr:\n${stderr.slice(-2000)}\n`);
      };
    }
    if (child.exitCode !== null) throw new Error(`the node exited at start: ${stderr}`);
    await sleep(100);
  }
  throw new Error('the node did not start');
}

/** Whether a normal client, on a fresh connection from 127.0.0.1, reads the listing (200) within 5 s. */
async function served(port: number): Promise<boolean> {
  try {
    const res = await request(`http://127.0.0.1:${port}/api/0.1/assets?limit=1`, {
      headers: { connection: 'close' },
      headersTimeout: 5000,
      bodyTimeout: 5000,
    });
    await res.body.text();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** A connection that sends nothing, from `localAddress`; resolves once connected (or refused). */
function silentConnection(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.on('error', () => undefined);
    // Read what the node sends (a 408 once REQUEST_TIMEOUT is past), so that its close is seen here.
    socket.resume();
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

async function scenario(
  name: string,
  port: number,
  addresses: (index: number) => string,
): Promise<Record<string, unknown>> {
  const sockets: Socket[] = [];
  let lastServedAt: number | undefined;
  let firstFailedAt: number | undefined;
  let heldWhenLastServed = 0;
  for (let opened = 0; opened < MAX; ) {
    const batch = await Promise.all(
      Array.from({ length: STEP }, (_, i) => silentConnection(port, addresses(opened + i))),
    );
    sockets.push(...batch);
    opened += STEP;
    await sleep(SETTLE);
    const held = sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open').length;
    const ok = await served(port);
    process.stdout.write(`${JSON.stringify({ scenario: name, opened, held, normalClientServed: ok })}\n`);
    if (ok) {
      lastServedAt = opened;
      heldWhenLastServed = held;
    } else {
      firstFailedAt ??= opened;
      break;
    }
  }
  for (const socket of sockets) socket.destroy();
  await sleep(500);
  // Once the attacker lets go, the node serves again (it did not fall over when it ran out of descriptors).
  const servedAfterwards = await served(port);
  return {
    scenario: name,
    opened: lastServedAt,
    heldWhenLastServed,
    normalClientFirstFailedAt: firstFailedAt ?? null,
    servedAfterwards,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'registry-silent-'));
const port = await freePort();
const stop = await startNode(port, dataDir);
process.once('SIGINT', () => void stop().then(() => process.exit(130)));
try {
  const results = [
    await scenario('one address', port, () => '127.0.0.2'),
    await scenario(
      'many addresses',
      port,
      (index) => `127.0.${1 + Math.floor(index / CAP / 250)}.${2 + (Math.floor(index / CAP) % 250)}`,
    ),
  ];
  process.stdout.write(`${JSON.stringify({ fdLimit: FD_LIMIT, maxConnectionsPerClient: CAP, results })}\n`);
} finally {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
}
