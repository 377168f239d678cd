/**
 * The MongoDB store's listing page at 10,000 and 100,000 assets, at the store level (`store.list`, no HTTP), against
 * its target (docs/performance-mongodb.md).
 *
 *   MONGODB_URI=mongodb://127.0.0.1:27117/ npx tsx bench/mongo-listing.ts
 *   … -- --before ../before      the same pages also read by the store of another checkout (its src/store/mongo/index.ts,
 *                                or src/store/mongo.ts in a checkout from before the store was split)
 *
 * Options: --sizes 10000,100000, --reads N (50 per page, size and store), --budget S (seconds per page, size and
 * store: a store whose page takes seconds reads it fewer times; the count is printed), --before DIR.
 *
 * A fresh database, seeded through `store.bulkInsert` (bench/data.ts: one asset a millisecond, all listed
 * and real), dropped at the end. Pages of 100, read one at a time: the first page (ascending from the start), a
 * middle page (ascending after the middle asset) and the last page (descending from the end). Prints the median
 * and the slowest read (a store's first read of a page has learned nothing) of each; writes nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { nowMicros } from '../src/domain/dates.js';
import { databaseName, openMongoStore } from '../src/store/mongo/index.js';
import type { AssetStore, ListQuery } from '../src/store/types.js';
import { BENCH_TZ, Seeder } from './data.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const baseUri = process.env.MONGODB_URI;
if (!baseUri) throw new Error('MONGODB_URI is not set (bash scripts/ferretdb.sh start prints one)');
const sizes = (option('sizes') ?? '10000,100000').split(',').map(Number);
const reads = Number(option('reads') ?? 50);
const budgetMs = Number(option('budget') ?? 20) * 1000;
const beforeDir = option('before');
const PAGE = 100;

const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(baseUri);
if (!match) throw new Error(`cannot read MONGODB_URI: ${baseUri}`);
const uri = `${match[1]}/listing_bench_${process.pid}_${randomBytes(3).toString('hex')}${match[2] ?? ''}`;

const stores: [string, AssetStore][] = [['now', await openMongoStore({ uri, timeZone: BENCH_TZ })]];
if (beforeDir !== undefined) {
  const split = resolve(beforeDir, 'src/store/mongo/index.ts');
  const before = (await import(existsSync(split) ? split : resolve(beforeDir, 'src/store/mongo.ts'))) as {
    openMongoStore: typeof openMongoStore;
  };
  stores.push(['before', await before.openMongoStore({ uri, timeZone: BENCH_TZ })]);
}

const seeder = new Seeder(nowMicros() - 2 * 3600 * 1_000_000);
let seeded = 0;

/** Times `reads` reads of the page (or as many as fit the budget): median and slowest, ms. */
async function time(store: AssetStore, page: ListQuery): Promise<{ median: number; slowest: number; n: number }> {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < reads && (times.length === 0 || performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    const rows = await store.list(page);
    times.push(performance.now() - t0);
    if (rows.length !== PAGE) throw new Error(`a page of ${rows.length} rows, not ${PAGE}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, slowest: sorted.at(-1)!, n: times.length };
}

try {
  const medians = new Map<string, number>();
  for (const size of sizes) {
    const t0 = performance.now();
    for (; seeded < size; seeded = Math.min(size, seeded + 5000)) {
      await stores[0]![1].bulkInsert(seeder.records(seeded, Math.min(size, seeded + 5000)));
    }
    console.log(`${size.toLocaleString('en')} assets (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    const pages: [string, ListQuery][] = [
      ['first page', { descending: false, limit: PAGE, mode: 'real', fields: [] }],
      [
        'middle page',
        { after: seeder.modifiedOf(size >> 1), descending: false, limit: PAGE, mode: 'real', fields: [] },
      ],
      ['last page', { descending: true, limit: PAGE, mode: 'real', fields: [] }],
    ];
    for (const [name, page] of pages) {
      for (const [label, store] of stores) {
        const { median, slowest, n } = await time(store, page);
        const key = `${label} ${name}`;
        const ratio = medians.has(key) ? `, ${(median / medians.get(key)!).toFixed(2)}× the first size` : '';
        medians.set(key, medians.get(key) ?? median);
        const figures = `median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms (${n} reads${ratio})`;
        console.log(`  ${name.padEnd(11)} ${label.padEnd(6)} ${figures}`);
      }
    }
  }
} finally {
  for (const [, store] of stores) await store.close();
  const client = new MongoClient(uri);
  await client.db(databaseName(uri)).dropDatabase();
  await client.close();
}
