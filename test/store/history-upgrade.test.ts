/**
 * The first start of a version with history on a store written before it (docs/decisions/0037-start-up-upgrades.md):
 * every asset gets one revision holding it as it stands (`rev` 1, `author` its owner, `date` its `dateModified`),
 * once; a start cut short goes on where it stopped. The stores are copies of ones written by the previous version
 * (fixtures/before-history/README.md).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { BSON, MongoClient, type Document } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { assetAfter, changesBetween } from '../../src/domain/history.js';
import type { JsonObject } from '../../src/domain/json.js';
import { openEmbeddedStore } from '../../src/store/sqlite/index.js';
import { databaseName, openMongoStore } from '../../src/store/mongo/index.js';
import type { AssetStore } from '../../src/store/types.js';
import { dropMongoDatabase, uniqueMongoUri } from '../helpers/server.js';
import { DRAFT_ZONE, draftAt, written } from './fixtures/drafts.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/before-history/', import.meta.url));
const OPENER = fileURLToPath(new URL('./fixtures/open-embedded.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'registry-history-upgrade-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let dirs = 0;
/** A DATA_DIR holding a copy of the embedded store the previous version wrote. */
function embeddedCopy(): string {
  const dataDir = join(scratch, `store-${++dirs}`);
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(join(FIXTURES, 'registry.sqlite'), join(dataDir, 'registry.sqlite'));
  return dataDir;
}

/** The assets a store holds, read with its own `get` (ids from the previous version's file or dump). */
async function expectEveryAssetHasItsFirstRevision(store: AssetStore, ids: string[]): Promise<void> {
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) {
    const record = (await store.get(id))!;
    expect(record.revisions, id).toBe(1);
    const revisions = (await store.revisions(id, 0, 10))!;
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ rev: 1, author: record.asset.owner, date: record.asset.dateModified });
    expect(assetAfter(revisions)).toEqual(record.asset);
  }
}

describe('embedded: a file written before history', () => {
  const idsIn = (dataDir: string): string[] => {
    const db = new Database(join(dataDir, 'registry.sqlite'), { readonly: true });
    try {
      return db.prepare<[], string>('SELECT id FROM assets ORDER BY id').pluck().all();
    } finally {
      db.close();
    }
  };

  it('gives every asset revision 1 at the first start, once; the next write is revision 2', async () => {
    const dataDir = embeddedCopy();
    const ids = idsIn(dataDir);
    expect(ids).toHaveLength(3);
    let store = openEmbeddedStore({ dataDir, timeZone: DRAFT_ZONE });
    await expectEveryAssetHasItsFirstRevision(store, ids);
    const first = (await store.get(ids[0]!))!;
    const updated = await store.update(first.id, first.rev, (stamp) =>
      written(draftAt(stamp, { id: first.id }), first.asset),
    );
    expect(updated).toMatchObject({ revisions: 2 });
    await store.close();
    store = openEmbeddedStore({ dataDir, timeZone: DRAFT_ZONE });
    try {
      expect((await store.revisions(first.id, 0, 10))!.map((revision) => revision.rev)).toEqual([1, 2]);
      await expectEveryAssetHasItsFirstRevision(store, ids.slice(1));
    } finally {
      await store.close();
    }
  });

  it('a first start killed part way is finished by the next one: each asset ends with exactly one revision', async () => {
    const dataDir = embeddedCopy();
    const file = join(dataDir, 'registry.sqlite');
    // Many more assets of the same shape, so that the first start takes long enough to be killed part way.
    const db = new Database(file);
    const [template] = db
      .prepare<[], { doc: string; modified: number }>('SELECT doc, modified FROM assets LIMIT 1')
      .all();
    const insert = db.prepare(
      'INSERT INTO assets (id, rev, owner_token_hash, modified, listed, test, date_modified, doc) VALUES (?, 1, ?, ?, 1, 0, ?, ?)',
    );
    const count = 12_000;
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = i.toString(16).padStart(32, '0');
        const doc: JsonObject = { ...(JSON.parse(template!.doc) as JsonObject), id };
        insert.run(id, 'a'.repeat(64), template!.modified - 1 - i, doc.dateModified, JSON.stringify(doc));
      }
    })();
    db.close();

    const child = spawn(process.execPath, ['--import', 'tsx', OPENER, dataDir], { cwd: REPO_ROOT, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const watcher = new Database(file, { readonly: true, timeout: 10_000 });
    const given = () => {
      try {
        return watcher.prepare<[], number>('SELECT count(*) FROM revisions').pluck().get()!;
      } catch {
        return 0; // the table is made by the start's first transaction
      }
    };
    const deadline = Date.now() + 60_000;
    while (given() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
    child.kill('SIGKILL');
    await exited;
    const atKill = given();
    const version = watcher.pragma('user_version', { simple: true });
    watcher.close();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill, 'the start was killed before it finished').toBeLessThan(count + 3);
    expect(version).toBe(1);

    const store = openEmbeddedStore({ dataDir, timeZone: DRAFT_ZONE });
    try {
      const check = new Database(file, { readonly: true });
      const perAsset = check
        .prepare<[], { n: number; assets: number }>(
          'SELECT count(*) AS assets, (SELECT count(*) FROM revisions) AS n FROM assets WHERE revisions = 1',
        )
        .get()!;
      expect(perAsset).toEqual({ assets: count + 3, n: count + 3 });
      expect(
        check
          .prepare('SELECT count(*) FROM (SELECT asset_id FROM revisions GROUP BY asset_id HAVING count(*) <> 1)')
          .pluck()
          .get(),
      ).toBe(0);
      expect(check.pragma('user_version', { simple: true })).toBe(2);
      check.close();
      await expectEveryAssetHasItsFirstRevision(store, [...idsIn(dataDir).slice(0, 5), ...idsIn(dataDir).slice(-3)]);
    } finally {
      await store.close();
    }
  }, 120_000);
});

