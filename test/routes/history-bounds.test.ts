/**
 * What one client can make a node spend on an asset's history (docs/decisions/0055-history-pages-bounded-in-bytes.md,
 * docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md): pages bounded in bytes, revisions read from
 * the nearest snapshot, on a server whose HISTORY_PAGE_BYTES is small enough for a test's history.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { Response } from '../helpers/client.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { expectWellFormed, readHistory, revisionsPath, type ServedRevision } from '../helpers/history.js';
import { useServer } from '../helpers/server.js';
import { SNAPSHOT_EVERY } from '../../src/domain/history.js';

const PAGE_BYTES = 20_000;
const server = useServer({ HISTORY_PAGE_BYTES: String(PAGE_BYTES) });
const { broker: owner, anonymous: reader } = server;
const assetPath = (id: string) => `/api/0.1/assets/${id}`;

function ok(res: Response): any {
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Revisions of about 4.6 KB each, then one of about 40 KB (above the bound), then small ones. */
async function largeHistory(): Promise<string> {
  const { id, token } = await createAsset(owner);
  await toPending(owner, id, token);
  const edit = async (description: string) =>
    ok(await owner.patch(assetPath(id), { data: { description } }, { token }));
  for (let i = 0; i < 12; i++) await edit(`${i} ${'d'.repeat(4500)}`);
  await edit('é'.repeat(20_000));
  for (let i = 0; i < 5; i++) await edit(`short ${i}`);
  return id;
}

describe('GET /assets/{id}/revisions bounded by HISTORY_PAGE_BYTES (record 0055)', () => {
  it('ends a page before the revision that would take it past the bound, at least one revision a page', async () => {
    const id = await largeHistory();
    const pages: { bytes: number; data: ServedRevision[] }[] = [];
    let path = `${revisionsPath(id)}?limit=1000`;
    for (;;) {
      const res = await reader.get(path);
      const body = ok(res);
      if (body.data.length === 0) break;
      pages.push({ bytes: Buffer.byteLength(res.text), data: body.data });
      // next_page continues after the last revision held; limit stays as asked.
      expect(body.next_page.offset).toBe(body.data.at(-1).rev);
      expect(body.next_page.path).toBe(`${revisionsPath(id)}?limit=1000&offset=${body.data.at(-1).rev}`);
      path = body.next_page.path;
    }
    expect(pages.length).toBeGreaterThan(3);
    for (const [i, page] of pages.entries()) {
      if (page.data.length > 1) expect(page.bytes, `page ${i}`).toBeLessThanOrEqual(PAGE_BYTES);
      const next = pages[i + 1]?.data[0];
      // One more revision (and its comma) would have gone past the bound.
      if (next !== undefined)
        expect(page.bytes + Buffer.byteLength(JSON.stringify(next)) + 1).toBeGreaterThan(PAGE_BYTES);
    }
    // The 40 KB revision alone on its page; pages of the 4.6 KB ones hold several.
    const large = pages.find((page) =>
      page.data.some((revision) =>
        revision.changes.some(
          (c) => c.path === '/description' && String((c as { value?: unknown }).value).startsWith('é'),
        ),
      ),
    );
    expect(large?.data).toHaveLength(1);
    expect(large!.bytes).toBeGreaterThan(PAGE_BYTES);
    expect(Math.max(...pages.map((page) => page.data.length))).toBeGreaterThan(2);
    const revisions = pages.flatMap((page) => page.data);
    expectWellFormed(revisions, ok(await reader.get(assetPath(id))).data);
  });

  it('keeps limit as an upper bound', async () => {
    const id = await largeHistory();
    expect(
      ok(await reader.get(`${revisionsPath(id)}?limit=2&offset=2`)).data.map((r: ServedRevision) => r.rev),
    ).toEqual([3, 4]);
    expect(
      ok(await reader.get(`${revisionsPath(id)}?limit=3&offset=15`)).data.map((r: ServedRevision) => r.rev),
    ).toEqual([16, 17, 18]);
  });
});

describe('GET /assets/{id}/revisions/{rev} past snapshots (record 0056)', () => {
  it('serves the asset as it was after each revision, before, at and after a snapshot', async () => {
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const count = SNAPSHOT_EVERY + 5;
    for (let rev = 3; rev <= count; rev++)
      ok(await owner.patch(assetPath(id), { data: { title: `назва ${rev}` } }, { token }));
    const revisions = await readHistory(reader, id);
    expect(revisions).toHaveLength(count);
    for (const rev of [1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, count]) {
      const at = ok(await reader.get(`${revisionsPath(id)}/${rev}`)).data;
      expectWellFormed(revisions.slice(0, rev), at);
    }
    expect((await reader.get(`${revisionsPath(id)}/${count + 1}`)).status).toBe(404);

    // What the read costs: with every revision below the snapshot gone from the store, the revisions from the
    // snapshot on still read as before (a read from revision 1 would find its history broken).
    const expected = ok(await reader.get(`${revisionsPath(id)}/${count}`)).data;
    await deleteRevisionsBelow(id, SNAPSHOT_EVERY);
    expect(ok(await reader.get(`${revisionsPath(id)}/${count}`)).data).toEqual(expected);
    expectWellFormed(
      revisions.slice(0, SNAPSHOT_EVERY),
      ok(await reader.get(`${revisionsPath(id)}/${SNAPSHOT_EVERY}`)).data,
    );
  });
});

/** Straight in the store the server runs on. */
async function deleteRevisionsBelow(id: string, rev: number): Promise<void> {
  if (server.mongodbUri !== undefined) {
    const client = new MongoClient(server.mongodbUri);
    try {
      await client
        .db()
        .collection('revisions')
        .deleteMany({ asset: id, rev: { $lt: rev } });
    } finally {
      await client.close();
    }
    return;
  }
  const db = new Database(join(server.dataDir, 'registry.sqlite'));
  try {
    db.prepare('DELETE FROM revisions WHERE asset_id = ? AND rev < ?').run(id, rev);
  } finally {
    db.close();
  }
}
