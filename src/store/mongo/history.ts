/**
 * Each asset's history in `revisions`, a document per revision. Without transactions, the asset's document is the
 * atomic write: it carries its latest revision (`latestRevision`), copied into `revisions` right after. Before
 * anything moves `latestRevision` on or serves a page, that revision is made sure of in the collection, so every
 * revision below a document's latest is always there (docs/decisions/0035-history-kept-beside-the-record.md).
 */
import type { Collection, Db } from 'mongodb';
import { changesBytes, keepsSnapshot } from '../../domain/history.js';
import type { JsonObject } from '../../domain/json.js';
import type { Revision, Snapshot } from '../types.js';
import { loggedByStamp, type AssetDoc } from './asset-document.js';
import { BULK_BATCH, isDuplicateKey, isRepeatedInsert } from './connection.js';

const COPIED_REMEMBERED = 10_000;
/** What copying a document's latest revision reads: `modified` and `counterKey` give the copy its stamp. */
const LATEST_PROJECTION = { rev: 1, revisions: 1, latestRevision: 1, modified: 1, counterKey: 1 };

export interface RevisionDoc extends Revision {
  /** `<asset>/<rev>`: a copy repeated is the same document. */
  _id: string;
  asset: string;
  /** A registry write's stamp (its `modified`): where the log takes it (log-scan.ts). */
  t?: number;
}

/**
 * The asset whole after every SNAPSHOT_EVERY-th revision, as JSON text (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md).
 * Written after the write it follows, as the copy of a revision is; one missing is only a longer read.
 */
interface SnapshotDoc {
  /** `<asset>/<rev, 16 digits>`: the `_id` index orders an asset's snapshots by rev. */
  _id: string;
  asset: string;
  rev: number;
  doc: string;
}

const REV_DIGITS = 16;
const snapshotId = (asset: string, rev: number): string => `${asset}/${String(rev).padStart(REV_DIGITS, '0')}`;

export interface History {
  readonly assets: Collection<AssetDoc>;
  readonly revisions: Collection<RevisionDoc>;
  readonly snapshots: Collection<SnapshotDoc>;
  /**
   * Per asset, the record `rev` at which this node last saw its latest revision copied, and that revision's number:
   * copies are never removed, so this only spares a read.
   */
  readonly copied: Map<string, { rev: number; revisions: number }>;
}

export function openHistory(db: Db, assets: Collection<AssetDoc>): History {
  return {
    assets,
    revisions: db.collection<RevisionDoc>('revisions'),
    snapshots: db.collection<SnapshotDoc>('snapshots'),
    copied: new Map(),
  };
}

export function revisionDoc(asset: string, revision: Revision, t?: number): RevisionDoc {
  return {
    _id: `${asset}/${revision.rev}`,
    asset,
    rev: revision.rev,
    date: revision.date,
    author: revision.author,
    changes: revision.changes,
    ...(t === undefined ? {} : { t }),
  };
}

/** The stamp a copy of a document's latest revision carries: a registry write's only. */
function stampOfLatest(doc: Pick<AssetDoc, 'rev' | 'counterKey' | 'modified'>): number | undefined {
  return loggedByStamp(doc) ? Number(doc.modified) : undefined;
}

function latestOf(doc: Pick<AssetDoc, '_id' | 'revisions' | 'latestRevision'>): Revision {
  const { latestRevision } = doc;
  if (latestRevision === undefined || doc.revisions === undefined) throw new Error(`asset ${doc._id} has no history`);
  return {
    rev: Number(doc.revisions),
    date: latestRevision.date,
    author: latestRevision.author,
    changes: latestRevision.changes,
  };
}

function rememberCopied(history: History, id: string, rev: number, revisions: number): void {
  history.copied.delete(id);
  history.copied.set(id, { rev, revisions });
  if (history.copied.size > COPIED_REMEMBERED) {
    history.copied.delete(history.copied.keys().next().value as string);
  }
}

/** Each an idempotent upsert. */
export async function keepRevisions(history: History, docs: readonly RevisionDoc[]): Promise<void> {
  if (docs.length === 0) return;
  const operations = docs.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }));
  for (let attempt = 1; ; attempt++) {
    try {
      await history.revisions.bulkWrite(operations, { ordered: false });
      return;
    } catch (error) {
      // Two readers repairing one revision at once: the second finds it there when repeated.
      if (!isDuplicateKey(error) || attempt >= 3) throw error;
    }
  }
}

/** Skips those already there (a repeated bulk insert): one insert, not an upsert each, far cheaper on DocumentDB. */
export async function insertRevisions(history: History, docs: readonly RevisionDoc[]): Promise<void> {
  if (docs.length === 0) return;
  try {
    await history.revisions.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!isRepeatedInsert(error)) throw error;
  }
}

