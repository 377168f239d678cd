/** The feed as the change stream reads it: rows after a position, ascending by `modified`. */
import type { EventRow } from '../../domain/changes.js';
import type { ListMode } from '../../domain/listing.js';
import type { AssetStore } from '../../store/types.js';
import { rowBytes, type SharedValues } from './shared.js';

export const START = Number.NEGATIVE_INFINITY;

export interface Reader {
  mode: ListMode;
  fields: readonly string[];
  /** Bytes per row of its last read: its next read is sized by them. */
  rowBytes: number;
}

/** What a reader with fields expects per row before its first read. */
export function firstRowBytes(fields: readonly string[]): number {
  return fields.length === 0 ? 100 : 64 * 1024;
}

/**
 * At most `maxRows`, and about `budget` bytes going by the reader's last rows (at least one row): a page of large
 * assets is not read whole for a client that takes one of them (docs/decisions/0060-stream-bounds-per-event.md).
 */
export async function readAfter(
  store: AssetStore,
  shared: SharedValues,
  position: number,
  reader: Reader,
  page: { budget: number; maxRows: number },
): Promise<{ rows: EventRow[]; full: boolean }> {
  const limit = Math.max(1, Math.min(page.maxRows, Math.floor(page.budget / Math.max(1, reader.rowBytes))));
  const listed = await store.list({
    after: position === START ? undefined : position,
    descending: false,
    limit,
    mode: reader.mode,
    fields: reader.fields,
  });
  const rows = shared.rows(listed, reader.fields);
  if (rows.length > 0) reader.rowBytes = rows.reduce((sum, row) => sum + rowBytes(row), 0) / rows.length;
  return { rows, full: rows.length === limit };
}

export function firstAfter(rows: readonly { modified: number }[], position: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.modified > position) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
