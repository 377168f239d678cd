/**
 * Reading an asset's history over HTTP, and folding it with the JSON Patch library itself (not the registry's own
 * fold), so that a test compares the history with what `GET /assets/{id}` serves independently of the code under
 * test.
 */
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { expect } from 'vitest';
import type { Client } from './client.js';

export interface ServedRevision {
  rev: number;
  date: string;
  author: string;
  changes: Operation[];
  /** Once its entry is in the transparency log's latest checkpoint. */
  logIndex?: number;
}

export const revisionsPath = (id: string): string => `/api/0.1/assets/${id}/revisions`;

/** Every revision of the asset, read by following `next_page` from the start, `limit` at a time. */
export async function readHistory(client: Client, id: string, limit = 1000): Promise<ServedRevision[]> {
  const revisions: ServedRevision[] = [];
  let path = `${revisionsPath(id)}?limit=${limit}`;
  for (;;) {
    const res = await client.get(path);
    expect(res.status, res.text).toBe(200);
    revisions.push(...(res.json.data as ServedRevision[]));
    if (res.json.data.length === 0) return revisions;
    path = res.json.next_page.path as string;
  }
}

/** The revisions' changes applied in order to `from` (`{}`), by fast-json-patch with its operation checks on. */
function fold(revisions: readonly ServedRevision[], from: Record<string, unknown> = {}): Record<string, unknown> {
  let asset = from;
  for (const revision of revisions)
    asset = fastJsonPatch.applyPatch(asset, structuredClone(revision.changes), true, false).newDocument;
  return asset;
}

/**
 * The rules every history keeps (docs/decisions/0036-revisions-are-json-patches.md): revs 1 … n without gaps; each
 * `date` the `dateModified` its changes set (revision 1's the asset's creation); only add/remove/replace, never the
 * path ""; the fold of all of them is `served`, `dateModified` included.
 */
export function expectWellFormed(revisions: readonly ServedRevision[], served: Record<string, unknown>): void {
  expect(revisions.map((revision) => revision.rev)).toEqual(revisions.map((_, i) => i + 1));
  let asset: Record<string, unknown> = {};
  for (const revision of revisions) {
    for (const change of revision.changes) {
      expect(['add', 'remove', 'replace']).toContain(change.op);
      expect(change.path).not.toBe('');
    }
    asset = fold([revision], asset);
    expect(asset.dateModified, `revision ${revision.rev}`).toBe(revision.date);
  }
  expect(asset).toEqual(served);
}
