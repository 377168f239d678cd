/**
 * Tile paths as C2SP tlog-tiles writes them: `N` in groups of three digits, all but the last prefixed with `x`
 * (`1234067` is `x001/x234/067`), then `.p/W` for a partial tile of `W` (1 … 255) entries.
 */
import { levelCount, TILE_WIDTH } from './merkle.js';

/** Past it, 256^L tiles no longer fit a JavaScript number: no such tile exists. */
const MAX_LEVEL = 6;

export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

const TILE_INDEX = /^((?:x\d{3}\/)*)(\d{3})(?:\.p\/([1-9]\d{0,2}))?$/;

/** `undefined` for any spelling tlog-tiles would not write. */
export function parseTileIndex(text: string): { index: number; width: number } | undefined {
  const match = TILE_INDEX.exec(text);
  if (match === null) return undefined;
  const groups = [...(match[1] ?? '').split('/').filter((group) => group !== ''), match[2]!];
  if (groups.length > 1 && groups[0] === 'x000') return undefined;
  if (groups.length > 6) return undefined;
  const index = Number(groups.map((group) => group.replace('x', '')).join(''));
  const width = match[3] === undefined ? TILE_WIDTH : Number(match[3]);
  return width > TILE_WIDTH || (match[3] !== undefined && width === TILE_WIDTH) ? undefined : { index, width };
}

/** `undefined` for a level tlog-tiles would not write (`entries` is the caller's). */
export function parseLevel(text: string): number | undefined {
  return /^(?:0|[1-9]\d?)$/.test(text) ? Number(text) : undefined;
}

/** Whether a tree of `size` leaves has this tile: its full form, or its first `width` hashes (or entries). */
export function tileExists(level: number, index: number, width: number, size: number): boolean {
  if (level > MAX_LEVEL) return false;
  return index * TILE_WIDTH + width <= levelCount(level, size);
}
