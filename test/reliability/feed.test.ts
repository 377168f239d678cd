/**
 * Feed completeness (docs/decisions/0020-feed-complete-by-construction.md): writers as fast as the machine allows,
 * a reader following `next_page` and polling, on one server and on two processes sharing one store.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '../helpers/client.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { bound, reportFigures } from './fixtures/common.js';
import { prepareStore, startChild, useChildServers, type ChildServer } from './fixtures/child-server.js';
import { analyseFeed, clock, runReader, runWriter, type Version, type WriterStats } from './fixtures/feed-workload.js';

const WRITERS = 8;
/** How long the writers write (ms); RELIABILITY_WRITE_MS overrides. */
const WRITE_MS = bound('RELIABILITY_WRITE_MS', 4_000);
const MAX_REQUESTS_PER_WRITER = 4_000;
/** After the writers stop, the reader has this long to catch up. */
const CATCH_UP_MS = 30_000;
const PAGE_LIMIT = 25;
const POLL_MS = 5;

interface Run {
  writerClients: Client[];
  readerClients: Client[];
  /** Reads the final state of an asset (any node). */
  readClient: Client;
}

async function runScenario(name: string, run: Run): Promise<void> {
  const versions: Version[] = [];
  let writersDoneAt: number | undefined;
  const startedAt = clock();
  const bounds = { until: startedAt + WRITE_MS, maxRequestsPerWriter: MAX_REQUESTS_PER_WRITER };

  const readerPromise = runReader({
    clients: run.readerClients,
    limit: PAGE_LIMIT,
    pollMs: POLL_MS,
    writersDoneAt: () => writersDoneAt,
    until: startedAt + WRITE_MS + CATCH_UP_MS,
    maxPages: 200_000,
  });
  let stats: WriterStats[];
  try {
    stats = await Promise.all(
      run.writerClients.map((client, i) => runWriter(client, `${name} w${i}`, bounds, versions)),
    );
  } finally {
    writersDoneAt = clock();
  }
  const writeSeconds = (writersDoneAt - startedAt) / 1000;
  const reader = await readerPromise;
  const analysis = analyseFeed(versions, reader);

  const creates = stats.reduce((sum, s) => sum + s.creates, 0);
  const updates = stats.reduce((sum, s) => sum + s.updates, 0);
  reportFigures(`feed: ${name}`, {
    writers: run.writerClients.length,
    writeSeconds: Number(writeSeconds.toFixed(2)),
    creates,
    updates,
    writesPerSecond: Math.round((creates + updates) / writeSeconds),
    updatesPerSecond: Math.round(updates / writeSeconds),
    listedAssets: analysis.listedAssets,
    listedVersions: versions.length,
    pagesRead: reader.pages.length,
    entriesRead: reader.entriesRead,
    caughtUp: reader.caughtUp,
    entriesSkipped: analysis.finalSkipped,
    versionsSkipped: analysis.versionsSkipped,
    stampedBehindOffset: analysis.behindOffset,
    duplicates: reader.duplicates,
    outOfOrder: reader.outOfOrder,
    unknownEntries: analysis.unknownEntries,
  });

  expect(reader.caughtUp, 'the reader caught up with the writers within the time allowed').toBe(true);
  expect(creates, 'the writers created assets').toBeGreaterThan(WRITERS);
  expect(analysis.examples, 'what went wrong').toEqual([]);
  expect(analysis.finalSkipped, 'listed assets whose final dateModified the reader never saw').toBe(0);
  expect(analysis.versionsSkipped, 'versions missing from a page that had to hold them').toBe(0);
  expect(analysis.behindOffset, 'writes stamped behind an offset already handed out').toBe(0);
  expect(reader.duplicates, 'the same (id, dateModified) listed twice').toBe(0);
  expect(reader.outOfOrder, 'entries not after the offset or not ascending').toBe(0);
  expect(analysis.unknownEntries, 'entries that are no acknowledged listed state').toBe(0);

  // The served state agrees with the last acknowledged write of every asset, and a fresh scan of the whole feed
  // lists exactly the final versions, once each.
  const finals = new Map<string, string>();
  for (const v of versions) if (v.nextSentAt === Infinity) finals.set(v.id, v.dateModified);
  const sample = [...finals].slice(0, 200);
  for (const [id, dateModified] of sample) {
    const res = await run.readClient.get(`/api/0.1/assets/${id}`);
    expect(res.status).toBe(200);
    expect(res.json.data.dateModified).toBe(dateModified);
  }
  const scanned = new Map<string, string>();
  let path = '/api/0.1/assets?limit=1000';
  for (let pages = 0; pages < 1_000; pages++) {
    const res = await run.readClient.get(path);
    expect(res.status).toBe(200);
    if (res.json.data.length === 0) break;
    for (const e of res.json.data) {
      expect(scanned.has(e.id), `${e.id} listed twice in one scan`).toBe(false);
      scanned.set(e.id, e.dateModified);
    }
    path = res.json.next_page.path;
  }
  expect(scanned).toEqual(finals);
}

describe('feed completeness under concurrent writers', () => {
  // The processes' stores; removed after they are stopped (hooks after run in reverse order).
  const scratch = useScratch();
  const children = useChildServers();

  it(`one server process: ${WRITERS} writers, one reader following next_page`, async () => {
    // A separate process, as in production: the server gets a core of its own instead of sharing the test's.
    const child = await startChild(await prepareStore(scratch));
    children.push(child);
    const url = child.url;
    await runScenario('one server', {
      writerClients: Array.from({ length: WRITERS }, () => new Client(url, { key: KEYS.broker })),
      readerClients: [new Client(url)],
      readClient: new Client(url),
    });
  }, 90_000);

  it(`two server processes on one store: ${WRITERS / 2} writers each, the reader alternating between them`, async () => {
    const store = await prepareStore(scratch);
    children.push(
      ...(await Promise.all([startChild(store, { serverId: 'node-a' }), startChild(store, { serverId: 'node-b' })])),
    );
    const [a, b] = children as [ChildServer, ChildServer];
    await runScenario('two processes', {
      writerClients: Array.from(
        { length: WRITERS },
        (_, i) => new Client(i % 2 === 0 ? a.url : b.url, { key: KEYS.broker }),
      ),
      // One client (and cookie jar) per node: a cookie of one node is 412 on the other.
      readerClients: [new Client(a.url), new Client(b.url)],
      readClient: new Client(b.url),
    });
  }, 120_000);
});
