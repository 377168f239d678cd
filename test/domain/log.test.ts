/**
 * The log's pure parts (docs/decisions/0065-transparency-log-entries-and-tree.md,
 * docs/decisions/0067-checkpoints-signed-notes-and-the-log-key.md): RFC 6962 roots against the Certificate
 * Transparency test vectors and a naive tree, tiles appended in any batches, consistency proofs, tile paths, and signed
 * notes against golang.org/x/mod/sumdb/note's own example key and signature.
 */
import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { logEntry } from '../../src/domain/log/entry.js';
import {
  appendLeaves,
  consistencyProof,
  EMPTY_ROOT,
  leafHash,
  levelCount,
  rootFromEdge,
  splitHashes,
  TILE_WIDTH,
  treeHash,
  verifyConsistency,
  type HashReader,
  type TreeEdge,
} from '../../src/domain/log/merkle.js';
import {
  checkpointText,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signNote,
  verifierKey,
} from '../../src/domain/log/note.js';
import { parseLevel, parseTileIndex, tileExists, tileIndexPath } from '../../src/domain/log/tile-paths.js';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** MTH of RFC 6962 §2.1, as written there. */
function naiveRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Buffer.from([0]), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k)));
}

/** A tree grown in batches, its tiles kept as a store keeps them. */
function grow(batches: readonly number[]): { entries: Buffer[]; tiles: Map<string, Buffer>; edge: TreeEdge } {
  const entries: Buffer[] = [];
  const tiles = new Map<string, Buffer>();
  let edge: TreeEdge = [];
  for (const count of batches) {
    const added = Array.from({ length: count }, () => randomBytes(1 + Math.floor(Math.random() * 40)));
    const appended = appendLeaves(edge, entries.length, added.map(leafHash));
    for (const tile of appended.tiles) tiles.set(`${tile.level}/${tile.index}`, tile.hashes);
    edge = appended.edge;
    entries.push(...added);
  }
  return { entries, tiles, edge };
}

function reader(tiles: Map<string, Buffer>): HashReader {
  return async (level, from, to) => {
    const index = Math.floor(from / TILE_WIDTH);
    const hashes = splitHashes(tiles.get(`${level}/${index}`)!);
    return hashes.slice(from - index * TILE_WIDTH, to - index * TILE_WIDTH);
  };
}

describe('the RFC 6962 tree', () => {
  it('gives the Certificate Transparency test vectors', () => {
    const inputs = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ];
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    let edge: TreeEdge = [];
    inputs.forEach((input, i) => {
      edge = appendLeaves(edge, i, [leafHash(Buffer.from(input, 'hex'))]).edge;
      expect(rootFromEdge(edge, i + 1).toString('hex')).toBe(roots[i]);
    });
  });

  it('gives the same root from its edge and from its tiles as the naive tree, however the leaves came', async () => {
    for (const batches of [[1], [255, 1], [256], [300, 5000, 1], [70000], [1, 65535, 1], Array(20).fill(97)]) {
      const { entries, tiles, edge } = grow(batches);
      const expected = naiveRoot(entries);
      expect(rootFromEdge(edge, entries.length)).toEqual(expected);
      expect(await treeHash(reader(tiles), entries.length)).toEqual(expected);
      // Every tile holds the hashes its level has: full ones 256, the last one the rest.
      for (let level = 0; levelCount(level, entries.length) > 0; level++) {
        const count = levelCount(level, entries.length);
        const last = Math.floor((count - 1) / TILE_WIDTH);
        expect(tiles.get(`${level}/${last}`)!.length).toBe((count - last * TILE_WIDTH) * 32);
      }
    }
  }, 60_000);

  it('proves each tree consistent with every smaller one, and no tree with a tampered root or proof', async () => {
    const { entries, tiles } = grow([600]);
    const roots = entries.map((_, i) => naiveRoot(entries.slice(0, i + 1)));
    for (const [m, n] of [
      [1, 2],
      [3, 7],
      [4, 8],
      [5, 600],
      [256, 600],
      [257, 512],
      [599, 600],
      [7, 7],
    ] as const) {
      const proof = m === n ? [] : await consistencyProof(reader(tiles), m, n);
      expect(verifyConsistency(m, n, roots[m - 1]!, roots[n - 1]!, proof), `${m} → ${n}`).toBe(true);
      expect(verifyConsistency(m, n, randomBytes(32), roots[n - 1]!, proof)).toBe(false);
      if (proof.length > 0) {
        const tampered = proof.map((hash, i) => (i === 0 ? randomBytes(32) : hash));
        expect(verifyConsistency(m, n, roots[m - 1]!, roots[n - 1]!, tampered)).toBe(false);
      }
    }
    expect(verifyConsistency(9, 8, roots[8]!, roots[7]!, [])).toBe(false);
  });
});

