/**
 * The Merkle tree of RFC 6962 §2.1 over SHA-256, kept as C2SP tlog-tiles of height 8: level `L` holds the hashes of
 * the complete subtrees of 256^L leaves, 256 to a tile (docs/decisions/0065-transparency-log-entries-and-tree.md).
 * Pure arithmetic on hashes; the tiles are read and stored by the caller.
 */
import { hash } from 'node:crypto';

const HASH_BYTES = 32;
export const TILE_WIDTH = 256;

const sha256 = (...parts: Buffer[]): Buffer => hash('sha256', Buffer.concat(parts), 'buffer');

const LEAF_PREFIX = Buffer.from([0]);
const NODE_PREFIX = Buffer.from([1]);

export function leafHash(entry: Buffer): Buffer {
  return sha256(LEAF_PREFIX, entry);
}

function nodeHash(left: Buffer, right: Buffer): Buffer {
  return sha256(NODE_PREFIX, left, right);
}

/** MTH({}) = SHA-256 of nothing. */
export const EMPTY_ROOT = sha256();

/** How many hashes level `level` holds in a tree of `size` leaves. */
export function levelCount(level: number, size: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/** The root of 2^k hashes. */
function perfectRoot(hashes: readonly Buffer[]): Buffer {
  let row = hashes;
  while (row.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < row.length; i += 2) next.push(nodeHash(row[i]!, row[i + 1]!));
    row = next;
  }
  const root = row[0];
  if (root === undefined) throw new Error('no hashes to root');
  return root;
}

export function splitHashes(tile: Buffer): Buffer[] {
  const hashes: Buffer[] = [];
  for (let at = 0; at + HASH_BYTES <= tile.length; at += HASH_BYTES) hashes.push(tile.subarray(at, at + HASH_BYTES));
  return hashes;
}

/** Per level, the hashes of its last tile, short of 256 (the tree's right edge). */
export type TreeEdge = Buffer[][];

/** A tile written by an append: its level, index and every hash it holds now. */
export interface TileWrite {
  level: number;
  index: number;
  hashes: Buffer;
}

/** The edge after appending leaves to a tree of `size`, and the tiles that changed. */
export function appendLeaves(
  edge: TreeEdge,
  size: number,
  leaves: readonly Buffer[],
): { edge: TreeEdge; tiles: TileWrite[] } {
  const next: TreeEdge = edge.map((hashes) => [...hashes]);
  const tiles: TileWrite[] = [];
  let incoming = [...leaves];
  for (let level = 0; incoming.length > 0; level++) {
    let index = Math.floor(levelCount(level, size) / TILE_WIDTH);
    let current = next[level] ?? [];
    const above: Buffer[] = [];
    for (const hash of incoming) {
      current.push(hash);
      if (current.length === TILE_WIDTH) {
        tiles.push({ level, index, hashes: Buffer.concat(current) });
        above.push(perfectRoot(current));
        index++;
        current = [];
      }
    }
    // The tile the level's last hashes went into, partial.
    if (current.length > 0) tiles.push({ level, index, hashes: Buffer.concat(current) });
    next[level] = current;
    incoming = above;
  }
  return { edge: next, tiles };
}

/** The RFC 6962 root of a tree of `size` leaves from its right edge. */
export function rootFromEdge(edge: TreeEdge, size: number): Buffer {
  if (size === 0) return EMPTY_ROOT;
  // Complete subtrees, the largest (leftmost) first: per level from the top, the set bits of its partial count.
  const subtrees: Buffer[] = [];
  for (let level = edge.length - 1; level >= 0; level--) {
    const hashes = edge[level] ?? [];
    const count = levelCount(level, size) % TILE_WIDTH;
    if (hashes.length < count) throw new Error(`the tree's edge at level ${level} misses hashes`);
    let at = 0;
    for (let bit = 7; bit >= 0; bit--) {
      const width = 1 << bit;
      if ((count & width) === 0) continue;
      subtrees.push(perfectRoot(hashes.slice(at, at + width)));
      at += width;
    }
  }
  let root = subtrees.pop()!;
  while (subtrees.length > 0) root = nodeHash(subtrees.pop()!, root);
  return root;
}

/** Reads the hashes of level `level`, indexes `from` (inclusive) to `to` (exclusive), from the tiles. */
export type HashReader = (level: number, from: number, to: number) => Promise<Buffer[]>;

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH of leaves [from, to). */
async function rangeHash(read: HashReader, from: number, to: number): Promise<Buffer> {
  const width = to - from;
  if ((width & (width - 1)) === 0 && from % width === 0) {
    const bits = Math.log2(width);
    const level = Math.floor(bits / 8);
    const unit = TILE_WIDTH ** level;
    return perfectRoot(await read(level, from / unit, from / unit + 2 ** (bits % 8)));
  }
  const k = largestPowerOfTwoBelow(width);
  return nodeHash(await rangeHash(read, from, from + k), await rangeHash(read, from + k, to));
}

/** The root of the tree of `size` leaves, from its tiles. */
export function treeHash(read: HashReader, size: number): Promise<Buffer> {
  return size === 0 ? Promise.resolve(EMPTY_ROOT) : rangeHash(read, 0, size);
}

/** RFC 9162 §2.1.4.1: the consistency proof between the trees of `first` and `second` leaves. */
export async function consistencyProof(read: HashReader, first: number, second: number): Promise<Buffer[]> {
  if (first < 1 || first > second) throw new Error(`no consistency proof from ${first} to ${second}`);
  const proof: Buffer[] = [];
  const subproof = async (m: number, from: number, to: number, whole: boolean): Promise<void> => {
    const n = to - from;
    if (m === n) {
      if (!whole) proof.push(await rangeHash(read, from, to));
      return;
    }
    const k = largestPowerOfTwoBelow(n);
    if (m <= k) {
      await subproof(m, from, from + k, whole);
      proof.push(await rangeHash(read, from + k, to));
    } else {
      await subproof(m - k, from + k, to, false);
      proof.push(await rangeHash(read, from, from + k));
    }
  };
  await subproof(first, 0, second, true);
  return proof;
}

/** RFC 9162 §2.1.4.2. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0;
}
