/**
 * The MongoDB store: the shared contract suite, then what only MongoDB needs (indexes, several nodes sharing one
 * clock and counter, a feed reader racing writers). Runs when MONGODB_URI is set (`.ci/run` starts FerretDB 2 on
 * DocumentDB, scripts/ferretdb.sh); every database it makes is unique to this file's run and dropped afterwards.
 */
import { assetAfter } from '../../../src/domain/history.js';
import { randomBytes } from 'node:crypto';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { nowMicros } from '../../../src/domain/dates.js';
import { openMongoImportStore } from '../../../src/store/mongo/import.js';
import { databaseName, LEASE_MS, openMongoStore } from '../../../src/store/mongo/index.js';
import { StoreBusyError, type AssetRecord, type AssetStore, type ListQuery } from '../../../src/store/types.js';
import { describeStoreContract, waitFor } from '../contract.js';
import { describeImportStoreContract } from '../import-contract.js';
import { describeFileStoreContract } from '../files-contract.js';
import { DRAFT_ZONE, draftAt, written } from '../fixtures/drafts.js';
import { mongoServerInfo } from '../../helpers/mongo-server.js';

const BASE_URI = process.env.MONGODB_URI;
const RUN = `t${process.pid}_${randomBytes(3).toString('hex')}`;
let databases = 0;

