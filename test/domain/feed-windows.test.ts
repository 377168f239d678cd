import { describe, expect, it } from 'vitest';
import {
  type FeedLearned,
  type FeedPageRange,
  type FeedWindow,
  firstWidth,
  learnFrom,
  medianGap,
  nextWidth,
  readInWindows,
} from '../../src/domain/feed-windows.js';

const YEAR = 365 * 24 * 3600 * 1_000_000;
const NOW = 1_795_000_000_000_000;

interface Row {
  modified: number;
}

/** A feed in memory (`modified` values, ascending), read as a store reads it, counting the queries. */
function memoryFeed(values: number[], probeAnswers: 'lowest' | 'highest' = 'lowest') {
  const feed = { queries: 0, probes: 0 };
  const inRange = (page: FeedPageRange, value: number): boolean =>
    value <= page.bound && (page.after === undefined || (page.descending ? value < page.after : value > page.after));
  const inWindow = (page: FeedPageRange, window: FeedWindow, value: number): boolean => {
    const { from, to } = window;
    if (page.descending) return (from === undefined || value < from) && (to === undefined || value >= to);
    return (from === undefined || value > from) && (to === undefined || value <= to);
  };
  const read =
    (page: FeedPageRange) =>
    async (window: FeedWindow, limit: number): Promise<Row[]> => {
      feed.queries++;
      const rows = values.filter((value) => inRange(page, value) && inWindow(page, window, value));
      if (page.descending) rows.reverse();
      return rows.slice(0, limit).map((modified) => ({ modified }));
    };
  const probe =
    (page: FeedPageRange) =>
    async (past?: number): Promise<number | undefined> => {
      feed.queries++;
      feed.probes++;
      const rows = values.filter((value) => inRange(page, value) && inWindow(page, { from: past }, value));
      return probeAnswers === 'lowest' ? rows[0] : rows.at(-1);
    };
  const reference = (page: FeedPageRange): Row[] => {
    const rows = values.filter((value) => inRange(page, value));
    if (page.descending) rows.reverse();
    return rows.slice(0, page.limit).map((modified) => ({ modified }));
  };
  const list = (page: FeedPageRange, learned: FeedLearned = {}): Promise<Row[]> =>
    readInWindows(page, learned, read(page), probe(page));
  return { feed, list, reference };
}

/** Dense runs (1 µs and 1 ms apart) separated by gaps of years, a lone row, and rows past the bound. */
function mixedFeed(): { values: number[]; bound: number } {
  const values: number[] = [];
  let at = NOW - 10 * YEAR;
  for (let i = 0; i < 250; i++) values.push(at++);
  at += 3 * YEAR;
  values.push(at);
  at += 2 * YEAR;
  for (let i = 0; i < 300; i++) {
    at += 1000;
    values.push(at);
  }
  at += 7 * 24 * 3600 * 1_000_000;
  for (let i = 0; i < 40; i++) {
    at += 37_000_000;
    values.push(at);
  }
  const bound = at;
  values.push(at + 5, at + 3 * YEAR);
  return { values, bound };
}

describe('firstWidth', () => {
  it('holds at most a page without anything learned, twice the page span the learned gap gives otherwise', () => {
    expect(firstWidth(100, undefined)).toBe(100);
    expect(firstWidth(100, 0)).toBe(100);
    expect(firstWidth(100, 1000)).toBe(200_000);
    expect(firstWidth(10, 0.1)).toBe(10);
  });
});

describe('nextWidth', () => {
  it('widens eight times after an empty window, else at least twice, or twice what the rest needs at the median gap or the window per row', () => {
    expect(nextWidth(100, 100, [], 0)).toBe(800);
    expect(nextWidth(100, 100, [{ modified: 5 }], 0)).toBe(800);
    // One row found in the window: 99 more at that window's width each, twice that.
    expect(nextWidth(100, 100, [{ modified: 5 }], 1)).toBe(19_800);
    expect(nextWidth(100, 2, [{ modified: 5 }], 1)).toBe(200);
    // 10 rows 1000 apart (one gap of years among them): 90 more need 90,000; twice that.
    const rows = Array.from({ length: 10 }, (_, i) => ({ modified: i * 1000 + (i > 6 ? YEAR : 0) }));
    expect(nextWidth(100, 100, rows, 3)).toBe(180_000);
    expect(nextWidth(1e6, 100, rows, 3)).toBe(2e6);
  });
});

