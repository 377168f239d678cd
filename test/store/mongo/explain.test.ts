/**
 * Every read query of the MongoDB store uses the index made for it: each `find` recorded by command monitoring is
 * given unchanged to `explain`. MongoDB names the index as `indexName`, FerretDB 2 (a PostgreSQL plan) as `Index
 * Name`; only the plan that runs is read.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient, type CommandStartedEvent, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMicros } from '../../../src/domain/dates.js';
import { databaseName, openMongoStore } from '../../../src/store/mongo/index.js';
import type { AssetStore, ListQuery } from '../../../src/store/types.js';
import { DRAFT_ZONE, draftAt, written } from '../fixtures/drafts.js';
import { mongoServerInfo } from '../../helpers/mongo-server.js';

const BASE_URI = process.env.MONGODB_URI;
/** Enough assets that no engine finds a scan of the collection cheaper than its index. */
const SEEDED = 3000;

/** The keys of a `find` command that say what it reads (not the session, read concern or batch size). */
const QUERY_KEYS = ['find', 'filter', 'sort', 'projection', 'limit', 'skip', 'hint'] as const;

/** The index names a plan reads through; `(collection scan)` for a scan without one. */
function indexesOfPlan(explained: Document): string[] {
  const planner = explained.queryPlanner as Document | undefined;
  const plan: unknown = planner?.winningPlan ?? planner?.Plan ?? explained;
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const entry = node as Record<string, unknown>;
    if (typeof entry.indexName === 'string') found.push(entry.indexName);
    if (typeof entry['Index Name'] === 'string') found.push(entry['Index Name']);
    if (entry.stage === 'COLLSCAN' || entry['Node Type'] === 'Seq Scan') found.push('(collection scan)');
    for (const [key, value] of Object.entries(entry)) if (key !== 'rejectedPlans') visit(value);
  };
  visit(plan);
  return [...new Set(found)];
}