/** The URI with another database in its path. */
function withDatabase(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`cannot read MONGODB_URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}

function freshDatabase(): string {
  return `${RUN}_${++databases}`;
}

async function dropDatabase(uri: string): Promise<void> {
  const client = new MongoClient(uri);
  try {
    await client.db(databaseName(uri)).dropDatabase();
  } finally {
    await client.close();
  }
}

/** A store on its own database; closing it drops the database. */
async function openFresh(name = freshDatabase()) {
  const uri = withDatabase(BASE_URI!, name);
  const store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
  const close = store.close.bind(store);
  return Object.assign(store, {
    uri,
    close: async () => {
      await close();
      await dropDatabase(uri);
    },
  });
}

describe('databaseName', () => {
  it('is the path of the URI, registry when none', () => {
    expect(databaseName('mongodb://127.0.0.1:27017/claims?replicaSet=rs0')).toBe('claims');
    expect(databaseName('mongodb://a:1,b:2/reg')).toBe('reg');
    expect(databaseName('mongodb://127.0.0.1:27017')).toBe('registry');
    expect(databaseName('mongodb://127.0.0.1:27017/')).toBe('registry');
    expect(databaseName('mongodb://127.0.0.1:27017/?replicaSet=rs0')).toBe('registry');
    expect(databaseName('mongodb+srv://user:pw@cluster.example/prod?retryWrites=true')).toBe('prod');
  });
});

if (!BASE_URI) {
  describe.skip('MongoDB store: MONGODB_URI not set (start one with scripts/ferretdb.sh start)', () => {
    it('runs the store contract and the MongoDB tests against a real server', () => {});
  });
} else {
  const server = await mongoServerInfo(BASE_URI);

  afterAll(async () => {
    // Databases of tests that failed half-way.
    const client = new MongoClient(BASE_URI);
    try {
      const { databases: all } = await client.db('admin').admin().listDatabases({ nameOnly: true });
      for (const { name } of all) if (name.startsWith(`${RUN}_`)) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });

  describeStoreContract(`mongo (${server.version})`, () => openFresh());
  describeImportStoreContract(`mongo (${server.version})`, async () => {
    const store = await openFresh();
    return { store, imports: await openMongoImportStore({ uri: store.uri, timeZone: DRAFT_ZONE }) };
  });
  describeFileStoreContract(`mongo GridFS (${server.version})`, async () => {
    const store = await openFresh();
    return { files: store.files, close: () => store.close() };
  });

  describe('MongoDB store: files in GridFS', () => {
    it('keeps them in the bucket `files` of the registry database, and nothing of a refused upload', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        const db = client.db(databaseName(store.uri));
        const kept = 'a1'.padEnd(32, '0');
        const refused = 'b2'.padEnd(32, '0');
        await store.files.put({ key: kept, contentType: 'text/plain', filename: 'a.txt', maxBytes: 300_000 }, [
          Buffer.alloc(200_000, 1),
          Buffer.alloc(100_000, 2),
        ]);
        await expect(
          store.files.put({ key: refused, contentType: 'text/plain', filename: 'b.txt', maxBytes: 300_000 }, [
            Buffer.alloc(300_000, 1),
            Buffer.alloc(1, 2),
          ]),
        ).rejects.toThrow('larger than 300000 bytes');
        const entries = await db.collection('files.files').find({}).toArray();
        expect(entries.map((entry) => entry._id)).toEqual([kept]);
        expect(entries[0]).toMatchObject({
          length: 300_000,
          metadata: { contentType: 'text/plain', filename: 'a.txt' },
        });
        expect(await db.collection('files.chunks').countDocuments({ files_id: refused })).toBe(0);
        expect(await db.collection('files.chunks').countDocuments({ files_id: kept })).toBeGreaterThan(0);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('shows no file whose entry has no MD5 yet (an upload cut short before it was published)', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        const key = 'c3'.padEnd(32, '0');
        await store.files.put({ key, contentType: 'text/plain', filename: 'c.txt', maxBytes: 100 }, [
          Buffer.from('hello'),
        ]);
        await client
          .db(databaseName(store.uri))
          .collection('files.files')
          .updateOne({ _id: key as never }, { $unset: { 'metadata.md5': '' } });
        expect(await store.files.stat(key)).toBeUndefined();
      } finally {
        await client.close();
        await store.close();
      }
    });
  });

  const all = (overrides: Partial<ListQuery> = {}): ListQuery => ({
    descending: false,
    limit: 1000,
    mode: 'all',
    fields: [],
    ...overrides,
  });

  describe(`MongoDB store on ${server.version}`, () => {
    it('signals the writes of another node, through a poll of the clock', async () => {
      const watched = await openFresh();
      const other = await openMongoStore({ uri: watched.uri, timeZone: DRAFT_ZONE });
      try {
        let calls = 0;
        const watch = await watched.watchWrites(() => calls++);
        expect(watch.method).toBe('clock poll');
        // The watch also signals once a second with nothing written (leases that run out); the writes are closer
        // together than that, so only watching the clock can answer every one of them within the bound.
        for (let i = 0; i < 5; i++) {
          const before = calls;
          await other.create((stamp) => written(draftAt(stamp)));
          await waitFor(() => calls > before, 400);
        }
        await watch.close();
      } finally {
        await other.close();
        await watched.close();
      }
    });

    it('creates its indexes and the clock document at open', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        const db = client.db(databaseName(store.uri));
        const indexes = await db.collection('assets').indexes();
        const byName = new Map(indexes.map((index) => [index.name, index]));
        expect(byName.get('feed')?.key).toEqual({ modified: 1 });
        expect(byName.get('feed')?.unique).toBe(true);
        expect(byName.get('listing')?.key).toEqual({ listed: 1, test: 1, modified: 1 });
        expect(byName.get('listing_all')?.key).toEqual({ listed: 1, modified: 1 });
        expect(byName.get('asset_id_counter')?.unique).toBe(true);
        const clock = await db.collection('counters').findOne({ _id: 'clock' as never });
        expect(clock).toMatchObject({ t: expect.any(Number) });
        expect(clock!.inflight).toEqual([]);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('makes plain an index made unique by an earlier version (history), keeping the revisions, once', async () => {
      const name = freshDatabase();
      const uri = withDatabase(BASE_URI!, name);
      const client = new MongoClient(uri);
      try {
        const db = client.db(databaseName(uri));
        await db.collection('revisions').createIndex({ asset: 1, rev: 1 }, { name: 'history', unique: true });
        await db.collection('revisions').insertOne({ _id: 'a/1' as never, asset: 'a', rev: 1 });
        const history = async () =>
          (await db.collection('revisions').indexes()).find((index) => index.name === 'history');
        const first = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
        await first.close();
        expect(await history()).toMatchObject({ key: { asset: 1, rev: 1 } });
        expect((await history())?.unique).toBeFalsy();
        expect(await db.collection('revisions').countDocuments({})).toBe(1);
        const commands: string[] = [];
        const again = await openMongoStore({
          uri,
          timeZone: DRAFT_ZONE,
          onCommand: (event) => commands.push(event.commandName),
        });
        await again.close();
        expect(commands).not.toContain('dropIndexes');
        expect(commands).not.toContain('createIndexes');
      } finally {
        await client.db(databaseName(uri)).dropDatabase();
        await client.close();
      }
    });

    it('keeps an asset history in its own collection, indexed by (asset, rev); the record holds only the latest', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        let record = await store.create((stamp) => written(draftAt(stamp)));
        for (let i = 0; i < 5; i++) {
          const before = record;
          const next = await store.update(record.id, record.rev, (stamp) =>
            written(draftAt(stamp, { id: before.id, title: `v${i}` }), before.asset),
          );
          if (next === 'conflict') throw new Error('conflict');
          record = next;
        }
        const db = client.db(databaseName(store.uri));
        const history = await db.collection('revisions').indexes();
        expect(history.find((index) => index.name === 'history')).toMatchObject({ key: { asset: 1, rev: 1 } });
        expect(history.find((index) => index.name === 'history')?.unique).toBeFalsy();
        expect(await db.collection('revisions').countDocuments({ asset: record.id })).toBe(6);
        const raw = await db.collection('assets').findOne({ _id: record.id as never });
        expect(raw).toMatchObject({
          revisions: 6,
          latestRevision: { date: record.asset.dateModified, author: 'broker' },
        });
        expect(Object.keys(raw!.latestRevision as object).sort()).toEqual(['author', 'changes', 'date']);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('a write cut short between its asset update and the copy of its revision loses nothing, nor serves it twice', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      const revisions = client.db(databaseName(store.uri)).collection('revisions');
      /** What a node killed right after its asset update leaves: the latest revision only in the asset's document. */
      const cutShort = async (id: string, rev: number) =>
        expect((await revisions.deleteOne({ _id: `${id}/${rev}` as never })).deletedCount).toBe(1);
      const edit = async (on: AssetStore, id: string, title: string) => {
        const record = (await on.get(id))!;
        const next = await on.update(id, record.rev, (stamp) => written(draftAt(stamp, { id, title }), record.asset));
        if (next === 'conflict') throw new Error('conflict');
        return next;
      };
      try {
        const created = await store.create((stamp) => written(draftAt(stamp)));
        await cutShort(created.id, 1);
        // A reader of the history copies it.
        expect((await store.revisions(created.id, 0, 10))!.map((revision) => revision.rev)).toEqual([1]);
        expect(await revisions.countDocuments({ asset: created.id })).toBe(1);

        await edit(store, created.id, 'v2');
        await cutShort(created.id, 2);
        // The next write, on a node that never saw revision 2 copied, copies it before moving on.
        const other = await openMongoStore({ uri: store.uri, timeZone: DRAFT_ZONE });
        try {
          const third = await edit(other, created.id, 'v3');
          expect(third.revisions).toBe(3);
        } finally {
          await other.close();
        }
        const kept = (await store.revisions(created.id, 0, 10))!;
        expect(kept.map((revision) => revision.rev)).toEqual([1, 2, 3]);
        expect(assetAfter(kept)).toEqual((await store.get(created.id))!.asset);
        expect(await revisions.countDocuments({ asset: created.id })).toBe(3);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('uses the database named in the URI and keeps internal fields out of the public document', async () => {
      const name = freshDatabase();
      const store = await openFresh(name);
      const client = new MongoClient(store.uri);
      try {
        const record = await store.create((stamp) => written(draftAt(stamp)));
        const raw = await client
          .db(name)
          .collection('assets')
          .findOne({ _id: record.id as never });
        expect(raw).toMatchObject({ rev: 1, modified: record.modified, listed: true, test: false });
        expect(Object.keys(raw!.asset as object).sort()).toEqual(Object.keys(record.asset).sort());
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('reads the first pages of a feed it knows nothing of one at a time: concurrent readers wait for what one learns', async () => {
      const store = await openFresh();
      const start = nowMicros() - 3600 * 1_000_000;
      await store.bulkInsert(Array.from({ length: 600 }, (_, i) => draftAt({ now: start + i * 1000 })));
      const finds: CommandStartedEvent[] = [];
      const opened = () =>
        openMongoStore({
          uri: store.uri,
          timeZone: DRAFT_ZONE,
          onCommand: (event) =>
            void (event.commandName === 'find' && event.command.find === 'assets' && finds.push(event)),
        });
      const [alone, fresh] = [await opened(), await opened()];
      try {
        for (const descending of [false, true]) {
          const query: ListQuery = { descending, limit: 100, mode: 'all', fields: [] };
          const expected = await store.list(query);
          // What the first reader costs, read alone by a store as new (the clock may be far past the newest row).
          finds.length = 0;
          expect(await alone.list(query)).toEqual(expected);
          const first = finds.length;
          finds.length = 0;
          const pages = await Promise.all(Array.from({ length: 20 }, () => fresh.list(query)));
          for (const page of pages) expect(page).toEqual(expected);
          // Probes (finds without a sort) are only the first reader's: at most one, after its first window.
          expect(finds.filter((find) => !('sort' in find.command)).length).toBeLessThanOrEqual(1);
          // Every waiting reader then reads its page in one window.
          expect(finds.length).toBeLessThanOrEqual(first + 19);
        }
      } finally {
        await Promise.all([alone.close(), fresh.close()]);
        await store.close();
      }
    });

    it('lists below an unexpired in-flight tick and ignores an expired one (a crashed writer)', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        const a = await store.create((stamp) => written(draftAt(stamp)));
        const b = await store.create((stamp) => written(draftAt(stamp)));
        const clock = client.db(databaseName(store.uri)).collection('counters');
        const farFuture = Date.now() + 10 * LEASE_MS;
        // A writer holding tick b.modified - 1 (between a and b) has not committed yet: b must wait.
        await clock.updateOne({ _id: 'clock' as never }, {
          $push: { inflight: { t: b.modified - 1, exp: farFuture } },
        } as never);
        expect((await store.list(all())).map((row) => row.id)).toEqual([a.id]);
        // Its lease ran out (the writer died): readers go on.
        await clock.updateOne(
          { _id: 'clock' as never },
          { $set: { inflight: [{ t: b.modified - 1, exp: Date.now() - 1 }] } },
        );
        expect((await store.list(all())).map((row) => row.id)).toEqual([a.id, b.id]);
        // New writes clean expired leases up and stamp after everything.
        const c = await store.create((stamp) => written(draftAt(stamp)));
        expect(c.modified).toBeGreaterThan(b.modified);
        expect((await store.list(all())).map((row) => row.id)).toEqual([a.id, b.id, c.id]);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('fences an expired tick before a reader passes it or a writer drops it: its write cannot commit behind them', async () => {
      const store = await openFresh();
      const client = new MongoClient(store.uri);
      try {
        const db = client.db(databaseName(store.uri));
        const clock = db.collection('counters');
        const assets = db.collection('assets');
        /** A writer that took tick `t` and was stopped after its lease check, past the lease. */
        const stoppedWriter = async (t: number) =>
          clock.updateOne({ _id: 'clock' as never }, {
            $max: { t },
            $push: { inflight: { t, exp: Date.now() - 1 } },
            $inc: { v: 1 },
          } as never);
        const stamp = (id: string, t: number) => assets.updateOne({ _id: id as never }, { $set: { modified: t } });
        const a = await store.create((stamp) => written(draftAt(stamp)));
        await stoppedWriter(a.modified + 1);
        // A reader passes the tick: fenced first. The writer, resumed, cannot commit at it.
        expect((await store.list(all())).map((row) => row.id)).toEqual([a.id]);
        await expect(stamp(a.id, a.modified + 1)).rejects.toMatchObject({ code: 11000 });
        // A writer drops it from the clock: fenced first too.
        await stoppedWriter(a.modified + 2);
        const b = await store.create((stamp) => written(draftAt(stamp)));
        await expect(stamp(a.id, a.modified + 2)).rejects.toMatchObject({ code: 11000 });
        expect(b.modified).toBeGreaterThan(a.modified + 2);
        // The fences are listed nowhere; the assets are untouched.
        for (const mode of ['all', 'real', 'test'] as const) {
          const rows = await store.list({ ...all(), mode });
          expect(rows.every((row) => row.id === a.id || row.id === b.id)).toBe(true);
        }
        expect((await store.list(all())).map((row) => row.id)).toEqual([a.id, b.id]);
        expect((await store.get(a.id))?.modified).toBe(a.modified);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('keeps stamps unique and increasing across two nodes (two clients), and the day counter gap-free', async () => {
      const name = freshDatabase();
      const one = await openFresh(name);
      const two = await openMongoStore({ uri: one.uri, timeZone: DRAFT_ZONE });
      try {
        const created: { record: AssetRecord; day: string; dayIndex: number }[] = [];
        await Promise.all(
          [one, two, one, two].map(async (store) => {
            for (let i = 0; i < 8; i++) {
              let day = '';
              let dayIndex = 0;
              const record = await store.create((stamp) => {
                ({ day, dayIndex } = stamp);
                return written(draftAt(stamp));
              });
              created.push({ record, day, dayIndex });
            }
          }),
        );
        const modified = created.map((c) => c.record.modified);
        expect(new Set(modified).size).toBe(created.length);
        const byDay = new Map<string, number[]>();
        for (const c of created) byDay.set(c.day, [...(byDay.get(c.day) ?? []), c.dayIndex]);
        for (const indexes of byDay.values()) {
          expect(indexes.sort((x, y) => x - y)).toEqual(Array.from({ length: indexes.length }, (_, i) => i + 1));
        }
        // Later writes on either node stamp after all of them.
        const last = await two.create((stamp) => written(draftAt(stamp)));
        expect(last.modified).toBeGreaterThan(Math.max(...modified));
      } finally {
        await two.close();
        await one.close();
      }
    }, 120_000);

    it('lists every record of concurrent creates on two nodes as soon as they are answered', async () => {
      const name = freshDatabase();
      const one = await openFresh(name);
      const two = await openMongoStore({ uri: one.uri, timeZone: DRAFT_ZONE });
      try {
        const created = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).create((stamp) => written(draftAt(stamp)))),
        );
        const rows = await one.list(all());
        expect(rows.map((row) => row.modified)).toEqual(created.map((r) => r.modified).sort((x, y) => x - y));
      } finally {
        await two.close();
        await one.close();
      }
    });

    it('lets exactly one of two nodes win a race on the same rev', async () => {
      const name = freshDatabase();
      const one = await openFresh(name);
      const two = await openMongoStore({ uri: one.uri, timeZone: DRAFT_ZONE });
      try {
        const record = await one.create((stamp) => written(draftAt(stamp)));
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? one : two).update(record.id, 1, (stamp) =>
              written(draftAt(stamp, { id: record.id, title: `w${i}` })),
            ),
          ),
        );
        const winners = results.filter((r): r is AssetRecord => r !== 'conflict');
        expect(winners).toHaveLength(1);
        expect(await two.get(record.id)).toEqual(winners[0]);
      } finally {
        await two.close();
        await one.close();
      }
    });

    it('never lets a reader paging the feed skip a change made by concurrent writers on two nodes', async () => {
      const name = freshDatabase();
      const one = await openFresh(name);
      const two = await openMongoStore({ uri: one.uri, timeZone: DRAFT_ZONE });
      const reader = await openMongoStore({ uri: one.uri, timeZone: DRAFT_ZONE });
      try {
        let writing = true;
        const writer = async (store: AssetStore, n: number) => {
          for (let i = 0; i < n; i++) {
            const created = await store.create((stamp) => written(draftAt(stamp)));
            // Half of them change again, moving in the feed.
            if (i % 2 === 0) {
              await store.update(created.id, 1, (stamp) => written(draftAt(stamp, { id: created.id, title: 'moved' })));
            }
          }
        };
        const seen = new Set<string>();
        const seenTwice: string[] = [];
        let after: number | undefined;
        const page = async () => {
          const rows = await reader.list(all({ limit: 7, ...(after === undefined ? {} : { after }) }));
          for (const row of rows) {
            const key = `${row.id}@${row.modified}`;
            if (seen.has(key)) seenTwice.push(key);
            seen.add(key);
          }
          if (rows.length > 0) after = rows.at(-1)!.modified;
          return rows.length;
        };
        const reading = (async () => {
          while (writing) await page();
        })();
        await Promise.all([writer(one, 40), writer(two, 40), writer(one, 40), writer(two, 40)]);
        writing = false;
        await reading;
        while ((await page()) > 0) {
          // Keep polling after the writes stop, as a client would.
        }
        const final = await reader.list(all({ limit: 1000 }));
        expect(final).toHaveLength(160);
        const missed = final.filter((row) => !seen.has(`${row.id}@${row.modified}`));
        expect(missed).toEqual([]);
        expect(seenTwice).toEqual([]);
      } finally {
        await reader.close();
        await two.close();
        await one.close();
      }
    }, 60_000);

    it('refuses as busy (StoreBusyError, 503 over HTTP) rather than commit when its lease ran out before the write', async () => {
      const store = await openFresh();
      try {
        const before = nowMicros();
        const failed = store.create((stamp) => {
          // A build cannot take this long, but a paused process can: simulate it with a clock jump.
          const realNow = performance.now;
          performance.now = () => realNow.call(performance) + LEASE_MS;
          try {
            return written(draftAt(stamp));
          } finally {
            queueMicrotask(() => (performance.now = realNow));
          }
        });
        await expect(failed).rejects.toBeInstanceOf(StoreBusyError);
        expect(await store.list(all())).toEqual([]);
        // The number it held was given back: the next create is the day's first.
        let dayIndex = 0;
        const next = await store.create((stamp) => {
          dayIndex = stamp.dayIndex;
          return written(draftAt(stamp));
        });
        expect(dayIndex).toBe(1);
        expect(next.modified).toBeGreaterThanOrEqual(before);
      } finally {
        await store.close();
      }
    });
  });
}
