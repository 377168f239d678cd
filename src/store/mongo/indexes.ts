import type { Collection, Document, IndexDescription } from 'mongodb';

/** `feed` and `asset_id_counter` unique: so are `modified` and the assetID numbers. */
export const ASSET_INDEXES = [
  { key: { modified: 1 }, name: 'feed', unique: true },
  { key: { listed: 1, test: 1, modified: 1 }, name: 'listing' },
  { key: { listed: 1, modified: 1 }, name: 'listing_all' },
  { key: { counterKey: 1 }, name: 'asset_id_counter', unique: true },
] as const satisfies IndexDescription[];

/** For hints where several indexes could serve: one plan on every engine (test/store/mongo/explain.test.ts). */
export const INDEX = Object.fromEntries(ASSET_INDEXES.map((spec) => [spec.name, spec.name])) as {
  [Name in (typeof ASSET_INDEXES)[number]['name']]: Name;
};

/** Not unique: `_id` is, and DocumentDB checks a unique compound index against every entry sharing `rev`. */
export const REVISION_INDEXES = [{ key: { asset: 1, rev: 1 }, name: 'history' }] as const satisfies IndexDescription[];

/**
 * Drops an index whose uniqueness is not the one asked for (the history's was unique once), then creates the missing
 * ones in one command: a restart with its indexes in place sends only the read.
 */
export async function ensureIndexes<Doc extends Document>(
  collection: Collection<Doc>,
  specs: readonly IndexDescription[],
): Promise<void> {
  const existing = new Map((await collection.indexes().catch(() => [])).map((index) => [index.name, index]));
  const wanted = specs.filter((spec) => {
    const index = existing.get(spec.name!);
    return index === undefined || Boolean(index.unique) !== Boolean(spec.unique);
  });
  for (const spec of wanted) if (existing.has(spec.name!)) await collection.dropIndex(spec.name!);
  if (wanted.length > 0) await collection.createIndexes([...wanted]);
}
