/**
 * `npm run bench:import -- [--assets 10000] [--revisions 20] [--page-size 500] [--from <CouchDB server URL>]`:
 * the import's rate (docs/decisions/0039-import-resumable-into-an-empty-store.md). Seeds a database with generated original-shaped assets (bench/original.ts:
 * hidden fields, plain owner tokens, SHA-512 transfer tokens, `revisions` as reverse patches), imports
 * it into a fresh store (a temporary DATA_DIR, or a fresh database on MONGODB_URI's server) and prints assets and
 * revisions per second and the store's size after it.
 *
 * Without `--from` the database is served by the in-memory CouchDB API of the tests (bench/couchdb.ts);
 * with it, a real CouchDB server (`http://admin:secret@127.0.0.1:5984/`) gets a database of its own, deleted after.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import nano from 'nano';
import { runImport } from '../src/services/import/run.js';
import { openCouchSource } from '../src/services/import/source.js';
import { openImportStore } from '../src/store/index.js';
import { startCouch } from './couchdb.js';
import { generateAssets, ORIGINAL_TZ } from './original.js';

const SEED_BATCH = 500;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
  return value;
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function mongoBytes(uri: string): Promise<number> {
  const client = new MongoClient(uri);
  try {
    const stats = await client.db().command({ dbStats: 1 });
    return Number(stats.storageSize ?? 0) + Number(stats.indexSize ?? 0);
  } finally {
    await client.close();
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const assets = option('assets', 10_000);
  const revisions = option('revisions', 20);
  const pageSize = option('page-size', 500);
  const fromIndex = process.argv.indexOf('--from');
  const given = fromIndex === -1 ? undefined : process.argv[fromIndex + 1];
  const local = given === undefined ? await startCouch() : undefined;
  const server = given ?? local!.url;
  const database = `bench_import_${randomBytes(4).toString('hex')}`;
  const couch = nano(server);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-import-'));
  const mongodbUri = process.env.MONGODB_URI
    ? process.env.MONGODB_URI.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/, `$1/${database}`)
    : undefined;
  try {
    await couch.db.create(database);
    const db = couch.use(database);
    const start = Date.UTC(2019, 0, 1) * 1000;
    for (let from = 0; from < assets; from += SEED_BATCH) {
      const docs = generateAssets(
        Math.min(SEED_BATCH, assets - from),
        revisions,
        start + from * revisions * 1000,
        from,
      );
      await db.bulk({ docs });
    }
    process.stderr.write(`seeded ${assets} assets × ${revisions} revisions into ${database}\n`);

    const store = await openImportStore({ dataDir, mongodbUri, timeZone: ORIGINAL_TZ });
    const source = await openCouchSource(`${server.replace(/\/?$/, '/')}${database}`);
    const began = performance.now();
    const result = await runImport({ store, source, timeZone: ORIGINAL_TZ, bodyLimit: 1024 * 1024, pageSize });
    const seconds = (performance.now() - began) / 1000;
    await store.close();
    const bytes = mongodbUri ? await mongoBytes(mongodbUri) : await folderBytes(dataDir);
    const imported = result.state.counts['assets imported'] ?? 0;
    process.stdout.write(
      `${mongodbUri ? 'MongoDB' : 'embedded'} store: ${imported} assets with ${revisions} revisions each in ${seconds.toFixed(1)} s: ` +
        `${Math.round(imported / seconds)} assets/s (${Math.round((imported * revisions) / seconds)} revisions/s); ` +
        `store size after it ${mib(bytes)}\n`,
    );
  } finally {
    await couch.db.destroy(database).catch(() => undefined);
    await local?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (mongodbUri) {
      const client = new MongoClient(mongodbUri);
      await client
        .db()
        .dropDatabase()
        .finally(() => client.close());
    }
  }
}

await main();
