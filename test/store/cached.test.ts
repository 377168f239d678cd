/**
 * The node's cache of served texts and feed pages (src/store/cached.ts): the whole store contract holds through it,
 * and what only a cache can get wrong — serving a value read before a write, keeping more than its size — is
 * checked against a real embedded store whose reads are counted or held back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../src/store/sqlite/index.js';
import { cachedStore } from '../../src/store/cached.js';
import type { AssetStore, ListQuery } from '../../src/store/types.js';
import { describeStoreContract } from './contract.js';
import { draftAt, DRAFT_ZONE, written } from './fixtures/drafts.js';

const scratch = mkdtempSync(join(tmpdir(), 'registry-cached-'));
let dirCount = 0;
const freshStore = () => openEmbeddedStore({ dataDir: join(scratch, `store-${++dirCount}`), timeZone: DRAFT_ZONE });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeStoreContract('embedded (SQLite) through the served cache', () =>
  cachedStore(freshStore(), { maxBytes: 1 << 20 }),
);

const FEED: ListQuery = { descending: false, limit: 100, mode: 'all', fields: ['title'] };

/** The title of the asset's text as `store` serves it. */
async function titleOf(store: AssetStore, id: string): Promise<unknown> {
  return JSON.parse((await store.getText(id))!.bytes.toString('utf8')).title;
}

/** A real store whose `getText` and `list` calls are counted, and can be held back until `release`. */
function observed(store: AssetStore) {
  const calls = { getText: 0, list: 0 };
  let gate: Promise<void> | undefined;
  let open = () => {};
  return {
    calls,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      gate = undefined;
      open();
    },
    store: {
      ...store,
      async getText(id: string) {
        calls.getText++;
        const text = await store.getText(id);
        await gate;
        return text;
      },
      async list(query: ListQuery) {
        calls.list++;
        const rows = await store.list(query);
        await gate;
        return rows;
      },
    } satisfies AssetStore,
  };
}

describe('served cache', () => {
  const opened: AssetStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  async function setUp(maxBytes: number) {
    const base = freshStore();
    const watched = observed(base);
    const cached = await cachedStore(watched.store, { maxBytes });
    opened.push(cached);
    const a = await cached.create((stamp) => written(draftAt(stamp, { title: 'a' })));
    const b = await cached.create((stamp) => written(draftAt(stamp, { title: 'b' })));
    return { watched, cached, a, b };
  }

  it('serves a text and a page again without the store, and the new ones after a write', async () => {
    const { watched, cached, a } = await setUp(1 << 20);
    const first = await cached.getText(a.id);
    const page = await cached.list(FEED);
    expect(await cached.getText(a.id)).toBe(first);
    expect(await cached.list(FEED)).toBe(page);
    expect(watched.calls).toEqual({ getText: 1, list: 1 });

    await cached.update(a.id, a.rev, (stamp) => written(draftAt(stamp, { id: a.id, title: 'a, edited' })));
    expect(await titleOf(cached, a.id)).toBe('a, edited');
    expect((await cached.list(FEED)).map((row) => row.fields)).toContainEqual(['"a, edited"']);
    expect(watched.calls).toEqual({ getText: 2, list: 2 });
  });

  it("serves another process's write at once: every read looks at the store's data_version first", async () => {
    const { watched, cached, a } = await setUp(1 << 20);
    await cached.list(FEED);
    expect(await titleOf(cached, a.id)).toBe('a');
    // A second store on the same file: another process's connections, whose writes this cache never sees pass by.
    const other = openEmbeddedStore({ dataDir: join(scratch, `store-${dirCount}`), timeZone: DRAFT_ZONE });
    opened.push(other);
    await other.update(a.id, a.rev, (stamp) => written(draftAt(stamp, { id: a.id, title: 'a, by another' })));
    expect(await titleOf(cached, a.id)).toBe('a, by another');
    expect((await cached.list(FEED)).map((row) => row.fields)).toContainEqual(['"a, by another"']);
    expect(watched.calls).toEqual({ getText: 2, list: 2 });
  });

  it('does not keep a value whose read was under way when a write began', async () => {
    const { watched, cached, a } = await setUp(1 << 20);
    watched.hold();
    const reading = cached.getText(a.id);
    const listing = cached.list(FEED);
    await new Promise((resolve) => setTimeout(resolve, 5));
    watched.release();
    // The write is done before the held reads answer: they served what they read, and keep nothing.
    const update = cached.update(a.id, a.rev, (stamp) => written(draftAt(stamp, { id: a.id, title: 'a, edited' })));
    watched.hold();
    await update;
    watched.release();
    await Promise.all([reading, listing]);
    expect(await titleOf(cached, a.id)).toBe('a, edited');
    expect((await cached.list(FEED)).map((row) => row.fields)).toContainEqual(['"a, edited"']);
  });

  it('keeps no more than its size, and nothing with a size of 0', async () => {
    const small = await setUp(1100);
    await small.cached.getText(small.a.id);
    await small.cached.getText(small.b.id);
    await small.cached.getText(small.a.id);
    // Room for one asset's text (about 250 bytes, counted twice) and its entry's overhead (200): b pushed a out.
    expect(small.watched.calls.getText).toBe(3);

    const none = await setUp(0);
    await none.cached.getText(none.a.id);
    await none.cached.getText(none.a.id);
    await none.cached.list(FEED);
    await none.cached.list(FEED);
    expect(none.watched.calls).toEqual({ getText: 2, list: 2 });
  });
});
