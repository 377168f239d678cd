import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/domain/serialize.js';

describe('toJson: amounts', () => {
  it('writes whole amounts as floats, as the original responses show', () => {
    expect(toJson({ value: { amount: 100, currency: 'UAH' } })).toBe('{"value":{"amount":100.0,"currency":"UAH"}}');
    expect(toJson({ amount: 0 })).toBe('{"amount":0.0}');
    expect(toJson({ amount: -3 })).toBe('{"amount":-3.0}');
  });

  it('keeps fractions as they are', () => {
    expect(toJson({ amount: 1.5 })).toBe('{"amount":1.5}');
    expect(toJson({ amount: 7.658 })).toBe('{"amount":7.658}');
  });

  it('writes huge amounts in exponent form, still a float for any reader', () => {
    expect(toJson({ amount: 1e21 })).toBe('{"amount":1e+21}');
    expect(toJson({ amount: 1e16 })).toBe('{"amount":1e+16}');
    expect(toJson({ amount: 9007199254740991 })).toBe('{"amount":9007199254740991.0}');
    expect(JSON.parse(toJson({ amount: 1e21 })).amount).toBe(1e21);
  });

  it('finds amounts at any depth, in lists too', () => {
    const debt = {
      debt: { value: { amount: 5 }, debtCurrencyValue: { amount: 6.25 } },
      items: [{ unit: { value: { amount: 7 } } }],
    };
    expect(toJson(debt)).toBe(
      '{"debt":{"value":{"amount":5.0},"debtCurrencyValue":{"amount":6.25}},"items":[{"unit":{"value":{"amount":7.0}}}]}',
    );
  });

  it('changes only numbers under the key amount', () => {
    expect(toJson({ quantity: 5, amounts: 3, amount: '100', list: [100] })).toBe(
      '{"quantity":5,"amounts":3,"amount":"100","list":[100]}',
    );
    expect(toJson({ amount: [1, 2] })).toBe('{"amount":[1,2]}');
  });

  it('writes non-finite amounts as null, as JSON.stringify does', () => {
    expect(toJson({ amount: Number.NaN, other: Infinity })).toBe('{"amount":null,"other":null}');
  });
});

/** Any UTF-16 code units, lone surrogates and control characters included. */
const utf16String = fc.string({ unit: fc.nat(0xffff).map((code) => String.fromCharCode(code)) });

describe('toJson: the rest is JSON.stringify', () => {
  it('matches JSON.stringify, compact and indented by 4, for any JSON without amount keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes('"amount"'));
        expect(toJson(value)).toBe(JSON.stringify(value));
        expect(toJson(value, { pretty: true })).toBe(JSON.stringify(value, null, 4));
      }),
      { numRuns: 500 },
    );
  });

  it('escapes every string, keys included, exactly like JSON.stringify', () => {
    fc.assert(
      fc.property(utf16String, utf16String, (a, b) => {
        const value = { [a]: b, list: [a, b] };
        expect(toJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
    const awkward = '"\\\n\r\t\u0000\u001f\u2028\u2029\ud800 </script> Право';
    expect(toJson({ [awkward]: awkward })).toBe(JSON.stringify({ [awkward]: awkward }));
  });

  it('drops undefined and function members, writes them as null in lists, and uses toJSON', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, () => 1], d: new Date(0), e: null };
    expect(toJson(value)).toBe(JSON.stringify(value));
    expect(toJson(value, { pretty: true })).toBe(JSON.stringify(value, null, 4));
    expect(toJson(undefined)).toBe('null');
  });

  it('refuses a BigInt as JSON.stringify does', () => {
    expect(() => toJson({ n: 1n })).toThrow(TypeError);
  });
});

describe('toJson: pretty', () => {
  it('indents by 4 with ": " like the original', () => {
    expect(toJson({ data: { value: { amount: 100 }, items: [], tags: {} } }, { pretty: true })).toBe(
      '{\n    "data": {\n        "value": {\n            "amount": 100.0\n        },\n        "items": [],\n        "tags": {}\n    }\n}',
    );
  });

  it('writes amounts as floats in pretty output too', () => {
    expect(toJson([{ amount: 3 }], { pretty: true })).toBe('[\n    {\n        "amount": 3.0\n    }\n]');
  });
});
