import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedImportStore } from '../../../src/store/sqlite/import.js';
import { openEmbeddedStore } from '../../../src/store/sqlite/index.js';
import type { AssetStore, ListedRow } from '../../../src/store/types.js';
import { describeStoreContract, waitFor } from '../contract.js';
import { describeFileStoreContract } from '../files-contract.js';
import { describeImportStoreContract } from '../import-contract.js';
import { draftAt, written } from '../fixtures/drafts.js';
import type { WriterReport } from './fixtures/writer.js';

const ZONE = 'Europe/Kyiv';
const scratch = mkdtempSync(join(tmpdir(), 'registry-embedded-'));
let dirCount = 0;

function freshDir(): string {
  return join(scratch, `store-${++dirCount}`);
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeStoreContract('embedded (SQLite)', async () => openEmbeddedStore({ dataDir: freshDir(), timeZone: ZONE }));
describeImportStoreContract('embedded (SQLite)', async () => {
  const dataDir = freshDir();
  return {
    store: openEmbeddedStore({ dataDir, timeZone: ZONE }),
    imports: openEmbeddedImportStore({ dataDir, timeZone: ZONE }),
  };
});

describeFileStoreContract('embedded (a folder beside the SQLite file)', async () => {
  const store = openEmbeddedStore({ dataDir: freshDir(), timeZone: ZONE });
  return { files: store.files, close: () => store.close() };
});

describe('embedded store: a file written by an earlier registry', () => {
  it('gains the document_history column on opening and keeps its rows', async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir, { recursive: true });
    const old = new Database(join(dataDir, 'registry.sqlite'));
    old.exec(`CREATE TABLE assets (id TEXT PRIMARY KEY, rev INTEGER NOT NULL, owner_token_hash TEXT NOT NULL,
      modified INTEGER NOT NULL UNIQUE, listed INTEGER NOT NULL, test INTEGER NOT NULL, date_modified TEXT NOT NULL,
      doc TEXT NOT NULL)`);
    const id = 'e'.repeat(32);
    old
      .prepare('INSERT INTO assets VALUES (?, 1, ?, 1000, 1, 0, ?, ?)')
      .run(
        id,
        'a'.repeat(64),
        '1970-01-01T03:00:00.001000+03:00',
        JSON.stringify({ id, title: 'old', owner: 'broker', dateModified: '1970-01-01T03:00:00.001000+03:00' }),
      );
    old.close();
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    try {
      const record = await store.get(id);
      expect(record).toMatchObject({ id, rev: 1, asset: { id, title: 'old' } });
      expect(record?.documentHistory).toEqual([]);
      const history = [{ id: 'd'.repeat(32), title: 'v1' }];
      const updated = await store.update(id, 1, (stamp) =>
        written({ ...draftAt(stamp, { id }), documentHistory: history }),
      );
      expect(updated).not.toBe('conflict');
      expect((await store.get(id))?.documentHistory).toEqual(history);
    } finally {
      await store.close();
    }
  });
});

describe('embedded store: files', () => {
  /** Every entry below `dir`, relative, sorted. */
  function tree(dir: string): string[] {
    return (readdirSync(dir, { recursive: true }) as string[]).sort();
  }

  it('keeps a file as its bytes and its description in <DATA_DIR>/files, nothing else', async () => {
    const dataDir = freshDir();
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const key = 'ab'.padEnd(32, '0');
    await store.files.put({ key, contentType: 'text/plain', filename: 'a.txt', maxBytes: 100 }, [Buffer.from('hello')]);
    await store.close();
    expect(tree(join(dataDir, 'files'))).toEqual(['ab', `ab/${key}`, `ab/${key}.json`]);
    expect(readFileSync(join(dataDir, 'files', 'ab', key), 'utf8')).toBe('hello');
  });

  it('leaves no temporary file behind when an upload is refused or fails', async () => {
    const dataDir = freshDir();
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const key = 'cd'.padEnd(32, '1');
    await expect(
      store.files.put({ key, contentType: 'text/plain', filename: 'a.txt', maxBytes: 4 }, [Buffer.from('hello')]),
    ).rejects.toThrow('larger than 4 bytes');
    await store.close();
    expect(tree(join(dataDir, 'files'))).toEqual(['cd']);
  });

  it('sweeps temporary files a crash left an hour ago or more, and keeps younger ones', async () => {
    const dataDir = freshDir();
    const shard = join(dataDir, 'files', 'ef');
    mkdirSync(shard, { recursive: true });
    const old = join(shard, `.${'ef'.padEnd(32, '2')}.0a0a0a0a0a0a.part`);
    const young = join(shard, `.${'ef'.padEnd(32, '3')}.0b0b0b0b0b0b.part`);
    writeFileSync(old, 'half a file');
    writeFileSync(young, 'half a file, still being written');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    await store.close();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
  });
});