const mongoUri = process.env.MONGODB_URI;

describe.runIf(mongoUri !== undefined)('mongo: a database written before history', () => {
  const dump = BSON.EJSON.parse(readFileSync(join(FIXTURES, 'mongo.json'), 'utf8'), { relaxed: false }) as Record<
    string,
    Document[]
  >;
  const ids = dump.assets!.map((doc) => doc._id as string).sort();

  /** A fresh database holding the dump, handed to `test` before any store opened it; dropped after. */
  async function withDump(test: (uri: string, client: MongoClient) => Promise<void>): Promise<void> {
    const uri = uniqueMongoUri(mongoUri!);
    const client = new MongoClient(uri);
    try {
      const db = client.db(databaseName(uri));
      for (const [name, docs] of Object.entries(dump)) await db.collection(name).insertMany(docs);
      await test(uri, client);
    } finally {
      await client.close();
      await dropMongoDatabase(uri);
    }
  }

  it('gives every asset revision 1 at the first start, once; the next write is revision 2', async () => {
    await withDump(async (uri) => {
      let store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
      await expectEveryAssetHasItsFirstRevision(store, ids);
      const first = (await store.get(ids[0]!))!;
      expect(
        await store.update(first.id, first.rev, (stamp) => written(draftAt(stamp, { id: first.id }), first.asset)),
      ).toMatchObject({
        revisions: 2,
      });
      await store.close();
      store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
      try {
        expect((await store.revisions(first.id, 0, 10))!.map((revision) => revision.rev)).toEqual([1, 2]);
        await expectEveryAssetHasItsFirstRevision(store, ids.slice(1));
      } finally {
        await store.close();
      }
    });
  });

  it('a first start cut short is finished by the next one: each asset ends with exactly one revision', async () => {
    await withDump(async (uri, client) => {
      // What a start killed part way leaves: the first asset done (its revision copied, then the asset marked), the
      // second's revision copied but the asset not marked yet (killed between the two), the rest untouched, and no
      // marker. The revisions are the ones the start would have written.
      const db = client.db(databaseName(uri));
      const [done, copied] = ids;
      for (const id of [done!, copied!]) {
        const doc = (await db.collection('assets').findOne({ _id: id as never }))!;
        const revision = {
          rev: 1,
          date: doc.asset.dateModified,
          author: doc.asset.owner,
          changes: changesBetween({}, doc.asset as JsonObject),
        };
        await db.collection('revisions').insertOne({ _id: `${id}/1` as never, asset: id, ...revision });
        if (id === done) {
          await db.collection('assets').updateOne(
            { _id: id as never },
            {
              $set: {
                revisions: 1,
                latestRevision: { date: revision.date, author: revision.author, changes: revision.changes },
              },
            },
          );
        }
      }
      const store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
      try {
        await expectEveryAssetHasItsFirstRevision(store, ids);
        expect(await db.collection('revisions').countDocuments({})).toBe(ids.length);
        expect(await db.collection('counters').findOne({ _id: 'history' as never })).toMatchObject({ done: true });
      } finally {
        await store.close();
      }
    });
  });
});