describe('learnFrom', () => {
  const rows = [10, 20, 40].map((modified) => ({ modified }));
  it('keeps the median gap of a page of two rows or more, and the first row of a page without after', () => {
    expect(learnFrom({}, { bound: 100, descending: false, limit: 3 }, rows)).toEqual({ gap: 20, start: 10 });
    expect(learnFrom({ start: 5 }, { after: 1, bound: 100, descending: false, limit: 3 }, rows)).toEqual({
      gap: 20,
      start: 5,
    });
    expect(learnFrom({ start: 5 }, { bound: 100, descending: true, limit: 3 }, rows)).toEqual({
      gap: 20,
      start: 5,
      top: 10,
    });
    expect(learnFrom({ top: 5 }, { after: 50, bound: 100, descending: true, limit: 3 }, rows)).toEqual({
      gap: 20,
      top: 5,
    });
    expect(learnFrom({ gap: 7 }, { bound: 100, descending: false, limit: 3 }, rows.slice(0, 1))).toEqual({
      gap: 7,
      start: 10,
    });
    expect(learnFrom({ gap: 7, start: 5 }, { bound: 100, descending: false, limit: 3 }, [])).toEqual({
      gap: 7,
      start: 5,
    });
  });
});

describe('medianGap', () => {
  it('is the median distance between consecutive rows, either direction, undefined under two rows', () => {
    expect(medianGap([])).toBeUndefined();
    expect(medianGap([{ modified: 3 }])).toBeUndefined();
    expect(medianGap([1, 2, 4, 1000].map((modified) => ({ modified })))).toBe(2);
    expect(medianGap([1000, 4, 2, 1].map((modified) => ({ modified })))).toBe(2);
  });
});