describe('embedded store', () => {
  it('creates the folder and keeps one WAL-mode file in it', async () => {
    const dataDir = join(freshDir(), 'nested', 'deeper');
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    await store.close();
    const file = join(dataDir, 'registry.sqlite');
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('moves the WAL into the database file by itself: checkpoints run in a worker, no COMMIT waits for one', async () => {
    const dataDir = freshDir();
    const store = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const file = join(dataDir, 'registry.sqlite');
    const empty = statSync(file).size;
    const drafts = Array.from({ length: 500 }, (_, i) => {
      const draft = draftAt({ now: 1_700_000_000_000_000 + i });
      draft.asset.description = 'x'.repeat(2000);
      return draft;
    });
    await store.bulkInsert(drafts);
    // The writer's automatic checkpoints are off: only the worker moves the pages into the database file.
    await waitFor(() => statSync(file).size > empty + 500 * 2000, 5000);
    expect((await store.list({ descending: false, limit: 1000, mode: 'all', fields: [] })).length).toBe(500);
    await store.close();
  });

  it('rewrites the documents of a database made before they were kept in the wire format, once', async () => {
    const dataDir = freshDir();
    const first = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const made = [];
    for (const amount of [100, 2.5]) {
      made.push(
        await first.create((stamp) => {
          const draft = draftAt(stamp);
          draft.asset.value = { amount, currency: 'UAH' };
          return written(draft);
        }),
      );
    }
    await first.close();
    // As an earlier version left it: JSON.stringify's text, schema version 0.
    const db = new Database(join(dataDir, 'registry.sqlite'));
    for (const record of made)
      db.prepare('UPDATE assets SET doc = ? WHERE id = ?').run(JSON.stringify(record.asset), record.id);
    db.pragma('user_version = 0');
    db.close();

    const reopened = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const texts = await Promise.all(made.map(async (record) => (await reopened.getText(record.id))!.bytes.toString()));
    expect(texts[0]).toContain('"amount":100.0,');
    expect(texts[1]).toContain('"amount":2.5,');
    expect(texts.map((text) => JSON.parse(text))).toEqual(made.map((record) => record.asset));
    expect(await reopened.get(made[0]!.id)).toEqual(made[0]);
    await reopened.close();
    const check = new Database(join(dataDir, 'registry.sqlite'), { readonly: true });
    // The rewrite's version, 1, and then history's (every asset has revision 1), 2.
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });

  it('keeps records, revisions and day counters across close and reopen', async () => {
    const dataDir = freshDir();
    const first = openEmbeddedStore({ dataDir, timeZone: ZONE });
    let firstDay = '';
    const created = await first.create((stamp) => {
      firstDay = stamp.day;
      return written(draftAt(stamp, { title: 'kept' }));
    });
    const updated = await first.update(created.id, 1, (stamp) =>
      written(draftAt(stamp, { id: created.id, title: 'kept too' })),
    );
    await first.close();

    const reopened = openEmbeddedStore({ dataDir, timeZone: ZONE });
    expect(await reopened.get(created.id)).toEqual(updated);
    const rows = await reopened.list({ descending: false, limit: 10, mode: 'all', fields: [] });
    expect(rows.map((row) => row.id)).toEqual([created.id]);
    let next: { day: string; dayIndex: number } | undefined;
    const second = await reopened.create((stamp) => {
      next = stamp;
      return written(draftAt(stamp));
    });
    expect(next!.dayIndex).toBe(next!.day === firstDay ? 2 : 1);
    if (updated === 'conflict') throw new Error('unexpected conflict');
    expect(second.modified).toBeGreaterThan(updated.modified);
    await reopened.close();
  });

  it('refuses a draft whose modified is not the stamp it was given', async () => {
    const store = openEmbeddedStore({ dataDir: freshDir(), timeZone: ZONE });
    await expect(store.create((stamp) => written({ ...draftAt(stamp), modified: stamp.now - 1 }))).rejects.toThrow(
      /write stamp/,
    );
    const record = await store.create((stamp) => written(draftAt(stamp)));
    expect(record.asset.assetID).toMatch(/-000001$/);
    await expect(
      store.update(record.id, 1, (stamp) => written(draftAt(stamp, { id: 'e'.repeat(32) }))),
    ).rejects.toThrow(/another id/);
    expect(await store.get(record.id)).toEqual(record);
    await store.close();
  });

  it('formats no date itself: a record whose document has no dateModified text is refused, nothing inserted', async () => {
    const store = openEmbeddedStore({ dataDir: freshDir(), timeZone: ZONE });
    const draft = draftAt({ now: Date.UTC(2026, 10, 22, 10, 30, 17, 615) * 1000 + 196 });
    delete draft.asset.dateModified;
    await expect(store.bulkInsert([draft])).rejects.toThrow(/no dateModified text/);
    expect(await store.get(draft.id)).toBeUndefined();
    await store.close();
  });

  it('signals the writes of another connection (as of another process) through its data_version poll', async () => {
    const dataDir = freshDir();
    const watched = openEmbeddedStore({ dataDir, timeZone: ZONE });
    const other = openEmbeddedStore({ dataDir, timeZone: ZONE });
    let calls = 0;
    const watch = await watched.watchWrites(() => calls++);
    expect(watch.method).toBe('data_version poll');
    // Writes through `other` are not this store's own: only the poll can see them, and it must, every time.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(0);
    for (let i = 0; i < 5; i++) {
      const before = calls;
      await other.create((stamp) => written(draftAt(stamp)));
      await waitFor(() => calls > before, 500);
    }
    await watch.close();
    await Promise.all([watched.close(), other.close()]);
  });

  it('refuses bulk records with a modified already taken, inserting none of the batch', async () => {
    const store = openEmbeddedStore({ dataDir: freshDir(), timeZone: ZONE });
    const taken = await store.create((stamp) => written(draftAt(stamp)));
    const fresh = draftAt({ now: taken.modified - 5 });
    await expect(store.bulkInsert([fresh, draftAt({ now: taken.modified })])).rejects.toThrow(/UNIQUE/);
    expect(await store.get(fresh.id)).toBeUndefined();
    await store.close();
  });
});

describe('embedded store shared by several processes', () => {
  const writerScript = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));
  const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

  interface Writer {
    ready: Promise<void>;
    start: () => void;
    report: Promise<WriterReport>;
  }

  /** Spawns a writer process; it opens the store, says `ready`, and writes once `start` is called. */
  function spawnWriter(dataDir: string, count: number, label: string): Writer {
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir, String(count), label], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let signalReady = () => {};
    const ready = new Promise<void>((resolve) => (signalReady = resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) signalReady();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const report = new Promise<WriterReport>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`writer ${label} exited with ${code}: ${err}`));
        else resolve(JSON.parse(out.slice('ready\n'.length)) as WriterReport);
      });
    });
    return { ready: Promise.race([ready, report.then(() => {})]), start: () => child.stdin.end('go\n'), report };
  }

  /**
   * Follows the feed like a client: pages after the last seen `modified` until `done` and a page comes back
   * empty. Also counts the rows it read while the writers were still at work.
   */
  async function followFeed(
    store: AssetStore,
    done: () => boolean,
  ): Promise<{ seen: ListedRow[]; seenWhileWriting: number }> {
    const seen: ListedRow[] = [];
    let seenWhileWriting = 0;
    let after: number | undefined;
    for (;;) {
      const finished = done();
      const page = await store.list({ after, descending: false, limit: 25, mode: 'all', fields: [] });
      seen.push(...page);
      if (!finished) seenWhileWriting += page.length;
      if (page.length > 0) after = page.at(-1)!.modified;
      else if (finished) return { seen, seenWhileWriting };
      // Let the writers' output and exit events through between pages.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  it('gives unique modified in commit order, gap-free day numbers and a complete feed', async () => {
    const dataDir = freshDir();
    const perWriter = 100;
    const labels = ['a', 'b', 'c'];
    // The writers open the new folder at the same time: creating the schema races too.
    const spawned = labels.map((label) => spawnWriter(dataDir, perWriter, label));
    await Promise.all(spawned.map((writer) => writer.ready));
    const reader = openEmbeddedStore({ dataDir, timeZone: ZONE });
    for (const writer of spawned) writer.start();
    const writers = Promise.all(spawned.map((writer) => writer.report));
    let writersDone = false;
    void writers.then(
      () => (writersDone = true),
      () => (writersDone = true),
    );
    const { seen: feed, seenWhileWriting } = await followFeed(reader, () => writersDone);
    const reports = await writers;
    // The run proves something only if the writes overlapped each other and the reading.
    expect(seenWhileWriting).toBeGreaterThan(0);
    const writerOfStamp = new Map(reports.flatMap((report) => report.stamps.map((stamp) => [stamp, report.label])));
    const writersInStampOrder = [...writerOfStamp.keys()]
      .sort((x, y) => x - y)
      .map((stamp) => writerOfStamp.get(stamp));
    const switches = writersInStampOrder.filter((label, i) => i > 0 && label !== writersInStampOrder[i - 1]).length;
    expect(switches).toBeGreaterThan(labels.length);

    // Every process saw its own writes stamped later and later.
    for (const report of reports) {
      for (let i = 1; i < report.stamps.length; i++) expect(report.stamps[i]!).toBeGreaterThan(report.stamps[i - 1]!);
    }

    // Across processes no stamp repeats, and nothing was lost.
    const allStamps = reports.flatMap((report) => report.stamps);
    expect(new Set(allStamps).size).toBe(allStamps.length);
    const created = reports.flatMap((report) => report.created);
    expect(created).toHaveLength(labels.length * perWriter);
    for (const report of reports) {
      for (const [id, modified] of Object.entries(report.finalModified)) {
        expect((await reader.get(id))?.modified).toBe(modified);
      }
    }

    // Day numbers are 1..n per day, and they were handed out in the same (commit) order as the stamps.
    const byDay = new Map<string, number[]>();
    for (const entry of created) byDay.set(entry.day, [...(byDay.get(entry.day) ?? []), entry.dayIndex]);
    for (const indexes of byDay.values()) {
      expect([...indexes].sort((x, y) => x - y)).toEqual(Array.from({ length: indexes.length }, (_, i) => i + 1));
    }
    const byCounter = [...created].sort((x, y) => x.day.localeCompare(y.day) || x.dayIndex - y.dayIndex);
    const byStamp = [...created].sort((x, y) => x.modified - y.modified);
    expect(byCounter.map((entry) => entry.id)).toEqual(byStamp.map((entry) => entry.id));

    // The follower saw every record at its final modified, and no modified twice.
    const feedStamps = feed.map((row) => row.modified);
    expect(new Set(feedStamps).size).toBe(feedStamps.length);
    const seen = new Set(feed.map((row) => `${row.id}@${row.modified}`));
    for (const report of reports) {
      for (const [id, modified] of Object.entries(report.finalModified)) expect(seen).toContain(`${id}@${modified}`);
    }
    await reader.close();
  }, 120_000);
});
