/**
 * What the history operations do (decisions.md §12), between the HTTP handlers and the store: a page of an asset's
 * revisions, and the asset as it was after one of them. Both are public, as the asset is; an unknown asset is 404
 * before the query is read.
 */
import type { components } from '../generated/openapi.js';
import { ApiError, refusals } from '../domain/errors.js';
import { assetAfter, parseRevisionsQuery, revisionsPage, type RevisionsQuery } from '../domain/history.js';
import type { AssetStore } from '../store/types.js';
import type { LinkBase } from './assets.js';
import { servedAsset } from './served.js';

type RevisionPage = components['schemas']['RevisionPage'];
type Asset = components['schemas']['Asset'];

export class HistoryService {
  constructor(private readonly store: AssetStore) {}

  /** One page of the asset's revisions, oldest first; `links` is where its `next_page` points. */
  async list(assetId: string, query: Record<string, unknown>, links: LinkBase): Promise<RevisionPage> {
    let page: RevisionsQuery;
    try {
      page = parseRevisionsQuery(query);
    } catch (error) {
      // An unknown asset is 404 whatever the query (decisions.md §12).
      if (error instanceof ApiError && (await this.store.getText(assetId)) === undefined) throw refusals.notFound('asset_id');
      throw error;
    }
    const revisions = await this.store.revisions(assetId, page.after, page.limit);
    if (revisions === undefined) throw refusals.notFound('asset_id');
    return revisionsPage(page, revisions, links);
  }

  /**
   * The asset as served right after revision `rev` (the route checked its form): revisions 1 … rev applied to `{}`.
   * 404 `rev` beyond the last one.
   */
  async at(assetId: string, rev: string): Promise<Asset> {
    const wanted = Math.min(Number(rev), Number.MAX_SAFE_INTEGER);
    const revisions = await this.store.revisions(assetId, 0, wanted);
    if (revisions === undefined) throw refusals.notFound('asset_id');
    if (revisions.length < wanted) throw refusals.notFound('rev');
    // What every revision of a stored asset folds into is an asset the registry served: checked as one.
    return servedAsset(assetAfter(revisions));
  }
}
