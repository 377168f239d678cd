import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/domain/json.js';
import { cloneJson, mergePatch, withMember } from '../../src/domain/patch.js';

const jsonObject = fc
  .jsonValue()
  .filter((v): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v));

describe('mergePatch', () => {
  it('deep-merges objects and replaces scalars', () => {
    const target: JsonObject = { title: 'old', value: { amount: 100, currency: 'UAH' }, quantity: 1 };
    expect(mergePatch(target, { title: 'new', value: { amount: 200 } })).toEqual({
      title: 'new',
      value: { amount: 200, currency: 'UAH' },
      quantity: 1,
    });
  });

  it('merges lists element by element, keeping the fields an element patch does not send', () => {
    // The original's patch_decimal_item_quantity: sending only quantities keeps every other item field.
    const target: JsonObject = {
      items: [
        { id: 'a', description: 'first', quantity: 1 },
        { id: 'b', description: 'second', quantity: 2 },
      ],
    };
    expect(mergePatch(target, { items: [{ quantity: 5 }, { quantity: 6 }] })).toEqual({
      items: [
        { id: 'a', description: 'first', quantity: 5 },
        { id: 'b', description: 'second', quantity: 6 },
      ],
    });
  });

  it('gives a list of the patch length: a shorter patch truncates, a longer one appends', () => {
    const target: JsonObject = { items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };
    expect(mergePatch(target, { items: [{ quantity: 1 }] })).toEqual({ items: [{ id: 'a', quantity: 1 }] });
    expect(mergePatch(target, { items: [{}, {}, {}, { id: 'd' }] })).toEqual({
      items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }],
    });
    expect(mergePatch(target, { items: [] })).toEqual({ items: [] });
  });

  it('replaces list elements that are not objects on both sides', () => {
    expect(mergePatch({ tags: ['a', 'b'] }, { tags: ['c'] })).toEqual({ tags: ['c'] });
    expect(mergePatch({ list: [{ x: 1 }] }, { list: [7] })).toEqual({ list: [7] });
    expect(mergePatch({ list: [7] }, { list: [{ x: 1 }] })).toEqual({ list: [{ x: 1 }] });
  });

  it('does not clear a field sent as null, at the top or nested', () => {
    const target: JsonObject = { relatedLot: 'f'.repeat(32), value: { amount: 1, currency: 'UAH' } };
    expect(mergePatch(target, { relatedLot: null, value: { currency: null } })).toEqual(target);
    expect(mergePatch({}, { fresh: null, nested: { a: null, b: 1 } })).toEqual({ nested: { b: 1 } });
  });

  it('keeps the old list element where the patch list has null', () => {
    expect(mergePatch({ items: [{ id: 'a' }, { id: 'b' }] }, { items: [null, { x: 1 }] })).toEqual({
      items: [{ id: 'a' }, { id: 'b', x: 1 }],
    });
  });

  it('replaces a value of another kind', () => {
    expect(mergePatch({ value: 'text' }, { value: { amount: 1 } })).toEqual({ value: { amount: 1 } });
    expect(mergePatch({ value: { amount: 1 } }, { value: 'text' })).toEqual({ value: 'text' });
    expect(mergePatch({ value: { amount: 1 } }, { value: [1] })).toEqual({ value: [1] });
  });

  it('mutates neither input, and the result shares no objects with them', () => {
    const target: JsonObject = { a: { b: [{ c: 1 }] }, untouched: { d: 1 } };
    const patch: JsonObject = { a: { b: [{ e: 2 }] }, added: { f: [1] } };
    const targetCopy = structuredClone(target);
    const patchCopy = structuredClone(patch);
    const result = mergePatch(target, patch);
    expect(target).toEqual(targetCopy);
    expect(patch).toEqual(patchCopy);
    (result.untouched as JsonObject).d = 99;
    ((result.added as JsonObject).f as JsonValue[]).push(2);
    expect(target).toEqual(targetCopy);
    expect(patch).toEqual(patchCopy);
  });

  it('cannot pollute prototypes through __proto__, constructor or prototype keys', () => {
    const patch = JSON.parse(
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "nested": {"__proto__": {"polluted": 3}}}',
    ) as JsonObject;
    const result = mergePatch({}, patch);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.nested)).toBe(Object.prototype);
    expect((result as Record<string, unknown>).polluted).toBeUndefined();
    // The keys stay ordinary data, for validation to refuse as rogue fields.
    expect(Object.keys(result)).toEqual(['__proto__', 'constructor', 'nested']);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(result.constructor).toEqual({ prototype: { polluted: 2 } });
  });

  it('does not merge into inherited members when the target lacks the key', () => {
    const result = mergePatch({}, { constructor: { name: 'x' }, toString: { a: 1 } });
    expect(result).toEqual({ constructor: { name: 'x' }, toString: { a: 1 } });
  });

  it('adds new members in JCS order and keeps the order of the members the target has (record 0084)', () => {
    const created = mergePatch({}, { title: 't', address: { region: 'r', countryName: 'c' }, é: 1, Z: 2 });
    expect(Object.keys(created)).toEqual(['Z', 'address', 'title', 'é']);
    expect(Object.keys(created.address as JsonObject)).toEqual(['countryName', 'region']);
    const patched = mergePatch({ title: 't', address: { region: 'r' } }, { address: { locality: 'l' }, mode: 'test' });
    expect(Object.keys(patched)).toEqual(['title', 'address', 'mode']);
    expect(Object.keys(patched.address as JsonObject)).toEqual(['region', 'locality']);
  });

  it('places a member in its JCS place in an object in that order (withMember)', () => {
    const item: JsonObject = { address: {}, description: 'd', quantity: 1, unit: {} };
    expect(Object.keys(withMember(item, 'id', 'x'))).toEqual(['address', 'description', 'id', 'quantity', 'unit']);
    expect(Object.keys(withMember(item, 'zone', 1))).toEqual(['address', 'description', 'quantity', 'unit', 'zone']);
    expect(withMember(item, 'quantity', 2)).toEqual({ ...item, quantity: 2 });
    expect(Object.keys(withMember(item, 'quantity', 2))).toEqual(Object.keys(item));
    expect(Object.keys(item)).toEqual(['address', 'description', 'quantity', 'unit']);
  });

  it('property: merging an empty patch gives an equal copy; merging into an empty object drops only nulls', () => {
    // Compared as JSON text: vitest's equality does not see own `__proto__` keys, which fast-check generates.
    const dropNulls = (value: JsonValue): JsonValue => {
      if (Array.isArray(value)) return value.filter((element) => element !== null).map(dropNulls);
      if (value === null || typeof value !== 'object') return value;
      // In JCS order, as the merge adds members.
      return Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== null)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => [k, dropNulls(v)]),
      );
    };
    const withoutNullFields = (value: JsonObject): string => JSON.stringify(dropNulls(value));
    fc.assert(
      fc.property(jsonObject, (object) => {
        expect(JSON.stringify(mergePatch(object, {}))).toBe(JSON.stringify(object));
        expect(JSON.stringify(mergePatch({}, object))).toBe(withoutNullFields(object));
      }),
    );
  });

  it('property: every non-null scalar of the patch is in the result at its path', () => {
    fc.assert(
      fc.property(jsonObject, jsonObject, (target, patch) => {
        const result = mergePatch(target, patch);
        for (const key of Object.keys(patch)) {
          const sent = patch[key];
          const before = Object.hasOwn(target, key) ? target[key] : undefined;
          // Own members only: `result.__proto__` would read the prototype where the key was dropped.
          const after = Object.hasOwn(result, key) ? result[key] : undefined;
          if (sent === null) expect(JSON.stringify(after)).toBe(JSON.stringify(before));
          else if (typeof sent !== 'object') expect(result[key]).toBe(sent);
          else if (Array.isArray(sent)) {
            // A null element keeps the old element at its index and is left out where there is none.
            const oldLength = Array.isArray(before) ? before.length : 0;
            const kept = sent.filter((element, index) => element !== null || index < oldLength);
            expect((result[key] as JsonValue[]).length).toBe(kept.length);
          }
        }
      }),
    );
  });
});

describe('cloneJson', () => {
  it('copies deeply', () => {
    const source: JsonObject = { a: [{ b: 1 }] };
    const copy = cloneJson(source) as JsonObject;
    expect(copy).toEqual(source);
    ((copy.a as JsonValue[])[0] as JsonObject).b = 2;
    expect(source).toEqual({ a: [{ b: 1 }] });
  });
});
