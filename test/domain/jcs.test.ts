/**
 * The log's JCS writes what the `canonicalize` package writes, byte for byte, or throws where it throws
 * (record 0072): on revision-shaped values and on arbitrary JSON and JavaScript values, seeded.
 */
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesBetween } from '../../src/domain/history.js';
import { jcs } from '../../src/domain/log/jcs.js';
import { createPayload } from '../../bench/data.js';

const RUNS = 2_000;

/** What each writes, or the fact that it threw (or, for `canonicalize`, wrote nothing). */
function outcome(write: (value: unknown) => string | undefined, value: unknown): string {
  try {
    const text = write(value);
    return text === undefined ? 'threw' : `wrote ${text}`;
  } catch {
    return 'threw';
  }
}

function expectSame(value: unknown): void {
  expect(outcome(jcs, value)).toBe(outcome(canonicalize, value));
}

/** Keys that sort differently by code unit than by code point, that V8 reorders, or that are special. */
const key = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '__proto__', 'toJSON', '0', '1', '10', '9', '01', '1a', '4294967295', '\u20ac', '\ud83d\ude00'),
  fc.constantFrom('\ufb33', '\ud800', '\udc00', 'a\u0000', 'é', 'e\u0301', '\u007f', 'op', 'path', 'value'),
  // A backslash before `ud`: written as `\\ud`, which holds what a lone surrogate's escape starts with.
  fc.constantFrom('\\ud800', 'a\\udc00', '\\\ud800'),
);

/** Numbers JCS writes in its own forms, and those it refuses. */
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 4.35, 0.000001, 2 ** 53, -(2 ** 53), 5e-324, 1.7976931348623157e308, 100),
);

const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('\\ud800', 'a\\udc00', '\\\ud800'),
    fc.array(tie('value')),
    fc.dictionary(key, tie('value')),
  ),
})).value;

describe('JCS (record 0072)', () => {
  it('writes the bytes canonicalize writes for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => expectSame(json)),
      { numRuns: RUNS, seed: 8785 },
    );
  });

  it('writes the bytes canonicalize writes when handed the value as JSON.stringify writes it (record 0084)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        expect(outcome((v) => jcs(v, JSON.stringify(v)), json)).toBe(outcome(canonicalize, json));
      }),
      { numRuns: RUNS, seed: 84 },
    );
    const inOrder = { a: [{ b: 1, c: 'é' }], d: null };
    expect(jcs(inOrder, JSON.stringify(inOrder))).toBe(canonicalize(inOrder));
    // A lone surrogate is still refused, whatever text is handed over.
    expect(outcome((v) => jcs(v, JSON.stringify(v)), { a: '\ud800' })).toBe('threw');
  });

  it('writes the same bytes when handed the text JSON.stringify writes as UTF-8', () => {
    const asBytes = (v: unknown) => {
      const written = jcs(v, Buffer.from(JSON.stringify(v), 'utf8'));
      return typeof written === 'string' ? written : written.toString('utf8');
    };
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        expect(outcome(asBytes, json)).toBe(outcome(canonicalize, json));
      }),
      { numRuns: RUNS, seed: 8 },
    );
    // Bytes already in JCS order are answered as they are: not decoded, not written again.
    const bytes = Buffer.from(JSON.stringify({ a: 'є', b: [1, { c: 2 }] }), 'utf8');
    expect(jcs({ a: 'є', b: [1, { c: 2 }] }, bytes)).toBe(bytes);
    expect(outcome(asBytes, { a: '\ud800' })).toBe('threw');
  });

  it('writes the same bytes, or throws as canonicalize throws, for keys and numbers chosen to trip it', () => {
    fc.assert(
      fc.property(value, (v) => expectSame(v)),
      { numRuns: RUNS, seed: 6962 },
    );
  });

  it('does as canonicalize does with what is not plain JSON', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
          withObjectString: true,
        }),
        (v) => expectSame(v),
      ),
      { numRuns: RUNS, seed: 1738 },
    );
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const v of [
      undefined,
      NaN,
      Infinity,
      [undefined, () => 1, Symbol('s')],
      { a: undefined, b: () => 1, c: 2 },
      { b: 1, a: { toJSON: () => ({ d: 1, c: 2 }) } },
      Object.assign([2, 1], { toJSON: () => 'array' }),
      new Date(0),
      { z: new Number(4), y: new String('s'), x: new Boolean(false) },
      cyclic,
      { b: 1, a: 10n },
      JSON.parse('{"__proto__": {"b": 1, "a": 2}, "x": 1}'),
    ])
      expectSame(v);
  });

  it('writes the bytes canonicalize writes for revisions as the registry makes them', () => {
    const asset = createPayload();
    const edit = fc.record({
      title: fc.string({ unit: 'grapheme' }),
      description: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
      quantity: number,
      extra: fc.dictionary(key, value),
    });
    fc.assert(
      fc.property(edit, edit, (first, second) => {
        const before = JSON.parse(JSON.stringify({ ...asset, ...first }));
        const after = JSON.parse(JSON.stringify({ ...before, ...second }));
        expectSame(changesBetween({}, before));
        expectSame(changesBetween(before, after));
        expectSame({ asset: 'a'.repeat(32), rev: 2, date: '2026-11-22T12:30:17.615196+02:00', author: 'broker' });
      }),
      { numRuns: RUNS / 4, seed: 2026 },
    );
  });
});
