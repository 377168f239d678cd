/**
 * `npm run bench:history`: the time to read the first and the last page of an asset's history when it holds 10,000
 * revisions, against an asset with 10 (docs/decisions/0035-history-kept-beside-the-record.md: the same, whatever the history's length).
 *
 *   npm run bench:history                               10,000 revisions, 200 reads of each page (5 revisions a page)
 *   npm run bench:history -- --revisions 300 --reads 20 a quick try
 *
 * Options: --revisions N (10000), --reads N (200 per page and asset), --limit N (5, the page size, at most 10). MONGODB_URI
 * set: on MongoDB (a fresh database, dropped at the end) instead of SQLite.
 *
 * The two assets are seeded through the storage interface (`store.bulkInsert` with their histories: each revision
 * a title change), then the registry (this process, `buildApp` over the same store, listening on a free port) is
 * read over HTTP one request at a time, after a warm-up round: `?limit=L` (the first page) and `?offset=N-L&limit=L`
 * (the last page).
 * Prints the median and 95th percentile per asset and page, and the ratios long/short; writes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { request } from 'undici';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { formatDate, nowMicros } from '../src/domain/dates.js';
import { changesBetween, type Revision } from '../src/domain/history.js';
import { openStore } from '../src/store/index.js';
import { databaseName } from '../src/store/mongo/index.js';
import type { BulkRecord } from '../src/store/types.js';
import { AUTH_INI, BENCH_TZ, Seeder } from './data.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number from 1`);
  return value;
}

const revisions = option('revisions', 10_000);
const reads = option('reads', 200);
const SHORT = 10;
/**
 * Pages of the same size on both assets, half the short one's history: the first pages both hold revision 1 (the
 * whole asset), the last pages only title changes.
 */
const limit = Math.min(option('limit', SHORT / 2), SHORT);

/** A seeded asset whose history is `count` revisions: the seeded asset, then a new title each. */
function withHistory(seeder: Seeder, sequence: number, count: number): BulkRecord {
  const [record] = seeder.records(sequence, sequence + 1);
  const base = record!;
  const history: Revision[] = [];
  let before = {};
  let asset = base.asset;
  for (let rev = 1; rev <= count; rev++) {
    const modified = base.modified + rev - 1;
    asset =
      rev === 1
        ? asset
        : { ...asset, title: `${String(base.asset.title)} (${rev})`, dateModified: formatDate(modified, BENCH_TZ) };
    history.push({ rev, date: String(asset.dateModified), author: 'broker', changes: changesBetween(before, asset) });
    before = asset;
  }
  return { ...base, modified: base.modified + count - 1, asset, history };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function timeReads(url: string): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < reads; i++) {
    const started = performance.now();
    const res = await request(url);
    const body = (await res.body.json()) as { data?: unknown[] };
    times.push(performance.now() - started);
    if (res.statusCode !== 200 || !body.data?.length)
      throw new Error(`${url}: ${res.statusCode} ${JSON.stringify(body).slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-bench-history-'));
  const authFile = join(dataDir, 'auth.ini');
  writeFileSync(authFile, AUTH_INI);
  const mongodbUri = process.env.MONGODB_URI
    ? `${process.env.MONGODB_URI.replace(/\/[^/?]*(\?|$)/, `/bench_history_${process.pid}$1`)}`
    : undefined;
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      AUTH_FILE: authFile,
      TZ: BENCH_TZ,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      ...(mongodbUri ? { MONGODB_URI: mongodbUri } : {}),
    },
    [],
  );
  const store = await openStore({ ...config.store, timeZone: config.timeZone });
  const app = await buildApp({ config, store });
  try {
    const seeder = new Seeder(nowMicros() - 3_600_000_000);
    const long = withHistory(seeder, 0, revisions);
    const short = withHistory(new Seeder(long.modified + 1000), 0, SHORT);
    const seeding = performance.now();
    await store.bulkInsert([long, short]);
    console.log(
      `seeded ${revisions} + ${SHORT} revisions in ${Math.round(performance.now() - seeding)} ms (${mongodbUri ? 'MongoDB' : 'embedded'})`,
    );
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const pages: Record<string, string> = {};
    for (const [name, record, count] of [
      ['long', long, revisions],
      ['short', short, SHORT],
    ] as const) {
      const path = `${address}/api/0.1/assets/${record.id}/revisions`;
      pages[`${name} first`] = `${path}?limit=${limit}`;
      pages[`${name} last`] = `${path}?offset=${count - limit}&limit=${limit}`;
    }
    // Warm-up (JIT, caches) on every page before any is timed, so that none pays for going first.
    for (const url of Object.values(pages)) await timeReads(url);
    const results: Record<string, { median: number; p95: number }> = {};
    for (const [page, url] of Object.entries(pages)) results[page] = await timeReads(url);
    for (const [page, { median, p95 }] of Object.entries(results)) {
      console.log(`${page.padEnd(12)} median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`);
    }
    const ratio = (a: string, b: string) => Number((results[a]!.median / results[b]!.median).toFixed(2));
    console.log(
      JSON.stringify({
        revisions,
        reads,
        limit,
        firstPageLongOverShort: ratio('long first', 'short first'),
        lastPageLongOverShort: ratio('long last', 'short last'),
      }),
    );
  } finally {
    await app.close();
    await store.close();
    if (mongodbUri) {
      const client = new MongoClient(mongodbUri);
      await client.db(databaseName(mongodbUri)).dropDatabase();
      await client.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
