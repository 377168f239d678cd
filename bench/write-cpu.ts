/**
 * `npx tsx bench/write-cpu.ts [--writes N]`: the CPU one write costs inside the store, without HTTP: N creates, then
 * N updates (a title each, on the assets created), 50 at a time as the HTTP benchmark's connections send them,
 * through `openStore` on a fresh DATA_DIR (or a fresh database of MONGODB_URI). It prints the process's CPU time per
 * write, in µs, which a busy machine distorts far less than throughput. Where the code has the transparency log, its
 * integrator runs in the same process meanwhile (in a thread of its own where the node runs it so), so its work is
 * counted in the writes' cost. It needs nothing else,
 * so it runs unchanged on versions of the code from before the log (how the log's cost per write was compared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changesBetween } from '../src/domain/history.js';
import { openStore } from '../src/store/index.js';
import type { AssetRecord, AssetStore, RecordDraft } from '../src/store/types.js';
import { BENCH_TZ, Seeder } from './data.js';
import { dropMongo } from './mongo.js';

const i = process.argv.indexOf('--writes');
const writes = i === -1 ? 20_000 : Number(process.argv[i + 1]);
const CONCURRENCY = 50;

/** The log's integrator on this store, where the code has one. */
async function startIntegrator(store: AssetStore, dataDir: string): Promise<{ stop(): Promise<void> } | undefined> {
  const load = () =>
    Promise.all([
      import('../src/services/log/integrator.js'),
      import('../src/services/log/identity.js'),
      import('../src/services/signing.js'),
    ]);
  let modules: Awaited<ReturnType<typeof load>>;
  try {
    modules = await load();
  } catch {
    return undefined;
  }
  const [{ LogIntegrator }, { logIdentity }, { ensureSigningKey }] = modules;
  const key = ensureSigningKey(join(dataDir, 'log.key')).key;
  const quiet = { error: () => undefined, info: () => undefined };
  const identity = logIdentity(key, { origin: undefined, publicUrl: undefined });
  // As the node runs it: in a thread of its own where the store names its log's source.
  const source = (store as { logSource?: unknown }).logSource;
  const thread = source === undefined ? undefined : await import('../src/services/log/integrator-thread.js');
  const integrator = thread
    ? new thread.IntegratorThread({ source: source as never, identity }, quiet)
    : new LogIntegrator(store.log, identity, quiet);
  await integrator.start();
  return integrator;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-write-cpu-'));
  const mongodbUri = process.env.MONGODB_URI
    ? process.env.MONGODB_URI.replace(/\/[^/?]*(\?|$)/, `/write_cpu_${Date.now()}$1`)
    : undefined;
  // No deadline on a store call: a starved process (callgrind, a busy machine) must measure, not refuse.
  const store = await openStore({ dataDir, mongodbUri, timeZone: BENCH_TZ, requestTimeoutMs: 24 * 3_600_000 });
  const integrator = await startIntegrator(store, dataDir);
  const template = new Seeder(Date.now() * 1000).records(0, 1)[0]!;
  const created: AssetRecord[] = [];
  const draftOf = (now: number, id: string, title: string): RecordDraft => ({
    ...template,
    id,
    modified: now,
    asset: { ...template.asset, id, title, dateModified: new Date(now / 1000).toISOString() },
  });
  async function inParallel(count: number, one: (n: number) => Promise<void>): Promise<number> {
    const before = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) await one(next++);
      }),
    );
    const used = process.cpuUsage(before);
    return Math.round((used.user + used.system) / count);
  }
  try {
    const createUs = await inParallel(writes, async (n) => {
      const id = `${n.toString(16).padStart(8, '0')}${'0'.repeat(24)}`;
      created.push(
        await store.create((stamp) => {
          const record = draftOf(stamp.now, id, 'created');
          return { record, revision: { author: 'broker', changes: changesBetween({}, record.asset) } };
        }),
      );
    });
    const updateUs = await inParallel(created.length, async (n) => {
      const before = created[n]!;
      const result = await store.update(before.id, before.rev, (stamp) => {
        const record = draftOf(stamp.now, before.id, `title ${n}`);
        return { record, revision: { author: 'broker', changes: changesBetween(before.asset, record.asset) } };
      });
      if (result === 'conflict') throw new Error('an update lost its compare-and-set');
    });
    const log = integrator === undefined ? 'none' : 'integrated in the same process';
    process.stdout.write(
      `${JSON.stringify({ store: mongodbUri ? 'mongodb' : 'sqlite', log, writes, cpuMicrosPerCreate: createUs, cpuMicrosPerUpdate: updateUs })}\n`,
    );
  } finally {
    await integrator?.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (mongodbUri) await dropMongo(mongodbUri);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