describe('readInWindows', () => {
  const { values, bound } = mixedFeed();
  // Some start half a first window away from a run of rows 1 µs apart: the next window starts right at a row.
  const afters = [
    ...[undefined, 0, values[0]! - 50, values[0]! - 1, values[0]!, values[100]!, values[249]!, values[249]! + 50],
    ...[values[250]! - 1, values[250]!, values[251]!, values[400]!, values[589]!],
    ...[bound, bound + 4, bound + 6, NOW + 20 * YEAR],
  ];

  // Learned guesses right and wrong: gaps far too small or large, a start inside the feed, before it, past its end.
  const guesses: FeedLearned[] = [
    ...[{}, { gap: 0.5 }, { gap: 1000 }, { gap: YEAR }],
    ...[{ start: values[300]! }, { gap: 1000, start: values[0]! - YEAR }, { gap: 0.5, start: bound + YEAR }],
    ...[{ top: values[300]! }, { gap: 1000, top: values[0]! - YEAR }, { gap: 0.5, top: bound + YEAR }],
  ];

  it('reads exactly the page of the unbounded range: any after, limit, direction, learned guess, probed row', async () => {
    for (const probeAnswers of ['lowest', 'highest'] as const) {
      const { list, reference } = memoryFeed(values, probeAnswers);
      for (const descending of [false, true]) {
        for (const after of afters) {
          for (const limit of [1, 3, 100, 1000]) {
            for (const learned of guesses) {
              const page = { after, bound, descending, limit };
              expect(await list(page, learned), JSON.stringify({ page, learned })).toEqual(reference(page));
            }
          }
        }
      }
    }
  });

  it('pages through a whole feed in both directions, each page the reference page', async () => {
    for (const probeAnswers of ['lowest', 'highest'] as const) {
      const { list, reference } = memoryFeed(values, probeAnswers);
      for (const descending of [false, true]) {
        let after: number | undefined;
        let learned: FeedLearned = {};
        const seen: number[] = [];
        for (;;) {
          const page = { after, bound, descending, limit: 7 };
          const rows = await list(page, learned);
          expect(rows).toEqual(reference(page));
          if (rows.length === 0) break;
          seen.push(...rows.map((row) => row.modified));
          after = rows.at(-1)!.modified;
          learned = learnFrom(learned, page, rows);
        }
        const listed = values.filter((value) => value <= bound);
        expect(seen).toEqual(descending ? listed.reverse() : listed);
      }
    }
  });

  it('answers an empty range and a single row', async () => {
    for (const feedValues of [[], [NOW]]) {
      const { list, reference } = memoryFeed(feedValues);
      for (const descending of [false, true]) {
        for (const after of [undefined, NOW - 1, NOW, NOW + 1]) {
          const page = { after, bound: NOW + 10, descending, limit: 100 };
          expect(await list(page)).toEqual(reference(page));
        }
      }
    }
  });

  it('probes only after an empty window: at most once for a page of a dense feed read by a store that learned nothing', async () => {
    // Probes cost every row past their position on DocumentDB; windows only their own.
    const dense = Array.from({ length: 10_000 }, (_, i) => NOW - 10_000_000 + i * 1000);
    const { feed, list, reference } = memoryFeed(dense);
    // The first window (100 µs, rows are 1,000 apart) finds none or one: after an empty one, one probe, then none.
    for (const [after, descending, probes] of [
      [undefined, false, 1],
      [dense[5000], false, 1],
      [undefined, true, 1],
      [dense[5000], true, 1],
    ] as const) {
      feed.probes = 0;
      feed.queries = 0;
      const page = { after, bound: NOW, descending, limit: 100 };
      expect(await list(page)).toEqual(reference(page));
      expect(feed.probes, JSON.stringify(page)).toBe(probes);
      expect(feed.queries, JSON.stringify(page)).toBeLessThanOrEqual(probes + 4);
    }
  });

  it('takes a logarithmic number of queries on a sparse feed, one or two on a learned dense one', async () => {
    // Six rows years apart, nothing learned: the windows widen from 100 µs to decades, eight times each.
    const sparse = Array.from({ length: 6 }, (_, i) => NOW - (40 - 7 * i) * YEAR);
    const { feed, list, reference } = memoryFeed(sparse);
    const counted = async (page: FeedPageRange): Promise<number> => {
      feed.queries = 0;
      expect(await list(page)).toEqual(reference(page));
      return feed.queries;
    };
    const widenings = Math.ceil(Math.log((40 * YEAR) / 100) / Math.log(8));
    expect(await counted({ bound: NOW, descending: true, limit: 100 })).toBeLessThanOrEqual(widenings + 2);
    // Ascending, each gap is skipped by the probe of the row after it.
    expect(await counted({ bound: NOW, descending: false, limit: 100 })).toBeLessThanOrEqual(2 * 6 + 1);
    expect(await counted({ after: 0, bound: NOW, descending: false, limit: 100 })).toBeLessThanOrEqual(2 * 6 + 2);

    const dense = Array.from({ length: 10_000 }, (_, i) => NOW - 10_000_000 + i * 1000);
    const denseFeed = memoryFeed(dense);
    const learned = { gap: 1000, start: dense[0] };
    const starts = [
      [undefined, false],
      [dense[5000], false],
      [undefined, true],
      [dense[5000], true],
    ] as const;
    for (const [after, descending] of starts) {
      denseFeed.feed.queries = 0;
      const page = { after, bound: NOW, descending, limit: 100 };
      expect(await denseFeed.list(page, learned)).toEqual(denseFeed.reference(page));
      expect(denseFeed.feed.queries, JSON.stringify(page)).toBe(1);
    }
    // The clock an hour past the newest row (ticks that list nothing, such as the log's): descending, from the top.
    for (const top of [undefined, dense.at(-1)]) {
      denseFeed.feed.queries = 0;
      denseFeed.feed.probes = 0;
      const page = { bound: NOW + 3600e6, descending: true, limit: 100 };
      expect(await denseFeed.list(page, { gap: 1000, top })).toEqual(denseFeed.reference(page));
      if (top === undefined) expect(denseFeed.feed.probes).toBe(1);
      else expect([denseFeed.feed.queries, denseFeed.feed.probes]).toEqual([1, 0]);
    }
  });
});
