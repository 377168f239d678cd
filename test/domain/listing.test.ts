import { describe, expect, it } from 'vitest';
import { parseDateToMicros } from '../../src/domain/dates.js';
import { ApiError } from '../../src/domain/errors.js';
import { fieldsToRead, listingPageText, parseListingQuery, type ListingParams } from '../../src/domain/listing.js';
import type { ListedRow } from '../../src/store/types.js';

const TZ = 'Europe/Kyiv';
// The transcripts' host and path (claimrights/asset-listing.http, listing-with-some-assets.http).
const BASE = { path: '/api/0.1/assets', origin: 'http://lb.api-sandbox.registry.ea.openprocurement.net' };

function row(id: string, dateModified: string, fields?: ListedRow['fields']): ListedRow {
  const modified = parseDateToMicros(dateModified, TZ);
  if (modified === undefined) throw new Error(`bad test date ${dateModified}`);
  return fields === undefined ? { id, modified, dateModified } : { id, modified, dateModified, fields };
}

/** The page as a client reads it: the text parsed (it must be JSON). */
function buildListingPage(params: ListingParams, rows: ListedRow[], base: typeof BASE) {
  return JSON.parse(listingPageText(params, fieldsToRead(params.fields), rows, base));
}

function refusal(query: Record<string, unknown>): ApiError {
  try {
    parseListingQuery(query, TZ);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

describe('parseListingQuery', () => {
  it('defaults to the first 100 real assets, ascending', () => {
    expect(parseListingQuery({}, TZ)).toEqual({ offset: '', limit: 100, descending: false, mode: 'real', fields: [] });
    expect(parseListingQuery({ opt_pretty: '1' }, TZ)).toEqual(parseListingQuery({}, TZ));
  });

  it('reads an offset into microseconds and keeps its text', () => {
    const params = parseListingQuery({ offset: '2018-01-09T18:31:03.936033+02:00' }, TZ);
    expect(params.offset).toBe('2018-01-09T18:31:03.936033+02:00');
    expect(params.after).toBe(Date.UTC(2018, 0, 9, 16, 31, 3) * 1000 + 936033);
  });

  it('understands an offset whose + arrived as a space, and echoes it with the +', () => {
    const params = parseListingQuery({ offset: '2018-01-09T18:31:03.936033 02:00' }, TZ);
    expect(params.offset).toBe('2018-01-09T18:31:03.936033+02:00');
    expect(params.after).toBe(Date.UTC(2018, 0, 9, 16, 31, 3) * 1000 + 936033);
  });

  it('accepts any ISO 8601 offset, not only the registry zone', () => {
    expect(parseListingQuery({ offset: '2018-01-09T16:31:03.936033Z' }, TZ).after).toBe(
      parseListingQuery({ offset: '2018-01-09T18:31:03.936033+02:00' }, TZ).after,
    );
  });

  it('treats an empty offset as none', () => {
    const params = parseListingQuery({ offset: '' }, TZ);
    expect(params.offset).toBe('');
    expect(params.after).toBeUndefined();
  });

  it('refuses a garbage offset with 400 on the querystring', () => {
    for (const offset of ['yesterday', '0', '2018-13-45T99:00:00+02:00', 'a'.repeat(32)]) {
      const error = refusal({ offset });
      expect(error.statusCode).toBe(400);
      expect(error.errors).toHaveLength(1);
      expect(error.errors[0]).toMatchObject({ location: 'querystring', name: 'offset' });
      expect(error.errors[0]?.description).toMatch(/ISO 8601/);
    }
  });

  it('reads limit, serves at most 1000 and keeps the text given', () => {
    expect(parseListingQuery({ limit: '10' }, TZ)).toMatchObject({ limit: 10, limitParam: '10' });
    expect(parseListingQuery({ limit: '1000' }, TZ)).toMatchObject({ limit: 1000, limitParam: '1000' });
    expect(parseListingQuery({ limit: '5000' }, TZ)).toMatchObject({ limit: 1000, limitParam: '5000' });
    expect(parseListingQuery({ limit: '' }, TZ)).toMatchObject({ limit: 100 });
    expect(parseListingQuery({ limit: '' }, TZ).limitParam).toBeUndefined();
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    for (const limit of ['0', '-1', '1.5', 'abc', '10abc', ' 5', '1e3']) {
      const error = refusal({ limit });
      expect(error.statusCode).toBe(400);
      expect(error.errors[0]).toMatchObject({ location: 'querystring', name: 'limit' });
    }
  });

  it('takes any non-empty descending as true, as the original did', () => {
    for (const descending of ['1', '0', 'true', 'false'])
      expect(parseListingQuery({ descending }, TZ).descending).toBe(true);
    expect(parseListingQuery({ descending: '' }, TZ).descending).toBe(false);
  });

  it('knows the test and _all_ modes and falls back to real assets for anything else, unechoed', () => {
    expect(parseListingQuery({ mode: 'test' }, TZ)).toMatchObject({ mode: 'test', modeParam: 'test' });
    expect(parseListingQuery({ mode: '_all_' }, TZ)).toMatchObject({ mode: 'all', modeParam: '_all_' });
    for (const mode of ['', 'all', 'real', 'TEST']) {
      const params = parseListingQuery({ mode }, TZ);
      expect(params.mode).toBe('real');
      expect(params.modeParam).toBeUndefined();
    }
  });

  it('splits opt_fields, trimming and dropping empties', () => {
    expect(parseListingQuery({ opt_fields: ' status, ,assetID,' }, TZ).fields).toEqual(['status', 'assetID']);
  });

  it('uses the last of repeated parameters', () => {
    expect(parseListingQuery({ limit: ['abc', '7'], mode: ['test', '_all_'] }, TZ)).toMatchObject({
      limit: 7,
      mode: 'all',
    });
  });
});

describe('fieldsToRead', () => {
  it('reads each field once, in the order asked, and not the entry keys or names no asset field can have', () => {
    expect(
      fieldsToRead(['status', 'id', 'assetID', 'status', 'dateModified', 'a.b', '$.x', 'title_en', '9lives']),
    ).toEqual(['status', 'assetID', 'title_en']);
  });
});

describe('listingPageText', () => {
  it('gives an empty first page that points at itself (asset-listing.http)', () => {
    expect(buildListingPage(parseListingQuery({}, TZ), [], BASE)).toEqual({
      data: [],
      next_page: {
        path: '/api/0.1/assets?offset=',
        uri: 'http://lb.api-sandbox.registry.ea.openprocurement.net/api/0.1/assets?offset=',
        offset: '',
      },
    });
  });

  it('points past the last row, percent-encoded (listing-with-some-assets.http)', () => {
    const rows = [row('6aa3093c0b00447abefcacf9a11da277', '2018-01-09T18:31:03.936033+02:00')];
    expect(buildListingPage(parseListingQuery({}, TZ), rows, BASE)).toEqual({
      data: [{ id: '6aa3093c0b00447abefcacf9a11da277', dateModified: '2018-01-09T18:31:03.936033+02:00' }],
      next_page: {
        path: '/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00',
        uri: 'http://lb.api-sandbox.registry.ea.openprocurement.net/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00',
        offset: '2018-01-09T18:31:03.936033+02:00',
      },
    });
  });

  it('adds prev_page, walking back from the first row, when an offset was given', () => {
    const params = parseListingQuery({ offset: '2018-01-09T18:00:00.000000+02:00' }, TZ);
    const rows = [row('a', '2018-01-09T18:00:01.000000+02:00'), row('b', '2018-01-09T18:00:02.000000+02:00')];
    const page = buildListingPage(params, rows, BASE);
    expect(page.next_page.offset).toBe('2018-01-09T18:00:02.000000+02:00');
    expect(page.prev_page).toEqual({
      path: '/api/0.1/assets?descending=1&offset=2018-01-09T18%3A00%3A01.000000%2B02%3A00',
      uri: `${BASE.origin}/api/0.1/assets?descending=1&offset=2018-01-09T18%3A00%3A01.000000%2B02%3A00`,
      offset: '2018-01-09T18:00:01.000000+02:00',
    });
  });

  it('echoes the request offset in both links when the page is empty', () => {
    const params = parseListingQuery({ offset: '2018-01-09T18:00:00+02:00' }, TZ);
    const page = buildListingPage(params, [], BASE);
    expect(page.next_page.offset).toBe('2018-01-09T18:00:00+02:00');
    expect(page.prev_page?.offset).toBe('2018-01-09T18:00:00+02:00');
    expect(page.next_page.path).toBe('/api/0.1/assets?offset=2018-01-09T18%3A00%3A00%2B02%3A00');
  });

  it('keeps descending in next_page and flips it in prev_page', () => {
    const rows = [row('b', '2018-01-09T18:00:02.000000+02:00'), row('a', '2018-01-09T18:00:01.000000+02:00')];
    const page = buildListingPage(parseListingQuery({ descending: '1' }, TZ), rows, BASE);
    expect(page.next_page.path).toBe('/api/0.1/assets?descending=1&offset=2018-01-09T18%3A00%3A01.000000%2B02%3A00');
    expect(page.prev_page?.path).toBe('/api/0.1/assets?offset=2018-01-09T18%3A00%3A02.000000%2B02%3A00');
  });

  it('has no prev_page on a first ascending page', () => {
    expect(
      buildListingPage(parseListingQuery({}, TZ), [row('a', '2018-01-09T18:00:01.000000+02:00')], BASE),
    ).not.toHaveProperty('prev_page');
  });

  it('carries mode, limit, descending and opt_fields, in that order, before the offset', () => {
    const params = parseListingQuery(
      { opt_fields: 'status,assetID', descending: 'yes', limit: '5000', mode: '_all_' },
      TZ,
    );
    const page = buildListingPage(params, [], BASE);
    expect(page.next_page.path).toBe(
      '/api/0.1/assets?mode=_all_&limit=5000&descending=1&opt_fields=status%2CassetID&offset=',
    );
    expect(page.prev_page?.path).toBe('/api/0.1/assets?mode=_all_&limit=5000&opt_fields=status%2CassetID&offset=');
  });

  it('adds the requested fields the asset has, after id and dateModified', () => {
    const params = parseListingQuery({ opt_fields: 'status,assetID,relatedLot,id' }, TZ);
    // As a store reads them for fieldsToRead: status, assetID, relatedLot (absent).
    const fields = ['"pending"', '"UA-AR-DGF-2018-01-09-000001"', undefined];
    const page = buildListingPage(params, [row('a', '2018-01-09T18:00:01.000000+02:00', fields)], BASE);
    expect(page.data).toEqual([
      {
        id: 'a',
        dateModified: '2018-01-09T18:00:01.000000+02:00',
        status: 'pending',
        assetID: 'UA-AR-DGF-2018-01-09-000001',
      },
    ]);
    expect(Object.keys(page.data[0] ?? {})).toEqual(['id', 'dateModified', 'status', 'assetID']);
  });

  it('writes the stored texts of the fields as they are (amounts keep their float form)', () => {
    const params = parseListingQuery({ opt_fields: 'value' }, TZ);
    const text = listingPageText(
      params,
      ['value'],
      [row('a', '2018-01-09T18:00:01.000000+02:00', ['{"amount":100.0,"currency":"UAH"}'])],
      BASE,
    );
    expect(text).toContain(
      '{"id":"a","dateModified":"2018-01-09T18:00:01.000000+02:00","value":{"amount":100.0,"currency":"UAH"}}',
    );
  });
});