describe('tile paths', () => {
  it('writes and reads N as tlog-tiles does', () => {
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(67)).toBe('067');
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(parseTileIndex('x001/x234/067')).toEqual({ index: 1234067, width: 256 });
    expect(parseTileIndex('067.p/5')).toEqual({ index: 67, width: 5 });
    for (const bad of ['67', '0067', 'x000/067', 'x1/067', '067.p/0', '067.p/256', '067.p/05', '067/', '/067', 'x001'])
      expect(parseTileIndex(bad), bad).toBeUndefined();
    expect(parseLevel('0')).toBe(0);
    expect(parseLevel('00')).toBeUndefined();
  });

  it('knows which tiles a tree of a size has', () => {
    expect(tileExists(0, 0, 256, 256)).toBe(true);
    expect(tileExists(0, 0, 256, 255)).toBe(false);
    expect(tileExists(0, 0, 255, 255)).toBe(true);
    expect(tileExists(0, 1, 1, 256)).toBe(false);
    expect(tileExists(1, 0, 1, 256)).toBe(true);
    expect(tileExists(1, 0, 2, 511)).toBe(false);
  });
});

describe('signed notes', () => {
  // golang.org/x/mod/sumdb/note's example: its key pair (seed after 0x01) and its signature of this text.
  const text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  const vkey = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const signature =
    '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
  const seed = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
  const privateKey = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });

  it('signs and verifies as golang.org/x/mod/sumdb/note does', () => {
    expect(signNote(text, 'PeterNeumann', privateKey)).toBe(`${text}\n${signature}`);
    const verifier = parseVerifierKey(vkey)!;
    expect(verifierKey('PeterNeumann', verifier.key)).toBe(vkey);
    expect(openNote(`${text}\n${signature}`, verifier)).toBe(text);
    expect(openNote(`${text.replace('answer', 'question')}\n${signature}`, verifier)).toBeUndefined();
    expect(parseVerifierKey(vkey.replace('c74f20a3', 'c74f20a4'))).toBeUndefined();
  });

  it('writes a checkpoint that reads back, and refuses what is not one', () => {
    const checkpoint = { origin: 'example.org/log', size: 3, root: randomBytes(32) };
    expect(parseCheckpoint(checkpointText(checkpoint))).toEqual(checkpoint);
    expect(parseCheckpoint('example.org/log\n03\nAA==\n')).toBeUndefined();
    expect(parseCheckpoint('example.org/log\n3\n')).toBeUndefined();
  });
});

describe('entries', () => {
  it('is the JCS of the revision with its changes by digest, numbers as a parser reads the wire', () => {
    const entry = logEntry('a'.repeat(32), {
      rev: 2,
      date: '2026-11-22T12:30:17.615196+02:00',
      author: 'broker',
      changes: [{ op: 'replace', path: '/value/amount', value: 100 }],
    });
    const digest = createHash('sha256').update('[{"op":"replace","path":"/value/amount","value":100}]').digest('hex');
    expect(entry.toString('utf8')).toBe(
      `{"asset":"${'a'.repeat(32)}","author":"broker","changes":"${digest}","date":"2026-11-22T12:30:17.615196+02:00","rev":2}`,
    );
  });
});
