/**
 * `npm run mirror -- --log-vkey KEY` (docs/decisions/0069-mirrors-verify-the-log.md): the mirror verifies every
 * checkpoint of the registry's transparency log with the key it was given and against the last one it verified, and
 * stops with exit 3, naming both tree sizes, when the registry serves a rolled-back or a forked history (its store
 * replaced by an older copy, or by a copy that went on differently, on the same address and with the same key).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/client.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { checkpointOf, otherKey, vkeyOf, waitForLogSize } from '../helpers/log.js';
import { parseVerifierKey } from '../../src/domain/log/note.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { copyStore } from '../log/fixtures.js';
import { killAllChildren, prepareStore, startChild, type ChildServer } from '../reliability/fixtures/child-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Mirror {
  exited: Promise<number | null>;
  log(): string;
  stop(): Promise<number | null>;
}

function startMirror(from: string, folder: string, vkey: string): Mirror {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'mirror',
      '--from',
      from,
      '--to',
      folder,
      '--poll-ms',
      '200',
      '--log-vkey',
      vkey,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    exited,
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Resolves with the mirror's exit code, or fails with its log after `ms`. */
async function exitOf(mirror: Mirror, ms = 20_000): Promise<number | null> {
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms));
  const code = await Promise.race([mirror.exited, timeout]);
  if (code === 'timeout') throw new Error(`the mirror did not stop:\n${mirror.log()}`);
  return code;
}

async function writeAssets(url: string, count: number): Promise<void> {
  const broker = new Client(url, { key: KEYS.broker });
  for (let n = 0; n < count; n++) {
    const { id, token } = await createAsset(broker);
    await toPending(broker, id, token);
  }
}

/** Waits until the mirror's state keeps a checkpoint of at least `size` entries. */
async function keptSize(folder: string, size: number, mirror: Mirror): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const state = JSON.parse(readFileSync(join(folder, '.mirror-state.json'), 'utf8'));
      if ((state.log?.size ?? -1) >= size) return state.log.size;
    } catch {
      // Not written yet.
    }
    if (Date.now() > deadline) throw new Error(`the mirror kept no checkpoint of ${size} entries:\n${mirror.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm run mirror -- --log-vkey', () => {
  const scratch = useScratch();
  afterAll(() => killAllChildren());

  /** A registry that wrote `count` assets, stopped, its store copied, and started again on the same port. */
  async function registryWithCopy(count: number) {
    const store = await prepareStore(scratch);
    let node: ChildServer = await startChild(store);
    await writeAssets(node.url, count);
    const vkey = await vkeyOf(new Client(node.url));
    const before = await waitForLogSize(new Client(node.url), vkey, count * 2);
    await node.stop();
    const copy = await copyStore(store, scratch);
    const port = Number(new URL(node.url).port);
    node = await startChild(store, { port });
    return { store, copy, port, vkey, before, node };
  }

  it('refuses a wrong key at once: exit 3', async () => {
    const { node } = await registryWithCopy(1);
    const other = otherKey(parseVerifierKey(await vkeyOf(new Client(node.url)))!.name);
    const mirror = startMirror(node.url, await scratch.dir('mirror-'), other);
    expect(await exitOf(mirror)).toBe(3);
    expect(mirror.log()).toMatch(/the checkpoint of size \d+ does not verify with the log's key/);
    await node.stop();
  }, 120_000);

  it('stops with exit 3, naming both sizes, when the registry serves a rolled-back history', async () => {
    const { copy, port, vkey, before, node } = await registryWithCopy(2);
    await writeAssets(node.url, 2);
    const after = await waitForLogSize(new Client(node.url), vkey, before.size + 4);
    const folder = await scratch.dir('mirror-');
    const mirror = startMirror(node.url, folder, vkey);
    expect(await keptSize(folder, after.size, mirror)).toBe(after.size);
    await node.stop();
    const older = await startChild(copy, { port });
    expect((await checkpointOf(new Client(older.url), vkey)).size).toBe(before.size);
    expect(await exitOf(mirror)).toBe(3);
    expect(mirror.log()).toContain(`the log went back from size ${after.size} to size ${before.size}`);
    await older.stop();
  }, 120_000);

  it('stops with exit 3, naming both sizes, when the registry serves a forked history', async () => {
    const { copy, port, vkey, before, node } = await registryWithCopy(2);
    await writeAssets(node.url, 1);
    const after = await waitForLogSize(new Client(node.url), vkey, before.size + 2);
    const folder = await scratch.dir('mirror-');
    const mirror = startMirror(node.url, folder, vkey);
    expect(await keptSize(folder, after.size, mirror)).toBe(after.size);
    await node.stop();
    // The copy goes on with other writes, past the size the mirror verified, signed with the same key, before it
    // answers at the mirror's address: the mirror's first look at it is a larger tree, not an older one.
    const growing = await startChild(copy);
    await writeAssets(growing.url, 3);
    const forked = await waitForLogSize(new Client(growing.url), vkey, after.size + 1);
    await growing.stop();
    const fork = await startChild(copy, { port });
    expect(await exitOf(mirror)).toBe(3);
    expect(mirror.log()).toMatch(
      new RegExp(`the log at size \\d+ is not consistent with the checkpoint of size ${after.size} verified before`),
    );
    expect(forked.size).toBeGreaterThan(after.size);
    await fork.stop();
  }, 120_000);
});
