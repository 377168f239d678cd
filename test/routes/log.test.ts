/**
 * The transparency log over HTTP (docs/decisions/0068-the-log-served-as-tlog-tiles.md): the checkpoint, the verifier
 * key, hash tiles and entry bundles as C2SP tlog-tiles serves them, and `logIndex` on the revisions.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { leafHash, TILE_WIDTH } from '../../src/domain/log/merkle.js';
import { parseVerifierKey } from '../../src/domain/log/note.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { expectOneError } from '../helpers/expect.js';
import { readHistory } from '../helpers/history.js';
import {
  checkpointOf,
  LOG,
  rootOfServedTree,
  servedEntries,
  servedHashes,
  tilePath,
  vkeyOf,
  waitForLogIndexes,
  waitForLogSize,
} from '../helpers/log.js';
import { useServer } from '../helpers/server.js';
import { draftAt } from '../store/fixtures/drafts.js';

const server = useServer();
const { broker: owner, anonymous: reader } = server;

/** The entry an auditor builds from a revision as `GET /assets/{id}/revisions` serves it. */
function entryOf(asset: string, revision: { rev: number; date: string; author: string; changes: unknown }): Buffer {
  const changes = createHash('sha256').update(canonicalize(revision.changes)!, 'utf8').digest('hex');
  const { rev, date, author } = revision;
  return Buffer.from(canonicalize({ asset, rev, date, author, changes })!, 'utf8');
}

describe('the checkpoint and the verifier key', () => {
  it('serves a signed checkpoint as text, never cached, verified by the served key whose name is its origin', async () => {
    const vkey = await vkeyOf(reader);
    const verifier = parseVerifierKey(vkey)!;
    expect(verifier.name).toMatch(/^claimrights-registry\.invalid\/[0-9a-f]{16}$/);
    const res = await reader.get(`${LOG}/checkpoint`);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const checkpoint = await checkpointOf(reader, vkey);
    expect(checkpoint.origin).toBe(verifier.name);
    expect(res.text.split('\n')[0]).toBe(verifier.name);
  });

  it('answers HEAD as GET without a body, and other methods 405', async () => {
    const head = await reader.request('HEAD', `${LOG}/checkpoint`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await owner.post(`${LOG}/checkpoint`, {});
    expectOneError(post, 405, 'method', 'method');
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('revisions in the log', () => {
  it('puts every revision in a checkpoint within 2 s, its entry the JCS of the revision, at its logIndex', async () => {
    const vkey = await vkeyOf(reader);
    const { id, token } = await createAsset(owner);
    await toPending(owner, id, token);
    const answered = Date.now();
    await waitForLogIndexes(reader, [id]);
    expect(Date.now() - answered).toBeLessThan(2000);
    const checkpoint = await checkpointOf(reader, vkey);
    const integrated = await readHistory(reader, id);
    const entries = await servedEntries(reader, checkpoint.size);
    for (const revision of integrated) {
      expect(revision.logIndex, JSON.stringify(revision)).toBeTypeOf('number');
      expect(entries[revision.logIndex!]).toEqual(entryOf(id, revision));
    }
    expect(await rootOfServedTree(reader, checkpoint.size)).toEqual(checkpoint.root);
  });

  it('gives no logIndex before the entry is in a checkpoint', async () => {
    const { id } = await createAsset(owner);
    const [first] = await readHistory(reader, id);
    if (first!.logIndex === undefined) {
      expect(Object.keys(first!)).not.toContain('logIndex');
    }
    await waitForLogSize(reader, await vkeyOf(reader), 1);
  });
});

describe('tiles', () => {
  it('serves full tiles as immutable and partial ones for at most 5 s; the leaf hashes are those of the entries', async () => {
    const vkey = await vkeyOf(reader);
    const start = (await checkpointOf(reader, vkey)).size;
    const now = Date.now() * 1000;
    await server.store.bulkInsert(
      Array.from({ length: TILE_WIDTH + 10 }, (_, i) => draftAt({ now: now - 10_000_000 + i })),
    );
    const { size, root } = await waitForLogSize(reader, vkey, start + TILE_WIDTH + 10);
    const full = await reader.get(`${LOG}/tile/0/000`);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('application/octet-stream');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.raw.length).toBe(TILE_WIDTH * 32);
    const partial = await reader.get(tilePath(0, 1, size));
    expect(partial.status, partial.text).toBe(200);
    expect(partial.headers['cache-control']).toBe('public, max-age=5');
    const entries = await servedEntries(reader, size);
    const read = servedHashes(reader, size);
    const leaves = [...(await read(0, 0, TILE_WIDTH)), ...(await read(0, TILE_WIDTH, size))];
    expect(leaves).toEqual(entries.map(leafHash));
    expect(await rootOfServedTree(reader, size)).toEqual(root);
    const bundle = await reader.get(`${LOG}/tile/entries/000`);
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a tile the checkpoint does not cover 404 in the envelope, and a malformed path 404 as an unknown URL', async () => {
    expectOneError(await reader.get(`${LOG}/tile/0/x001/000`), 404, 'url', 'tile');
    expectOneError(await reader.get(`${LOG}/tile/entries/x001/000.p/3`), 404, 'url', 'tile');
    expectOneError(await reader.get(`${LOG}/tile/3/000`), 404, 'url', 'tile');
    for (const path of [
      'tile/0/1',
      'tile/0/0000',
      'tile/0/x000/001',
      'tile/00/000',
      'tile/0/000.p/0',
      'tile/0/000.p/256',
      'tile/0/000.p/',
      'tile/abc/000',
      'tile/entries/000.p/01',
      'tile/0/000/',
    ]) {
      const res = await reader.get(`${LOG}/${path}`);
      expectOneError(res, 404, 'url', 'path');
      expect(res.json.errors[0].description).toBe(`No such path: GET ${LOG}/${path}`);
    }
  });

  it('answers other methods on a tile 405', async () => {
    const res = await owner.post(`${LOG}/tile/0/000`, {});
    expectOneError(res, 405, 'method', 'method');
  });
});
