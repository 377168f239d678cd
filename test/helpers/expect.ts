/** Assertions on the error envelope: errors compared as sets (their order is not part of the contract). */
import { expect } from 'vitest';
import type { Response } from './client.js';

export interface ExpectedError {
  location: string;
  name: string;
  description?: unknown;
}

function canon(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** Status plus exactly these errors (as a set); an entry without `description` matches any description. */
export function expectErrors(res: Response, status: number, expected: ExpectedError[]): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.json?.status, res.text).toBe('error');
  const actual: any[] = res.json.errors;
  expect(Array.isArray(actual), res.text).toBe(true);
  const shape = (e: any, withDescription: boolean) =>
    canon(
      withDescription
        ? { location: e.location, name: e.name, description: e.description }
        : { location: e.location, name: e.name },
    );
  const want = expected.map((e) => ('description' in e ? shape(e, true) : shape(e, false))).sort();
  const got = actual.map((e, i) => ('description' in (expected[i] ?? {}) ? shape(e, true) : shape(e, false)));
  // Match each expected entry to one actual entry.
  const remaining = actual.slice();
  for (const e of expected) {
    const key = shape(e, 'description' in e);
    const idx = remaining.findIndex((a) => shape(a, 'description' in e) === key);
    expect(idx, `expected error ${key} in ${res.text}`).toBeGreaterThanOrEqual(0);
    remaining.splice(idx, 1);
  }
  expect(
    remaining.map((a) => shape(a, true)),
    `unexpected extra errors (wanted ${want.join(' ')}; got ${got.join(' ')})`,
  ).toEqual([]);
}

/** One error entry whose description is a single-message list (or the given value). */
export function expectOneError(
  res: Response,
  status: number,
  location: string,
  name: string,
  description?: unknown,
): void {
  expectErrors(res, status, [description === undefined ? { location, name } : { location, name, description }]);
}
