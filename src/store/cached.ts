/**
 * A node's cache of what it serves most: the same store, with an asset's served text (`getText`) and the feed's
 * pages (`list`) kept in memory after they were read, up to a size. It wraps the interface, so both stores are
 * cached alike and neither knows of it.
 *
 * Exact, not eventually right. Every write of any process sharing the store starts a new generation of the cache,
 * and an entry of an older generation is never served:
 * - this process's writes (`create`, `update`, `bulkInsert`, an import's page) start it when the store has
 *   committed them, before their callers hear of them: a client reads its own writes from this node;
 * - other processes' writes start it when the store's write watch (`watchWrites`) signals them. Where the watch can
 *   look at once without a round trip (`check`: SQLite's data_version, a read of shared memory), reads look first
 *   (once per turn of the event loop, `lookOncePerTurn`), so no read serves anything older than the last commit of
 *   any process before its request was sent. Elsewhere (MongoDB: its change stream, or the clock polled every
 *   20 ms) an asset's text may lag another node's write by that interval, well inside the feed's 1 s; feed pages are
 *   then not kept at all, since a client following the feed across nodes must find every version acknowledged
 *   before it asked.
 * A read that was under way when a generation began is served but not kept: it may have read the older value.
 * A generation begins by counting one up; entries of older ones are dropped when met or pushed out by newer ones.
 */
import { LRUCache } from 'lru-cache';
import type { ListedRow } from '../domain/listing.js';
import type { AssetStore, AssetText, ImportStore, ListQuery, WriteWatch } from './types.js';

export interface ServedCacheOptions {
  /** Bytes of memory the cache may take (asset texts and feed pages together, as measured); 0 turns it off. */
  maxBytes: number;
}

interface Entry<T> {
  generation: number;
  value: T;
  size: number;
}

/** What a kept value costs beyond its bytes: the entry, its key and the map's slot, roughly. */
const ENTRY_OVERHEAD = 200;
/**
 * What a kept byte costs the process: measured, a cache of 16 MiB of texts filled by random reads of a million
 * assets grew the peak RSS by 35 MB (32 MiB by 66 MB): the allocator's share and the evicted values waiting for the
 * collector. Counting each byte twice makes `maxBytes` what the process pays.
 */
const MEMORY_PER_BYTE = 2;
/** What a feed row costs beyond its fields' texts: the object, its id and dateModified strings, roughly. */
const ROW_OVERHEAD = 160;

function rowsSize(rows: readonly ListedRow[]): number {
  let size = 0;
  for (const row of rows) {
    size += ROW_OVERHEAD;
    if (row.fields !== undefined) for (const field of row.fields) size += field?.length ?? 0;
  }
  return MEMORY_PER_BYTE * size + ENTRY_OVERHEAD;
}

/** The feed query as a key: every member that changes the page. */
function listKey(query: ListQuery): string {
  return `${query.mode}|${query.descending ? 'd' : 'a'}|${query.after ?? ''}|${query.limit}|${query.fields.join(',')}`;
}

/**
 * `look`, at most once per turn of the event loop. Every request read in a turn arrived before the turn began, so a
 * look at the turn's first read comes after every write acknowledged before any of them was sent: exact for all of
 * them, for one look instead of one per read (a look is a few microseconds, a cached read not many more).
 */
function lookOncePerTurn(look: () => void): () => void {
  let looked = false;
  const nextTurn = () => void (looked = false);
  return () => {
    if (looked) return;
    looked = true;
    look();
    setImmediate(nextTurn);
  };
}

export interface CachedStore extends AssetStore {
  /** Stops watching the store's writes, for an owner that closes the store itself (`close` does both). */
  stopWatching(): Promise<void>;
}

export async function cachedStore(store: AssetStore, options: ServedCacheOptions): Promise<CachedStore> {
  let generation = 0;
  const newGeneration = (): void => void generation++;
  const entries = new LRUCache<string, Entry<AssetText | ListedRow[]>>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (entry) => entry.size,
  });
  const enabled = options.maxBytes > 0;
  const watch: WriteWatch | undefined = enabled ? await store.watchWrites(newGeneration) : undefined;

  /** The kept value of `key` if it is of the current generation; an older one is dropped. */
  function kept<T extends AssetText | ListedRow[]>(key: string): T | undefined {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation === generation) return entry.value as T;
    entries.delete(key);
    return undefined;
  }

  const check = watch?.check === undefined ? undefined : lookOncePerTurn(watch.check);

  /** Reads through the cache: a value read while no write began is kept for the generation it was read in. */
  async function readThrough<T extends AssetText | ListedRow[]>(key: string, read: () => Promise<T | undefined>, size: (value: T) => number) {
    if (!enabled) return read();
    check?.();
    const hit = kept<T>(key);
    if (hit !== undefined) return hit;
    const readIn = generation;
    const value = await read();
    if (value !== undefined && readIn === generation) entries.set(key, { generation: readIn, value, size: size(value) });
    return value;
  }

  /** `write`, with a new generation once it is done (committed or not: a failed write may have committed). */
  function writing<A extends unknown[], R>(write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      try {
        return await write(...args);
      } finally {
        newGeneration();
      }
    };
  }

  const imports: ImportStore = {
    state: () => store.imports.state(),
    holdsOwnData: () => store.imports.holdsOwnData(),
    idsAt: (modified) => store.imports.idsAt(modified),
    writePage: writing((page) => store.imports.writePage(page)),
    reports: () => store.imports.reports(),
  };

  return {
    transfers: store.transfers,
    files: store.files,
    imports,
    create: writing((build) => store.create(build)),
    get: (id) => store.get(id),
    getText: (id) => readThrough(`a:${id}`, () => store.getText(id), (text) => MEMORY_PER_BYTE * text.bytes.length + ENTRY_OVERHEAD),
    update: writing((id, expectedRev, build) => store.update(id, expectedRev, build)),
    revisions: (id, after, limit) => store.revisions(id, after, limit),
    list: (query) =>
      check === undefined ? store.list(query) : (readThrough(`l:${listKey(query)}`, () => store.list(query), rowsSize) as Promise<ListedRow[]>),
    ping: () => store.ping(),
    bulkInsert: writing((records) => store.bulkInsert(records)),
    watchWrites: (onWrite) => store.watchWrites(onWrite),
    async close() {
      await watch?.close();
      await store.close();
    },
    async stopWatching() {
      await watch?.close();
    },
  };
}
