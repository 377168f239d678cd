/**
 * The log as C2SP tlog-tiles serves it (docs/decisions/0068-the-log-served-as-tlog-tiles.md): what a checkpoint
 * covers is served, nothing past it; full tiles never change, partial ones are the prefix of a later full one.
 */
import { type ApiError, refusals } from '../../domain/errors.js';
import { TILE_WIDTH } from '../../domain/log/merkle.js';
import { parseLevel, parseTileIndex, tileExists } from '../../domain/log/tile-paths.js';
import type { LogStore } from '../../store/log.js';
import type { LogIdentity } from './identity.js';

export interface LogTile {
  bytes: Buffer;
  /** A full tile never changes; a partial one is replaced by a wider one as the log grows. */
  full: boolean;
}

const notYet = (): ApiError => refusals.notFound('tile');

export class LogService {
  constructor(
    private readonly store: LogStore,
    private readonly identity: LogIdentity,
  ) {}

  async checkpoint(): Promise<string> {
    const { checkpoint } = await this.store.head();
    if (checkpoint === undefined) throw refusals.notFound('checkpoint');
    return checkpoint;
  }

  /** The log's own, as it was started: a node whose key is not the log's serves the log's. */
  async vkey(): Promise<string> {
    return (await this.store.head()).vkey ?? this.identity.vkey;
  }

  /** `undefined` for a path tlog-tiles would not write (the caller answers it as any unknown URL). */
  async hashTile(levelText: string, indexText: string): Promise<LogTile | undefined> {
    const level = parseLevel(levelText);
    const at = parseTileIndex(indexText);
    if (level === undefined || at === undefined) return undefined;
    const { size } = await this.store.head();
    if (!tileExists(level, at.index, at.width, size)) throw notYet();
    const stored = await this.store.tile(level, at.index);
    if (stored === undefined || stored.length < at.width * 32) throw notYet();
    return { bytes: stored.subarray(0, at.width * 32), full: at.width === TILE_WIDTH };
  }

  /** Each entry after its length, two bytes big-endian. */
  async entryBundle(indexText: string): Promise<LogTile | undefined> {
    const at = parseTileIndex(indexText);
    if (at === undefined) return undefined;
    const { size } = await this.store.head();
    if (!tileExists(0, at.index, at.width, size)) throw notYet();
    const from = at.index * TILE_WIDTH;
    const entries = await this.store.entries(from, from + at.width);
    if (entries.length !== at.width) throw notYet();
    const parts: Buffer[] = [];
    for (const entry of entries) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(entry.length);
      parts.push(length, entry);
    }
    return { bytes: Buffer.concat(parts), full: at.width === TILE_WIDTH };
  }
}
