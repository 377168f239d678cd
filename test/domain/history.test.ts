import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import {
  assetAfter,
  changesBetween,
  firstRevision,
  MAX_REVISIONS_PAGE,
  nextRevision,
  parseRevisionsQuery,
  revisionsPage,
} from '../../src/domain/history.js';
import { ApiError } from '../../src/domain/errors.js';
import type { JsonObject } from '../../src/domain/json.js';

const asset = (overrides: JsonObject = {}): JsonObject => ({
  id: 'a'.repeat(32),
  owner: 'broker',
  status: 'draft',
  dateModified: '2026-11-22T12:30:17.615196+02:00',
  items: [
    { id: '1', quantity: 1 },
    { id: '2', quantity: 2 },
  ],
  'a/b~c': { x: 1 },
  ...overrides,
});

describe('changesBetween', () => {
  it('adds every member to {} (never the path "")', () => {
    const changes = changesBetween({}, asset());
    expect(changes.every((change) => change.op === 'add' && change.path !== '')).toBe(true);
    expect(changes.map((change) => change.path)).toEqual(
      Object.keys(asset()).map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  });

  it("from {} gives the library's diff as kept (its JSON text), for any object (written directly, not diffed)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const object = value as JsonObject;
        expect(JSON.stringify(changesBetween({}, object))).toBe(JSON.stringify(fastJsonPatch.compare({}, object)));
      }),
    );
  });

  it('touches only changed members, with RFC 6901 pointers, add/remove/replace only', () => {
    const before = asset({ description: 'old' });
    const after = asset({ status: 'pending', items: [{ id: '1', quantity: 3 }], 'a/b~c': { x: 2 }, title: 'new' });
    delete after.description;
    const changes = changesBetween(before, after);
    expect(new Set(changes.map((change) => change.op))).toEqual(new Set(['add', 'remove', 'replace']));
    expect(changes).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/status', value: 'pending' },
        { op: 'remove', path: '/description' },
        { op: 'remove', path: '/items/1' },
        { op: 'replace', path: '/items/0/quantity', value: 3 },
        { op: 'replace', path: '/a~1b~0c/x', value: 2 },
        { op: 'add', path: '/title', value: 'new' },
      ]),
    );
    expect(changes).toHaveLength(6);
    expect(
      assetAfter([
        { rev: 1, date: '', author: '', changes: changesBetween({}, before) },
        { rev: 2, date: '', author: '', changes },
      ]),
    ).toEqual(after);
  });

  it('is empty for equal assets', () => {
    expect(changesBetween(asset(), asset())).toEqual([]);
  });
});

describe('revisions', () => {
  it('revision 1 holds the asset from {}, authored by its owner unless told, dated with its dateModified', () => {
    expect(firstRevision(asset())).toMatchObject({ rev: 1, author: 'broker', date: asset().dateModified });
    expect(firstRevision(asset(), 'administrator').author).toBe('administrator');
    expect(assetAfter([firstRevision(asset())])).toEqual(asset());
  });

  it('the next revision is numbered after the count and dated with the new dateModified', () => {
    const after = asset({ dateModified: '2026-11-22T12:31:00.000000+02:00', status: 'pending' });
    expect(nextRevision(4, asset(), after, 'concierge')).toEqual({
      rev: 5,
      date: after.dateModified,
      author: 'concierge',
      changes: changesBetween(asset(), after),
    });
  });

  it('folding leaves the revisions as they were', () => {
    const revisions = [firstRevision(asset())];
    const copy = structuredClone(revisions);
    const folded = assetAfter(revisions);
    (folded.items as JsonObject[]).push({ id: '3' });
    expect(revisions).toEqual(copy);
  });
});

describe('the query of a history page', () => {
  const refused = (query: Record<string, unknown>): unknown => {
    try {
      parseRevisionsQuery(query);
    } catch (error) {
      return error instanceof ApiError ? error.errors.map(({ location, name }) => `${location}/${name}`) : error;
    }
    return 'accepted';
  };

  it('defaults to the start, 100 a page; caps the limit at 1000; takes the last of repeated values', () => {
    expect(parseRevisionsQuery({})).toEqual({ after: 0, limit: 100 });
    expect(parseRevisionsQuery({ offset: '7', limit: '5000' })).toEqual({ after: 7, limit: MAX_REVISIONS_PAGE });
    expect(parseRevisionsQuery({ offset: ['1', '3'], limit: ['9', '2'] })).toEqual({ after: 3, limit: 2 });
  });

  it.each([['abc'], ['0'], ['-1'], ['1.5'], [' 1']])('refuses the limit %j', (limit) => {
    expect(refused({ limit })).toEqual(['querystring/limit']);
  });

  it.each([['x'], ['-1'], ['2.0'], ['1e3']])('refuses the offset %j', (offset) => {
    expect(refused({ offset })).toEqual(['querystring/offset']);
  });

  it('next_page starts after the last revision of the page, or stays when the page is empty', () => {
    const base = { path: '/api/0.1/assets/x/revisions', origin: 'http://127.0.0.1:6543' };
    const page = revisionsPage({ after: 4, limit: 2 }, [{ rev: 5, date: '', author: '', changes: [] }], base);
    expect(page.next_page).toEqual({
      offset: 5,
      path: `${base.path}?limit=2&offset=5`,
      uri: `${base.origin}${base.path}?limit=2&offset=5`,
    });
    expect(revisionsPage({ after: 9, limit: 2 }, [], base).next_page.offset).toBe(9);
  });
});
