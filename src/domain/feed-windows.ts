/**
 * A feed page read through bounded windows of `modified` (docs/decisions/0025-feed-windows-on-documentdb.md).
 * Each window starts where the previous one ended, so their rows in sequence are exactly the unbounded query's.
 */

/** The range is `> after` (ascending) or `< after` (descending), and `<= bound` either way. */
export interface FeedPageRange {
  after?: number;
  bound: number;
  descending: boolean;
  limit: number;
}

/** Ascending `from < modified <= to`, descending `to <= modified < from`; an absent side is the range's own. */
export interface FeedWindow {
  from?: number;
  to?: number;
}

/** What earlier pages of one feed tell the next. Only a guess: a wrong one costs more rows or queries. */
export interface FeedLearned {
  gap?: number;
  start?: number;
  /** The newest row a descending first page found: the clock may run far ahead of it (ticks that list nothing). */
  top?: number;
}

export function learnFrom(
  learned: FeedLearned,
  page: FeedPageRange,
  rows: readonly { modified: number }[],
): FeedLearned {
  const next = { ...learned };
  const gap = medianGap(rows);
  if (gap !== undefined) next.gap = gap;
  if (page.after === undefined && rows.length > 0) {
    if (page.descending) next.top = rows[0]!.modified;
    else next.start = rows[0]!.modified;
  }
  return next;
}

/** Never below `limit` µs: stamps are distinct whole microseconds, so that holds at most a page. */
export function firstWidth(limit: number, gap: number | undefined): number {
  return Math.max(limit, 2 * limit * (gap ?? 0));
}

/** ×8 after an empty window: a gap of any length takes logarithmically many round trips. */
export function nextWidth(width: number, limit: number, rows: readonly { modified: number }[], found: number): number {
  if (found === 0) return 8 * width;
  return Math.max(2 * width, 2 * (limit - rows.length) * (medianGap(rows) ?? width / found));
}

export function medianGap(rows: readonly { modified: number }[]): number | undefined {
  if (rows.length < 2) return undefined;
  const gaps = rows.slice(1).map((row, i) => Math.abs(row.modified - rows[i]!.modified));
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/**
 * `read` answers a window's rows in feed order. `probe` answers the `modified` of some row past `past` in the feed's
 * direction (an in-order engine gives the lowest); on DocumentDB it costs every row of the range past `past`, so it
 * is only sent after an empty window. A wrong guess only changes window widths, never the rows.
 */
export async function readInWindows<Row extends { modified: number }>(
  page: FeedPageRange,
  learned: FeedLearned,
  read: (window: FeedWindow, limit: number) => Promise<Row[]>,
  probe: (past?: number) => Promise<number | undefined>,
): Promise<Row[]> {
  const { descending, limit, bound } = page;
  const rows: Row[] = [];
  let from = page.after;
  let to: number;
  let width = firstWidth(limit, learned.gap);
  // The range's far end, inclusive: a window reaching it is the last. Descending, its last row, probed once needed.
  let end: number | undefined;
  if (descending) {
    // From the newest row known, not the clock: the window still covers every row written above it since.
    to = Math.min(page.after ?? learned.top ?? Infinity, bound) - width;
  } else {
    end = bound;
    const start = from ?? learned.start ?? (await probe());
    if (start === undefined) return rows;
    to = start + width;
  }
  for (;;) {
    const last = end !== undefined && (descending ? to <= end : to >= end);
    const found = await read({ from, to: last ? undefined : to }, limit - rows.length);
    rows.push(...found);
    if (rows.length >= limit || last) return rows;
    width = nextWidth(width, limit, rows, found.length);
    from = to;
    if (descending) {
      if (found.length === 0) {
        end ??= await probe(to);
        if (end === undefined) return rows;
      }
      to -= width;
    } else if (found.length === 0) {
      const next = await probe(to);
      if (next === undefined) return rows;
      to = Math.max(to, next) + width;
    } else {
      to += width;
    }
  }
}
