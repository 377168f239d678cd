/**
 * The mirror's check of the registry's transparency log (docs/decisions/0069-mirrors-verify-the-log.md): every
 * checkpoint it receives must verify with the verifier key it was given and be consistent (RFC 6962, a proof computed
 * from the served tiles) with the last one it verified, which it keeps with its position. A rewritten or rolled-back
 * history is never mirrored: the mirror stops, naming both tree sizes.
 */
import { consistencyProof, splitHashes, TILE_WIDTH, levelCount, verifyConsistency } from '../../domain/log/merkle.js';
import { openNote, parseCheckpoint, parseVerifierKey, type Verifier } from '../../domain/log/note.js';
import { tileIndexPath } from '../../domain/log/tile-paths.js';
import type { Registry } from './registry.js';

/** The checkpoint the mirror verified last, as it keeps it. */
export interface KeptCheckpoint {
  size: number;
  /** Base64, as the checkpoint writes it. */
  root: string;
}

/** The log cannot be trusted: the mirror stops (exit 3). */
export class LogRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogRefusal';
  }
}

export function verifierOf(vkey: string): Verifier {
  const verifier = parseVerifierKey(vkey);
  if (verifier === undefined) throw new Error(`--log-vkey is not a note verifier key (<name>+<id>+<key>): ${vkey}`);
  return verifier;
}

/** The size a checkpoint claims, for messages about one that does not verify. */
function claimedSize(note: string): string {
  return /^[^\n]*\n(\d+)\n/.exec(note)?.[1] ?? 'unknown';
}

export async function verifyLog(
  registry: Registry,
  verifier: Verifier,
  kept: KeptCheckpoint | undefined,
): Promise<KeptCheckpoint> {
  const keptSize = kept === undefined ? 'none' : String(kept.size);
  const res = await registry.getText('/log/checkpoint');
  if (res.status !== 200) {
    throw new LogRefusal(
      `the registry serves no checkpoint (${res.status}); the last one verified has size ${keptSize}`,
    );
  }
  const text = openNote(res.text, verifier);
  const checkpoint = text === undefined ? undefined : parseCheckpoint(text);
  if (checkpoint === undefined || checkpoint.origin !== verifier.name) {
    throw new LogRefusal(
      `the checkpoint of size ${claimedSize(res.text)} does not verify with the log's key ${verifier.name}; the last one verified has size ${keptSize}`,
    );
  }
  const latest = { size: checkpoint.size, root: checkpoint.root.toString('base64') };
  if (kept === undefined) return latest;
  if (latest.size < kept.size) {
    throw new LogRefusal(`the log went back from size ${kept.size} to size ${latest.size}: a rolled-back history`);
  }
  if (latest.size === kept.size) {
    if (latest.root !== kept.root) throw forked(kept.size, latest.size);
    return kept;
  }
  const read = async (level: number, from: number, to: number): Promise<Buffer[]> => {
    const index = Math.floor(from / TILE_WIDTH);
    const width = Math.min(TILE_WIDTH, levelCount(level, latest.size) - index * TILE_WIDTH);
    const path = `/log/tile/${level}/${tileIndexPath(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;
    const tile = await registry.getBytes(path);
    if (tile.status !== 200 || tile.bytes.length !== width * 32) throw forked(kept.size, latest.size);
    return splitHashes(tile.bytes).slice(from - index * TILE_WIDTH, to - index * TILE_WIDTH);
  };
  const proof = kept.size === 0 ? [] : await consistencyProof(read, kept.size, latest.size);
  if (!verifyConsistency(kept.size, latest.size, Buffer.from(kept.root, 'base64'), checkpoint.root, proof)) {
    throw forked(kept.size, latest.size);
  }
  return latest;
}

function forked(keptSize: number, size: number): LogRefusal {
  return new LogRefusal(
    `the log at size ${size} is not consistent with the checkpoint of size ${keptSize} verified before: a rewritten history`,
  );
}