export async function copyLatest(
  history: History,
  id: string,
  rev: number,
  latest: Revision,
  t: number,
): Promise<void> {
  try {
    await keepRevisions(history, [revisionDoc(id, latest, t)]);
    rememberCopied(history, id, rev, latest.rev);
  } catch {
    // The write is done and its revision kept in the asset's document: the next reader or writer copies it.
  }
}

/** Copies the latest revision of the asset at record `rev` first; `undefined` when gone or no longer at `rev`. */
export async function copiedBefore(history: History, id: string, rev: number): Promise<number | undefined> {
  const known = history.copied.get(id);
  if (known?.rev === rev) return known.revisions;
  const doc = await history.assets.findOne({ _id: id }, { projection: LATEST_PROJECTION });
  if (doc === null || Number(doc.rev) !== rev) return undefined;
  const latest = latestOf(doc);
  await keepRevisions(history, [revisionDoc(id, latest, stampOfLatest(doc))]);
  rememberCopied(history, id, rev, latest.rev);
  return latest.rev;
}

/** The snapshots of `text`'s revision, idempotent upserts; a failure leaves a longer read, never a wrong one. */
export async function keepSnapshots(
  history: History,
  id: string,
  snapshots: readonly { rev: number; text: string }[],
): Promise<void> {
  if (snapshots.length === 0) return;
  await history.snapshots.bulkWrite(
    snapshots.map(({ rev, text }) => {
      const _id = snapshotId(id, rev);
      return { replaceOne: { filter: { _id }, replacement: { _id, asset: id, rev, doc: text }, upsert: true } };
    }),
    { ordered: false },
  );
}

/** Every snapshot of these assets, in one command: an import that replaces an asset replaces its history. */
export async function dropSnapshots(history: History, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const ranges = ids.map((id) => ({
    _id: { $gte: snapshotId(id, 0), $lte: snapshotId(id, Number.MAX_SAFE_INTEGER) },
  }));
  await history.snapshots.deleteMany({ $or: ranges });
}

/** After a write that added revision `rev`, its asset `text` when `rev` keeps a snapshot. */
export async function snapshotAfterWrite(history: History, id: string, rev: number, text: () => string): Promise<void> {
  if (!keepsSnapshot(rev)) return;
  try {
    await keepSnapshots(history, id, [{ rev, text: text() }]);
  } catch {
    // The write is done: a revision read then starts from the snapshot before.
  }
}

export async function readSnapshot(history: History, id: string, rev: number): Promise<Snapshot | undefined> {
  const doc = await history.snapshots.findOne(
    { _id: { $gte: snapshotId(id, 0), $lte: snapshotId(id, rev) } },
    { sort: { _id: -1 } },
  );
  return doc === null ? undefined : { rev: Number(doc.rev), asset: JSON.parse(doc.doc) as JsonObject };
}

export async function readRevisions(
  history: History,
  id: string,
  after: number,
  limit: number,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Revision[] | undefined> {
  const doc = await history.assets.findOne({ _id: id }, { projection: LATEST_PROJECTION });
  if (doc === null) return undefined;
  const latest = latestOf(doc);
  const cursor = history.revisions
    // Revs are gap-free, so the page is exactly this range: an engine that sorts what a range matches (DocumentDB)
    // sorts one page, not the rest of the history.
    .find(
      { asset: id, rev: { $gt: after, $lte: Math.min(latest.rev, after + limit) } },
      { sort: { rev: 1 }, limit, batchSize: Math.min(limit, BULK_BATCH) },
    );
  const page: Revision[] = [];
  let bytes = 0;
  // Document by document: the page's bound in bytes stops the reading (and closes the cursor).
  for await (const kept of cursor) {
    page.push({ rev: Number(kept.rev), date: kept.date, author: kept.author, changes: kept.changes });
    bytes += changesBytes(JSON.stringify(kept.changes));
    if (bytes >= maxBytes) return page;
  }
  // The latest may not be in the collection yet (a write cut short).
  const wanted = Math.max(0, Math.min(limit, latest.rev - after));
  if (page.length < wanted) {
    if (page.length !== wanted - 1 || (page.length > 0 && page[page.length - 1]!.rev !== latest.rev - 1)) {
      throw new Error(`the history of ${id} misses revisions below its latest, ${latest.rev}`);
    }
    await keepRevisions(history, [revisionDoc(id, latest, stampOfLatest(doc))]);
    rememberCopied(history, id, Number(doc.rev), latest.rev);
    page.push(latest);
  }
  return page;
}
