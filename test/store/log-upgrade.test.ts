/**
 * The first start of a version with the transparency log on a store written before it
 * (docs/decisions/0066-log-order-and-integration.md): every revision already stored becomes an entry, by asset id and
 * `rev`, before any written after; the log then grows from there. The stores are copies of ones written by an
 * earlier version (fixtures/before-history/README.md): their first start also gives them their histories.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { BSON, MongoClient, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { databaseName } from '../../src/store/mongo/index.js';
import { createAsset } from '../helpers/fixtures.js';
import { readHistory } from '../helpers/history.js';
import { servedEntries, vkeyOf, waitForLogIndexes, waitForLogSize } from '../helpers/log.js';
import { serverForThisTest, uniqueMongoUri, useScratch, type Settings } from '../helpers/server.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/before-history/', import.meta.url));
const mongoUri = process.env.MONGODB_URI;
const scratch = useScratch();

async function expectLogFromStoredRevisions(settings: Settings, ids: string[]): Promise<void> {
  const server = await serverForThisTest(settings);
  const reader = server.anonymous;
  const vkey = await vkeyOf(reader);
  await waitForLogSize(reader, vkey, ids.length);
  const entries = (await servedEntries(reader, ids.length)).map((entry) => JSON.parse(entry.toString('utf8')));
  expect(entries.map(({ asset, rev }) => `${asset}/${rev}`)).toEqual(ids.map((id) => `${id}/1`));
  await waitForLogIndexes(reader, ids);
  const { id } = await createAsset(server.broker);
  await waitForLogIndexes(reader, [id]);
  expect((await readHistory(reader, id))[0]!.logIndex).toBe(ids.length);
}

describe('a store written before the log', () => {
  it.runIf(mongoUri === undefined)('embedded: its revisions are the first entries, by asset id', async () => {
    const dataDir = await scratch.dir('registry-log-upgrade-');
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(join(FIXTURES, 'registry.sqlite'), join(dataDir, 'registry.sqlite'));
    const db = new Database(join(dataDir, 'registry.sqlite'), { readonly: true });
    const ids = db.prepare<[], string>('SELECT id FROM assets ORDER BY id').pluck().all();
    db.close();
    expect(ids.length).toBeGreaterThan(0);
    await expectLogFromStoredRevisions({ DATA_DIR: dataDir }, ids);
  });

  it.runIf(mongoUri !== undefined)('mongo: its revisions are the first entries, by asset id', async () => {
    const dump = BSON.EJSON.parse(readFileSync(join(FIXTURES, 'mongo.json'), 'utf8'), { relaxed: false }) as Record<
      string,
      Document[]
    >;
    const ids = dump.assets!.map((doc) => doc._id as string).sort();
    const uri = uniqueMongoUri(mongoUri!);
    const client = new MongoClient(uri);
    try {
      const db = client.db(databaseName(uri));
      for (const [name, docs] of Object.entries(dump)) await db.collection(name).insertMany(docs);
    } finally {
      await client.close();
    }
    try {
      await expectLogFromStoredRevisions({ MONGODB_URI: uri }, ids);
    } finally {
      const { dropMongoDatabase } = await import('../helpers/server.js');
      await dropMongoDatabase(uri);
    }
  });
});