function withDatabase(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`cannot read MONGODB_URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}

if (!BASE_URI) {
  describe.skip('MongoDB explain: MONGODB_URI not set (start one with scripts/ferretdb.sh start)', () => {
    it('checks that every query of the store uses its index', () => {});
  });
} else {
  const ferret = (await mongoServerInfo(BASE_URI)).ferretDb;
  const uri = withDatabase(BASE_URI, `explain_${process.pid}_${randomBytes(3).toString('hex')}`);
  const sent: CommandStartedEvent[] = [];
  let store: AssetStore;
  let client: MongoClient;
  const ids: string[] = [];

  /** The `find` commands that `work` sends, on any collection. */
  async function findsOf(work: () => Promise<unknown>): Promise<Document[]> {
    sent.length = 0;
    await work();
    return sent
      .filter((event) => event.commandName === 'find')
      .map((event) =>
        Object.fromEntries(QUERY_KEYS.filter((key) => key in event.command).map((key) => [key, event.command[key]])),
      );
  }

  async function indexesOf(find: Document): Promise<string[]> {
    const explained = await client.db(databaseName(uri)).command({ explain: find, verbosity: 'queryPlanner' });
    return indexesOfPlan(explained);
  }

  /**
   * Runs `work`, and expects one find on `assets` (or, for a listing page read in windows, `assetFinds` of them)
   * and any on `counters` (the clock, read by `_id`), each read through its index alone: `index` for the assets;
   * `others` names the index of any other collection read.
   */
  async function expectIndex(
    work: () => Promise<unknown>,
    index: string,
    others: Record<string, string> = {},
    assetFinds: (count: number) => boolean = (count) => count === 1,
  ): Promise<Document[]> {
    const expected: Record<string, string> = { counters: '_id_', assets: index, ...others };
    const finds = await findsOf(work);
    const count = finds.filter((find) => find.find === 'assets').length;
    expect(assetFinds(count), `${count} finds on assets`).toBe(true);
    for (const find of finds) {
      expect({ find, indexes: await indexesOf(find) }).toEqual({ find, indexes: [expected[find.find as string]] });
    }
    return finds;
  }

  beforeAll(async () => {
    client = new MongoClient(BASE_URI);
    store = await openMongoStore({ uri, timeZone: DRAFT_ZONE, onCommand: (event) => void sent.push(event) });
    // Nine in ten listed, one in three of those in test mode: each listing filter keeps and drops some.
    const start = nowMicros() - 3600 * 1_000_000;
    const drafts = Array.from({ length: SEEDED }, (_, i) =>
      draftAt({ now: start + i * 1000 }, { listed: i % 10 !== 0, test: i % 3 === 0 }),
    );
    await store.bulkInsert(drafts);
    ids.push(drafts[17]!.id, drafts[2500]!.id);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await client?.db(databaseName(uri)).dropDatabase();
    await client?.close();
  });

  const listing = (overrides: Partial<ListQuery>): ListQuery => ({
    descending: false,
    limit: 100,
    mode: 'all',
    fields: [],
    ...overrides,
  });

  describe('MongoDB store: every read uses the index made for it', () => {
    // A listing page: on MongoDB `listing` ({listed, test, modified}) with a mode, `listing_all` ({listed, modified})
    // without; on DocumentDB (FerretDB) `feed` ({modified}) for both (src/store/mongo/feed.ts, `chooseListingIndex`); in either
    // feed direction, from the start or after a position, with or without opt_fields.
    const shapes: [string, Partial<ListQuery>, string][] = [];
    const indexOfMode = ferret
      ? ([
          ['all', 'feed'],
          ['real', 'feed'],
          ['test', 'feed'],
        ] as const)
      : ([
          ['all', 'listing_all'],
          ['real', 'listing'],
          ['test', 'listing'],
        ] as const);
    for (const [mode, index] of indexOfMode) {
      for (const descending of [false, true]) {
        for (const fields of [[], ['title', 'status']]) {
          const label = `mode=${mode}, ${descending ? 'descending' : 'ascending'}${fields.length ? ', opt_fields' : ''}`;
          shapes.push([label, { mode, descending, fields }, index]);
        }
      }
    }
    // A page is read in windows of `modified`, with an unsorted probe of the range where its end is not known: every
    // one of these finds goes through the index.
    const windows = (count: number): boolean => count >= 1;
    it.each(shapes)('a listing page (%s)', async (_label, shape, index) => {
      await expectIndex(() => store.list(listing(shape)), index, {}, windows);
      // A later page: the same index, bounded on both sides of `modified`.
      const [, second] = await store.list(listing({ ...shape, limit: 2 }));
      expect(second).toBeDefined();
      await expectIndex(() => store.list(listing({ ...shape, after: second!.modified })), index, {}, windows);
      // The page at the far end of the feed, one row, read by a store that has learned nothing: windows from the
      // narrowest, probes of the range past them, and a last window open on the range's far side.
      const fresh = await openMongoStore({ uri, timeZone: DRAFT_ZONE, onCommand: (event) => void sent.push(event) });
      try {
        // A write waits for the store's start-up check (its own find, on `feed`), which is then not among the reads.
        await fresh.create((stamp) => written(draftAt(stamp)));
        const [, penultimate] = await store.list(listing({ ...shape, descending: !shape.descending, limit: 2 }));
        const finds = await expectIndex(
          () => fresh.list(listing({ ...shape, after: penultimate!.modified })),
          index,
          {},
          windows,
        );
        const probes = finds.filter((find) => find.find === 'assets' && !('sort' in find));
        expect(probes.length).toBeGreaterThan(0);
        expect(finds.filter((find) => find.find === 'assets').length).toBeGreaterThan(probes.length + 1);
      } finally {
        await fresh.close();
      }
    });

    it('the read of one asset by id, and the read of its text', async () => {
      await expectIndex(() => store.get(ids[0]!), '_id_');
      await expectIndex(() => store.getText(ids[1]!), '_id_');
      await expectIndex(() => store.get('0'.repeat(32)), '_id_');
    });

    it('the check at start-up for records written around the store (the latest stamp)', async () => {
      await expectIndex(
        async () => {
          const second = await openMongoStore({
            uri,
            timeZone: DRAFT_ZONE,
            onCommand: (event) => void sent.push(event),
          });
          try {
            // The check runs behind start-up; the first write waits for it.
            await second.create((stamp) => written(draftAt(stamp)));
          } finally {
            await second.close();
          }
          // The log's state, read at start-up by its id.
        },
        'feed',
        { log_state: '_id_' },
      );
    });

    it('a page of an asset history: the asset by id, then a range of its revisions', async () => {
      await expectIndex(() => store.revisions(ids[0]!, 0, 100), '_id_', { revisions: 'history' });
      await expectIndex(() => store.revisions(ids[1]!, 1, 100), '_id_', { revisions: 'history' });
    });
  });
}
