/**
 * The database round trips of every operation on the MongoDB path, counted by command monitoring under real HTTP
 * requests: one more than the table in docs/performance.md is a regression. Stamps are taken by compare-and-set on
 * every engine (docs/decisions/0075-one-code-path-on-every-mongodb-engine.md).
 */
import { written } from '../fixtures/drafts.js';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { openMongoStore } from '../../../src/store/mongo/index.js';
import { nowMicros } from '../../../src/domain/dates.js';
import { Seeder } from '../../../bench/data.js';
import { serverForThisTest, useServer, type TestServer } from '../../helpers/server.js';
import { createAsset, toPending, type Created } from '../../helpers/fixtures.js';
import { uploadFile } from '../../helpers/uploads.js';
import { changeEvents, openChanges } from '../../helpers/sse.js';

const BASE_URI = process.env.MONGODB_URI;
const API = '/api/0.1';
const ASSETS = `${API}/assets`;

/** `name collection` (`find assets`, `findAndModify counters`), or the name alone for database commands (`hello`). */
function described(event: CommandStartedEvent): string {
  const target = event.command[event.commandName] as unknown;
  return typeof target === 'string' ? `${event.commandName} ${target}` : event.commandName;
}

/** The write watch's own reads of the clock's version, every 20 ms: background. */
function isWatchPoll(event: CommandStartedEvent): boolean {
  const projection = event.command.projection as Record<string, unknown> | undefined;
  return (
    event.commandName === 'find' &&
    event.command.find === 'counters' &&
    projection?.v === 1 &&
    projection.asset === undefined
  );
}

/**
 * The log integrator's read of its lease, every 100 ms: background. While another node holds the lease, the
 * integrator sends nothing else (docs/decisions/0066-log-order-and-integration.md).
 */
function isLeaseRead(event: CommandStartedEvent): boolean {
  const projection = event.command.projection as Record<string, unknown> | undefined;
  return event.commandName === 'find' && event.command.find === 'log_state' && projection?.holder === 1;
}

/** The log's lease taken by another node for an hour: the integrator of the registry on `uri` stands by. */
async function holdLogLease(uri: string): Promise<void> {
  const client = new MongoClient(uri);
  try {
    await client
      .db()
      .collection<{ _id: string }>('log_state')
      .updateOne({ _id: 'state' }, { $set: { holder: 'another node', leaseUntil: Date.now() + 3_600_000 } });
  } finally {
    await client.close();
  }
}

/** Records the commands a store's client sends while `record` runs, but the log integrator's lease reads. */
class CommandLog {
  private events: CommandStartedEvent[] | undefined;

  readonly listener = (event: CommandStartedEvent): void => {
    if (!isLeaseRead(event)) this.events?.push(event);
  };

  async record(work: () => Promise<unknown>): Promise<CommandStartedEvent[]> {
    const events: CommandStartedEvent[] = [];
    this.events = events;
    try {
      await work();
    } finally {
      this.events = undefined;
    }
    return events;
  }

  async commands(work: () => Promise<unknown>): Promise<string[]> {
    return (await this.record(work)).map(described);
  }
}

/** A registry on a fresh database whose store reports its commands to `log`. */
function monitored(log: CommandLog) {
  return {
    via: 'http' as const,
    openStore: (config: { mongodbUri?: string | undefined; timeZone: string }) =>
      openMongoStore({ uri: config.mongodbUri!, timeZone: config.timeZone, onCommand: log.listener }),
  };
}

/** What taking a write stamp costs (the database's time, the compare-and-set), then what giving it back costs. */
const TICK = ['hello', 'findAndModify counters'];
const RELEASE = ['findAndModify counters'];
/** The copy of a write's revision into `revisions`, sent while its stamp is given back. */
const COPY = 'update revisions';
/** Reading the clock before a feed page (no write in flight). */
const CLOCK_READ = ['find counters'];

