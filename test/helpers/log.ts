/** Reading the transparency log as a tlog-tiles client does, for the tests (the Go verifier is test/log/verifier/). */
import { expect } from 'vitest';
import { levelCount, splitHashes, TILE_WIDTH, treeHash, type HashReader } from '../../src/domain/log/merkle.js';
import { generateKeyPairSync } from 'node:crypto';
import {
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  verifierKey,
  type Checkpoint,
} from '../../src/domain/log/note.js';
import { tileIndexPath } from '../../src/domain/log/tile-paths.js';
import type { Client } from './client.js';
import { readHistory } from './history.js';

export const LOG = '/api/0.1/log';

/** The tile path of `level`/`index` as a tree of `size` leaves has it: full, or `.p/W`. */
export function tilePath(level: number | 'entries', index: number, size: number): string {
  const count = levelCount(level === 'entries' ? 0 : level, size);
  const width = Math.min(TILE_WIDTH, count - index * TILE_WIDTH);
  return `${LOG}/tile/${level}/${tileIndexPath(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;
}

/** A verifier key of the same name and another key pair: what a forger without the log's key would publish. */
export function otherKey(name: string): string {
  return verifierKey(name, generateKeyPairSync('ed25519').publicKey);
}

export async function vkeyOf(client: Client): Promise<string> {
  const res = await client.get(`${LOG}/vkey`);
  expect(res.status, res.text).toBe(200);
  return res.text;
}

/** The latest checkpoint, its signature checked with `vkey`. */
export async function checkpointOf(client: Client, vkey: string): Promise<Checkpoint & { note: string }> {
  const res = await client.get(`${LOG}/checkpoint`);
  expect(res.status, res.text).toBe(200);
  const verifier = parseVerifierKey(vkey);
  if (verifier === undefined) throw new Error(`not a verifier key: ${vkey}`);
  const text = openNote(res.text, verifier);
  if (text === undefined) throw new Error(`the checkpoint does not verify with ${vkey}:\n${res.text}`);
  const checkpoint = parseCheckpoint(text);
  if (checkpoint === undefined || checkpoint.origin !== verifier.name) throw new Error(`not a checkpoint: ${text}`);
  return { ...checkpoint, note: res.text };
}

/** Waits until a checkpoint covers at least `size` entries. */
export async function waitForLogSize(
  client: Client,
  vkey: string,
  size: number,
  timeoutMs = 5000,
): Promise<Checkpoint & { note: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const checkpoint = await checkpointOf(client, vkey);
    if (checkpoint.size >= size) return checkpoint;
    if (Date.now() > deadline) throw new Error(`the log stayed at ${checkpoint.size} entries, short of ${size}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until every revision of these assets carries its `logIndex` (2 s after the writes, at most). */
export async function waitForLogIndexes(client: Client, ids: readonly string[], timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const id of ids) {
    for (;;) {
      const revisions = await readHistory(client, id);
      const missing = revisions.filter((revision) => revision.logIndex === undefined);
      if (missing.length === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `revisions ${missing.map((r) => r.rev).join(', ')} of ${id} have no logIndex after ${timeoutMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Reads hashes from the served tiles of a tree of `size` leaves. */
export function servedHashes(client: Client, size: number): HashReader {
  return async (level, from, to) => {
    const index = Math.floor(from / TILE_WIDTH);
    const res = await client.get(tilePath(level, index, size));
    expect(res.status, res.text).toBe(200);
    const hashes = splitHashes(res.raw);
    return hashes.slice(from - index * TILE_WIDTH, to - index * TILE_WIDTH);
  };
}

export function rootOfServedTree(client: Client, size: number): Promise<Buffer> {
  return treeHash(servedHashes(client, size), size);
}

/** Every entry of a tree of `size` leaves, from the entry bundles. */
export async function servedEntries(client: Client, size: number): Promise<Buffer[]> {
  const entries: Buffer[] = [];
  for (let index = 0; index * TILE_WIDTH < size; index++) {
    const res = await client.get(tilePath('entries', index, size));
    expect(res.status, res.text).toBe(200);
    for (let at = 0; at < res.raw.length; ) {
      const length = res.raw.readUInt16BE(at);
      entries.push(res.raw.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    }
  }
  return entries;
}
