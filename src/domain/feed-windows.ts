/**
 * Reading a feed page through bounded windows of its order key (`modified`, microseconds): for a store whose
 * engine sorts what a range matches after scanning it (DocumentDB behind FerretDB 2), a page then costs about the
 * rows of its windows, not every row of the range. Windows are asked for in feed order, each starting where the
 * previous one ended, so their rows in sequence are exactly the unbounded query's, with no gap and no repeat.
 */

/** The page asked for: the range is `> after` (ascending) or `< after` (descending), and `<= bound` either way. */
export interface FeedPageRange {
  after?: number;
  bound: number;
  descending: boolean;
  limit: number;
}

/**
 * One window, in the feed's direction: the rows past `from` (exclusive) up to `to` (inclusive); an absent side is
 * the range's own. Ascending `from < modified <= to`, descending `to <= modified < from`.
 */
export interface FeedWindow {
  from?: number;
  to?: number;
}

/**
 * What earlier pages of a feed (one mode, one direction) tell the next one: the median gap between their rows, and
 * where an ascending page without `after` began. Only a guess: a wrong one costs a page more rows or queries.
 */
export interface FeedLearned {
  gap?: number;
  start?: number;
}

/** What a page read teaches, over what was learned before it. */
export function learnFrom(
  learned: FeedLearned,
  page: FeedPageRange,
  rows: readonly { modified: number }[],
): FeedLearned {
  const next = { ...learned };
  const gap = medianGap(rows);
  if (gap !== undefined) next.gap = gap;
  if (!page.descending && page.after === undefined && rows.length > 0) next.start = rows[0]!.modified;
  return next;
}

/**
 * The first window's width for a page of `limit` rows, from the median gap between rows of earlier pages: twice
 * the span such a page covers. Never narrower than `limit` microseconds; that width is also the start without
 * anything learned: `modified` values are distinct whole microseconds, so it holds at most a page, however dense
 * the feed.
 */
export function firstWidth(limit: number, gap: number | undefined): number {
  return Math.max(limit, 2 * limit * (gap ?? 0));
}

/**
 * The width of the window after one that left the page short, with `rows` read so far, `found` of them by that
 * window. Eight times as wide after an empty window: a gap, however long, takes a logarithmic number of windows,
 * and a round trip costs about as much as a few hundred more rows in the last one (DocumentDB). Otherwise at least
 * twice as wide, and twice what the rest of the page needs at the median gap of the rows found (a gap before them
 * does not count), or with a single row found, at that window's width per row.
 */
export function nextWidth(width: number, limit: number, rows: readonly { modified: number }[], found: number): number {
  if (found === 0) return 8 * width;
  return Math.max(2 * width, 2 * (limit - rows.length) * (medianGap(rows) ?? width / found));
}

/** The median gap between consecutive rows of a page (in `modified`), undefined with fewer than two rows. */
export function medianGap(rows: readonly { modified: number }[]): number | undefined {
  if (rows.length < 2) return undefined;
  const gaps = rows.slice(1).map((row, i) => Math.abs(row.modified - rows[i]!.modified));
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/**
 * Reads a page window by window: the first one `firstWidth` wide from the page's start, each next one (while the
 * page is short) `nextWidth` wide from where the last ended, up to the range's end. `read` answers a window's rows
 * in feed order, at most `limit`. `probe` answers the `modified` of some row of the range past `past` in the feed's
 * direction (the whole range when absent), undefined when there is none; an engine that reads the index in order
 * answers the lowest: ascending the nearest row, so a window after a gap starts at the next row; descending the
 * range's last row, where its windows end. A probe is only sent after an empty window (a gap, or the range's end):
 * on DocumentDB it costs every row of the range past `past`. An ascending page without `after` starts at the
 * learned `start` (its first window open below, so rows before it are in it), else at the probed first row. A wrong
 * guess only makes a window wider or narrower than needed: the rows are the same.
 */
export async function readInWindows<Row extends { modified: number }>(
  page: FeedPageRange,
  learned: FeedLearned,
  read: (window: FeedWindow, limit: number) => Promise<Row[]>,
  probe: (past?: number) => Promise<number | undefined>,
): Promise<Row[]> {
  const { descending, limit, bound } = page;
  const ahead = (position: number, width: number): number => (descending ? position - width : position + width);
  const rows: Row[] = [];
  let from = page.after;
  let to: number;
  let width = firstWidth(limit, learned.gap);
  // The range's far end, inclusive: a window reaching it is the last. Descending, its last row, probed once needed.
  let end: number | undefined;
  if (descending) {
    to = Math.min(page.after ?? Infinity, bound) - width;
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