if (!BASE_URI) {
  describe.skip('MongoDB round trips: MONGODB_URI not set (start one with scripts/ferretdb.sh start)', () => {
    it('counts the commands of every operation on a real server', () => {});
  });
} else {
  describe('MongoDB round trips per operation', () => {
    const log = new CommandLog();
    // Without the served cache: every read reaches the store, and the cache's own watch of the clock (a find every
    // 20 ms) does not mingle with the commands counted.
    const server: TestServer = useServer({ CACHE_MB: '0' }, monitored(log));
    const { broker, broker2, anonymous: reader } = server;
    const tick = TICK;
    /** A write's commands: the stamp, `commands`, then the stamp given back and its revision copied, at once. */
    const write = (...commands: string[]) => [...tick, ...commands, ...[...RELEASE, COPY].sort()];
    /** The last two commands of a write run at once: in the order of `write`'s. */
    const inOrder = (commands: string[]) => [...commands.slice(0, -2), ...commands.slice(-2).sort()];
    const page = ['find assets'];

    // A client's first write fetches the cluster cookie with a listing first (test/helpers/client.ts): not counted.
    // The log's lease held by another node: this node's integrator then only reads the lease (isLeaseRead).
    beforeAll(async () => {
      for (const client of [broker, broker2]) await client.get(ASSETS);
      await holdLogLease(server.mongodbUri!);
    });

    async function pendingAsset(): Promise<Created> {
      const created = await createAsset(broker);
      await toPending(broker, created.id, created.token);
      return created;
    }

    it('read one asset: one find by _id', async () => {
      const { id } = await pendingAsset();
      expect(await log.commands(async () => expect((await reader.get(`${ASSETS}/${id}`)).status).toBe(200))).toEqual([
        'find assets',
      ]);
      expect(
        await log.commands(async () => expect((await reader.get(`${ASSETS}/${'0'.repeat(32)}`)).status).toBe(404)),
      ).toEqual(['find assets']);
    });

    it('listing page, every shape: the clock, then a find per window (one batch each, up to 1,000 rows)', async () => {
      const seeder = new Seeder(nowMicros() - 3600 * 1_000_000);
      await server.store.bulkInsert(seeder.records(0, 150));
      // The store learns the feed's start, its top and spacing (domain/feed-windows.ts): the default page, either way,
      // is then one window. The clock runs ahead of the newest listed row (drafts, the log's ticks).
      const first = await reader.get(`${ASSETS}?limit=2`);
      expect((await reader.get(`${ASSETS}?limit=2&descending=1`)).status).toBe(200);
      const offset = encodeURIComponent(first.json.data[1].dateModified as string);
      // [query, the filter's `test` (the index: `listing` with it, `listing_all` without), sort direction, limit]
      const shapes: [string, boolean | undefined, 1 | -1, number][] = [
        ['', false, 1, 100],
        ['?mode=test', true, 1, 100],
        ['?mode=_all_', undefined, 1, 100],
        ['?opt_fields=status,assetID', false, 1, 100],
        ['?descending=1', false, -1, 100],
        [`?offset=${offset}`, false, 1, 100],
        [`?offset=${offset}&descending=1&opt_fields=title`, false, -1, 100],
        ['?limit=1000', false, 1, 1000],
        ['?limit=1000&opt_fields=status,assetID,title&mode=_all_', undefined, 1, 1000],
      ];
      for (const [query, test, direction, limit] of shapes) {
        const events = await log.record(async () => expect((await reader.get(ASSETS + query)).status).toBe(200));
        const finds = events.slice(CLOCK_READ.length);
        expect(events.slice(0, CLOCK_READ.length).map(described), query).toEqual(CLOCK_READ);
        // An empty feed (no test assets here) is one probe, no window.
        expect(finds.length, query).toBeGreaterThan(0);
        if (query === '') expect(finds.length).toBe(1);
        let windows = 0;
        for (const find of finds) {
          expect(described(find), query).toBe('find assets');
          const {
            filter,
            sort,
            batchSize,
            limit: asked,
          } = find.command as {
            filter: Record<string, unknown>;
            sort?: unknown;
            batchSize?: number;
            limit: number;
          };
          expect({ listed: filter.listed, test: filter.test, keys: Object.keys(filter).sort() }, query).toEqual({
            listed: true,
            test,
            keys: test === undefined ? ['listed', 'modified'] : ['listed', 'modified', 'test'],
          });
          // One condition a side of `modified`: DocumentDB bounds its index scan by no more (src/store/mongo/feed.ts).
          expect(Object.keys(filter.modified as object).length, query).toBeLessThanOrEqual(2);
          // A window asks for the rest of the page; a probe of the range (unsorted) for one row.
          if (sort === undefined) {
            expect(asked, query).toBe(1);
            continue;
          }
          expect(sort instanceof Map ? Object.fromEntries(sort) : sort, query).toEqual({ modified: direction });
          if (windows++ === 0) expect(asked, query).toBe(limit);
          else expect(asked, query).toBeLessThan(limit);
          // The driver sends one more than a batch size equal to the limit, so that the server closes the cursor at once.
          expect(batchSize, query).toBe(asked + 1);
        }
      }
    });

    it('create: a stamp, the day number, the insert, the stamp given back', async () => {
      const commands = inOrder(await log.commands(() => createAsset(broker)));
      expect(commands).toEqual(write('findAndModify counters', 'insert assets'));
    });

    it('PATCH, a field or a status move: the record, then a stamped compare-and-set update', async () => {
      const created = await createAsset(broker);
      const moved = inOrder(await log.commands(() => toPending(broker, created.id, created.token)));
      expect(moved).toEqual(['find assets', ...write('update assets')]);
      const edited = inOrder(
        await log.commands(async () => {
          const res = await broker.patch(
            `${ASSETS}/${created.id}`,
            { data: { title: 'Нова назва' } },
            { token: created.token },
          );
          expect(res.status).toBe(200);
        }),
      );
      expect(edited).toEqual(['find assets', ...write('update assets')]);
      const unchanged = await log.commands(async () => {
        const res = await broker.patch(
          `${ASSETS}/${created.id}`,
          { data: { title: 'Нова назва' } },
          { token: created.token },
        );
        expect(res.status).toBe(200);
      });
      expect(unchanged).toEqual(['find assets']);
    });

    it('documents: adding one and replacing it are each the record, then one stamped update', async () => {
      const { id, token } = await createAsset(broker);
      const file = await uploadFile(broker);
      let documentId = '';
      const added = inOrder(
        await log.commands(async () => {
          const res = await broker.post(`${ASSETS}/${id}/documents`, { data: { ...file, title: 'a.pdf' } }, { token });
          expect(res.status, res.text).toBe(201);
          documentId = res.json.data.id;
        }),
      );
      expect(added).toEqual(['find assets', ...write('update assets')]);
      const next = await uploadFile(broker);
      const replaced = inOrder(
        await log.commands(async () => {
          const res = await broker.request('PUT', `${ASSETS}/${id}/documents/${documentId}`, {
            json: { data: next },
            token,
          });
          expect(res.status, res.text).toBe(200);
        }),
      );
      expect(replaced).toEqual(['find assets', ...write('update assets')]);
    });

    it('transfers: creating one is one insert; applying it reads both, marks it, then one stamped update', async () => {
      const asset = await pendingAsset();
      let transfer = { id: '', transfer: '' };
      const created = await log.commands(async () => {
        const res = await broker2.post(`${API}/transfers`, { data: {} });
        expect(res.status).toBe(201);
        transfer = { id: res.json.data.id, transfer: res.json.access.transfer };
      });
      expect(created).toEqual(['insert transfers']);
      const read = await log.commands(async () =>
        expect((await broker2.get(`${API}/transfers/${transfer.id}`)).status).toBe(200),
      );
      expect(read).toEqual(['find transfers']);
      const applied = inOrder(
        await log.commands(async () => {
          const res = await broker2.post(`${ASSETS}/${asset.id}/ownership`, {
            data: { id: transfer.id, transfer: asset.transfer },
          });
          expect(res.status, res.text).toBe(200);
        }),
      );
      expect(applied).toEqual(['find assets', 'find transfers', 'update transfers', ...write('update assets')]);
    });

    it("history page, or the asset at a revision: the asset's count and latest revision, then one find of the range; a page's log indexes beside them", async () => {
      const { id } = await pendingAsset();
      for (const path of [
        `${ASSETS}/${id}/revisions`,
        `${ASSETS}/${id}/revisions?offset=1&limit=1`,
        `${ASSETS}/${id}/revisions/2`,
      ]) {
        // Idle connections enough for both reads at once: a read waiting for a new connection to open would start
        // after the other's reply, whatever the service does.
        await Promise.all(Array.from({ length: 4 }, () => reader.get(path)));
        const all = await log.record(async () => expect((await reader.get(path)).status).toBe(200));
        const isLogRead = (event: CommandStartedEvent) => ['log_state', 'log_entries'].includes(event.command.find);
        const events = all.filter((event) => !isLogRead(event));
        expect(events.map(described), path).toEqual(['find assets', 'find revisions']);
        // A page's revisions point at their log entries: the log's size, then the entries, beside the history read.
        const logReads = all.filter(isLogRead);
        expect(logReads.map(described), path).toEqual(
          path.includes('/revisions/') ? [] : ['find log_state', 'find log_entries'],
        );
        if (logReads.length > 0) expect(all.indexOf(logReads[0]!), path).toBeLessThan(all.indexOf(events[1]!));
        const { filter, sort } = events[1]!.command as { filter: Record<string, unknown>; sort: unknown };
        expect(Object.keys(filter).sort(), path).toEqual(['asset', 'rev']);
        expect(sort instanceof Map ? Object.fromEntries(sort) : sort, path).toEqual({ rev: 1 });
      }
    });

    it('the asset at a revision of large changes: each chunk after the first asks for what the one before held', async () => {
      const { id, token } = await pendingAsset();
      // Revisions 3 to 14 of about 380 KB each: a chunk of changes (1 MiB, src/services/history.ts) holds three.
      for (let i = 0; i < 12; i++) {
        const items = Array.from({ length: 20 }, (_, n) => ({
          description: `${i}.${n} ${'d'.repeat(19_000)}`,
          classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
          unit: { code: 'H87', name: 'штука' },
          quantity: 1,
        }));
        const res = await broker.patch(`${ASSETS}/${id}`, { data: { items } }, { token });
        expect(res.status, res.text).toBe(200);
      }
      const events = await log.record(async () =>
        expect((await reader.get(`${ASSETS}/${id}/revisions/14`)).status).toBe(200),
      );
      const finds = events.filter((event) => event.command.find === 'revisions');
      const asked = finds.map((event) => (event.command as { limit: number }).limit);
      // Revisions 1-5, then three at a time: not the rest of the range for every chunk, a batch of up to 16 MiB
      // nearly all thrown away. Twice as many once a chunk's bytes did not cut it short, at most what is left.
      expect(asked).toEqual([14, 5, 3, 3]);
    });

    it('health: one ping', async () => {
      expect(await log.commands(async () => expect((await reader.get(`${API}/health`)).status).toBe(200))).toEqual([
        'ping',
      ]);
    });

    it('start-up: the indexes and one update of the clock; the check for records written around the store runs behind it', async () => {
      const uri = server.mongodbUri!;
      const startLog = new CommandLog();
      let store: Awaited<ReturnType<typeof openMongoStore>> | undefined;
      const events = await startLog.record(async () => {
        store = await openMongoStore({
          uri,
          timeZone: 'Europe/Kyiv',
          onCommand: startLog.listener,
        });
        // The first write waits for the check behind start-up, so its commands come after the check's.
        await store.create((stamp) => seedDraft(stamp));
      });
      try {
        // Then the history's index and the marker that every asset has its history (set by the first start).
        // buildInfo first: the engine chooses the listing's index (src/store/mongo/feed.ts, `chooseListingIndex`).
        expect(inOrder(events.map(described))).toEqual([
          'buildInfo',
          'listIndexes assets',
          'listIndexes revisions',
          'find counters',
          'findAndModify counters',
          'find assets',
          // The log: its indexes (one on the revisions' order) and its state.
          'listIndexes revisions',
          'listIndexes log_entries',
          'listIndexes log_queue',
          'find log_state',
          ...TICK,
          'findAndModify counters',
          'insert assets',
          ...[...RELEASE, COPY].sort(),
        ]);
      } finally {
        await store?.close();
      }
    });

    it('change stream: watching starts once; each catch-up page is the clock and one find', async () => {
      const streamLog = new CommandLog();
      const own = await serverForThisTest({ CACHE_MB: '0' }, monitored(streamLog));
      await holdLogLease(own.mongodbUri!);
      const owner = own.broker;
      const assets = [await createAsset(owner), await createAsset(owner)];
      for (const asset of assets) await toPending(owner, asset.id, asset.token);
      const events = await streamLog.record(async () => {
        const stream = await openChanges(own.url);
        try {
          await stream.waitFor((parser) => parser.events.length >= 2, 10_000);
          expect(changeEvents(stream.parser).map((event) => event.data.id)).toEqual(assets.map((asset) => asset.id));
        } finally {
          stream.close();
        }
      });
      const foreground = events.filter((event) => !isWatchPoll(event)).map(described);
      // Watching is polling the clock's version (background): the first page is the clock and one find.
      expect(foreground.slice(0, 2)).toEqual([...CLOCK_READ, ...page]);
      expect(events.some(isWatchPoll)).toBe(true);
    });
  });
}

/** A minimal record for a store-level create (the start-up test writes once through the store it opened). */
function seedDraft(stamp: { now: number; day: string; dayIndex: number }) {
  const [record] = new Seeder(stamp.now).records(0, 1);
  return written({ ...record!, modified: stamp.now });
}
