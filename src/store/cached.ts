/**
 * A node's cache of asset texts (`getText`) and feed pages (`list`), wrapping the store interface so that both
 * engines are cached alike. Exact by generations, not by expiry: every write of any process starts a new generation
 * (this process's once committed, before their callers hear of them; others' when the watch signals them), and an
 * entry of an older one is never served (docs/decisions/0028-served-cache-exact-by-generations.md).
 */
import { LRUCache } from 'lru-cache';
import type { ListedRow } from '../domain/listing.js';
import type { AssetStore, AssetText, ListQuery, WriteWatch } from './types.js';

export interface ServedCacheOptions {
  /** Asset texts and feed pages together, as weighed below; 0 turns the cache off. */
  maxBytes: number;
}

interface Entry<T> {
  generation: number;
  value: T;
  size: number;
}

/** Rough costs beyond the bytes: an entry with its key and slot, a feed row with its strings. */
const ENTRY_OVERHEAD = 200;
/** What the process was measured to pay per kept byte (docs/performance.md): `maxBytes` is then what it pays. */
const MEMORY_PER_BYTE = 2;
const ROW_OVERHEAD = 160;

function rowsSize(rows: readonly ListedRow[]): number {
  let size = 0;
  for (const row of rows) {
    size += ROW_OVERHEAD;
    if (row.fields !== undefined) for (const field of row.fields) size += field?.length ?? 0;
  }
  return MEMORY_PER_BYTE * size + ENTRY_OVERHEAD;
}

function listKey(query: ListQuery): string {
  return `${query.mode}|${query.descending ? 'd' : 'a'}|${query.after ?? ''}|${query.limit}|${query.fields.join(',')}`;
}

/** Every request read in a turn was sent before the turn began: one look at its first read is exact for all. */
function lookOncePerTurn(look: () => void): () => void {
  let looked = false;
  const nextTurn = () => {
    looked = false;
  };
  return () => {
    if (looked) return;
    looked = true;
    look();
    setImmediate(nextTurn);
  };
}

export interface CachedStore extends AssetStore {
  /** For an owner that closes the store itself (`close` does both). */
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

  function kept<T extends AssetText | ListedRow[]>(key: string): T | undefined {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation === generation) return entry.value as T;
    entries.delete(key);
    return undefined;
  }

  const check = watch?.check === undefined ? undefined : lookOncePerTurn(watch.check);

  /** A value read while a generation began may be the older one: served, not kept. */
  async function readThrough<T extends AssetText | ListedRow[]>(
    key: string,
    read: () => Promise<T | undefined>,
    size: (value: T) => number,
  ) {
    if (!enabled) return read();
    check?.();
    const hit = kept<T>(key);
    if (hit !== undefined) return hit;
    const readIn = generation;
    const value = await read();
    if (value !== undefined && readIn === generation)
      entries.set(key, { generation: readIn, value, size: size(value) });
    return value;
  }

  /** A failed write may have committed: a new generation either way. */
  function writing<A extends unknown[], R>(write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      try {
        return await write(...args);
      } finally {
        newGeneration();
      }
    };
  }

  return {
    transfers: store.transfers,
    files: store.files,
    log: store.log,
    create: writing((build) => store.create(build)),
    get: (id) => store.get(id),
    getText: (id) =>
      readThrough(
        `a:${id}`,
        () => store.getText(id),
        (text) => MEMORY_PER_BYTE * text.bytes.length + ENTRY_OVERHEAD,
      ),
    update: writing((id, expectedRev, build) => store.update(id, expectedRev, build)),
    revisions: (id, after, limit, maxBytes) => store.revisions(id, after, limit, maxBytes),
    snapshot: (id, rev) => store.snapshot(id, rev),
    list: (query) =>
      check === undefined
        ? store.list(query)
        : (readThrough(`l:${listKey(query)}`, () => store.list(query), rowsSize) as Promise<ListedRow[]>),
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
