/** The history operations (docs/decisions/0036-revisions-are-json-patches.md): public, as the asset is. */
import type { components } from '../contract/generated/openapi.js';
import { ApiError, refusals } from '../domain/errors.js';
import {
  applyRevisions,
  parseRevisionsQuery,
  revisionsPage,
  SNAPSHOT_EVERY,
  type RevisionsQuery,
} from '../domain/history.js';
import type { JsonBytes, JsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import type { AssetStore, Revision } from '../store/types.js';
import type { LinkBase } from './assets.js';
import { servedAsset } from './served.js';
import { Turns } from './turns.js';

type RevisionPage = components['schemas']['RevisionPage'];
type Asset = components['schemas']['Asset'];

/**
 * What a revision read takes from the store at a time: the changes it applies are read in chunks of about this
 * many bytes, the event loop let go between them; a page lets it go after encoding as many
 * (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md).
 */
const REPLAY_CHUNK_BYTES = 1024 * 1024;
/**
 * History pages and revision reads served at once by a node; the others wait their turn, so the event loop runs at
 * most this many of their steps between two other requests (docs/decisions/0058-history-reads-take-turns.md).
 */
const HISTORY_READS_AT_ONCE = 2;

const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const COMMA = Buffer.from(',');

export class HistoryService {
  private readonly turns = new Turns(HISTORY_READS_AT_ONCE);

  constructor(
    private readonly store: AssetStore,
    /** HISTORY_PAGE_BYTES (docs/decisions/0055-history-pages-bounded-in-bytes.md). */
    private readonly pageBytes: number,
  ) {}

  /** The query checked (400), and 404 for an unknown asset whatever the query: all HEAD needs. */
  private async check(assetId: string, query: Record<string, unknown>): Promise<RevisionsQuery> {
    let page: RevisionsQuery;
    try {
      page = parseRevisionsQuery(query);
    } catch (error) {
      if (error instanceof ApiError && (await this.store.getText(assetId)) === undefined)
        throw refusals.notFound('asset_id');
      throw error;
    }
    return page;
  }

  /** HEAD of a page: the refusals GET would answer, nothing of the history read. */
  async checkPage(assetId: string, query: Record<string, unknown>): Promise<void> {
    await this.check(assetId, query);
    if ((await this.store.getText(assetId)) === undefined) throw refusals.notFound('asset_id');
  }

  /** HEAD of a revision: the refusals GET would answer, from that one revision, nothing applied. */
  async checkRevision(assetId: string, rev: string): Promise<void> {
    const wanted = Math.min(Number(rev), Number.MAX_SAFE_INTEGER);
    const revisions = await this.store.revisions(assetId, wanted - 1, 1, 1);
    if (revisions === undefined) throw refusals.notFound('asset_id');
    if (revisions.length === 0) throw refusals.notFound('rev');
  }

  /** The answer's bytes, at most HISTORY_PAGE_BYTES unless its one revision is larger. */
  async list(assetId: string, query: Record<string, unknown>, links: LinkBase): Promise<JsonBytes<RevisionPage>> {
    const page = await this.check(assetId, query);
    return this.turns.run(() => this.pageBytesOf(assetId, page, links));
  }

  private async pageBytesOf(assetId: string, page: RevisionsQuery, links: LinkBase): Promise<JsonBytes<RevisionPage>> {
    // The store stops reading once the changes alone reach the bound: the page ends at or before that revision.
    // The page's log indexes read beside it: one round trip for both.
    const [revisions, indexes] = await Promise.all([
      this.store.revisions(assetId, page.after, page.limit, this.pageBytes),
      this.store.log.indexes(assetId, page.after, page.after + page.limit),
    ]);
    if (revisions === undefined) throw refusals.notFound('asset_id');
    const served = withLogIndexes(revisions, indexes);
    // The envelope, its `next_page` as long as any cut of this page could make it.
    let bytes = Buffer.byteLength(
      toJson({ data: [], next_page: revisionsPage(page, revisions.slice(-1), links).next_page }),
    );
    // Each revision encoded once, the event loop let go after each chunk's worth: a page of large revisions is many
    // short steps, one of small revisions a single step.
    const encoded: Buffer[] = [];
    let sinceYield = 0;
    for (const revision of served) {
      if (sinceYield >= REPLAY_CHUNK_BYTES) {
        await yieldToOthers();
        sinceYield = 0;
      }
      const one = Buffer.from(toJson(revision));
      sinceYield += one.length;
      const more = one.length + (encoded.length > 0 ? 1 : 0);
      if (encoded.length > 0 && bytes + more > this.pageBytes) break;
      encoded.push(one);
      bytes += more;
    }
    const kept = revisions.slice(0, encoded.length);
    const { next_page: next } = revisionsPage(page, kept, links);
    const data = encoded.flatMap((one, i) => (i > 0 ? [COMMA, one] : [one]));
    return Buffer.concat([
      Buffer.from('{"data":['),
      ...data,
      Buffer.from(`],"next_page":${toJson(next)}}`),
    ]) as JsonBytes<RevisionPage>;
  }

  /**
   * The asset as served right after revision `rev` (the route checked its form); 404 beyond the last one. From the
   * nearest snapshot at or below `rev`: at most SNAPSHOT_EVERY - 1 revisions' changes applied, a chunk at a time.
   */
  async at(assetId: string, rev: string): Promise<Asset> {
    return this.turns.run(() => this.assetAt(assetId, Math.min(Number(rev), Number.MAX_SAFE_INTEGER)));
  }

  private async assetAt(assetId: string, wanted: number): Promise<Asset> {
    // Below the first snapshot's rev none can be kept: no round trip for it.
    const snapshot = wanted >= SNAPSHOT_EVERY ? await this.store.snapshot(assetId, wanted) : undefined;
    let asset: JsonObject = snapshot?.asset ?? {};
    let after = snapshot?.rev ?? 0;
    // How many revisions the next chunk asks for: as many as the last one held when its bytes cut it short, twice as
    // many when they did not. A store that fetches what it is asked for in one batch (MongoDB) then fetches about
    // a chunk, not the rest of the range for each chunk.
    let limit = wanted - after;
    while (after < wanted) {
      const revisions = await this.store.revisions(assetId, after, Math.min(limit, wanted - after), REPLAY_CHUNK_BYTES);
      if (revisions === undefined) throw refusals.notFound('asset_id');
      if (revisions.length === 0) throw refusals.notFound('rev');
      asset = applyRevisions(asset, revisions);
      after = revisions[revisions.length - 1]!.rev;
      limit = revisions.length < limit ? revisions.length : limit * 2;
      if (after < wanted) await yieldToOthers();
    }
    // What every revision of a stored asset folds into is an asset the registry served: checked as one.
    return servedAsset(asset);
  }
}

/** Each revision whose entry is in the log's latest checkpoint points at it (docs/decisions/0066-log-order-and-integration.md). */
function withLogIndexes(revisions: Revision[], indexes: ReadonlyMap<number, number>): RevisionPage['data'] {
  return revisions.map((revision) => {
    const logIndex = indexes.get(revision.rev);
    return logIndex === undefined ? revision : { ...revision, logIndex };
  });
}
