/**
 * The listing feed's query and page envelope (behaviour §2 and §8, decisions.md §5 and §8): which page was
 * asked for, and the `next_page` / `prev_page` links a client follows.
 */
import { parseDateToMicros } from './dates.js';
import { ApiError } from './errors.js';
import type { components } from '../generated/openapi.js';
import type { JsonText } from './json.js';
import { toJson } from './serialize.js';

/** Which assets a feed lists: real ones (the default), test-mode ones, or both. */
export type ListMode = 'real' | 'test' | 'all';

/** One entry of the feed as a store reads it. */
export interface ListedRow {
  id: string;
  /** `dateModified` as microseconds since the epoch: the feed's order key. */
  modified: number;
  /** The `dateModified` string as served. */
  dateModified: string;
  /**
   * The JSON text of each field the listing asked for (`opt_fields`, in the order asked), undefined where the
   * asset has no such field.
   */
  fields?: (string | undefined)[];
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface ListingParams {
  /** The offset as microseconds since the epoch; absent when the feed starts from its beginning (or end). */
  after?: number;
  /** The offset as echoed in the links: the request's text with a lost `+` restored; '' when none was given. */
  offset: string;
  limit: number;
  descending: boolean;
  mode: ListMode;
  /** The `mode` query value to echo (`test` or `_all_`); absent for the default, which is not echoed. */
  modeParam?: string;
  /** `opt_fields`, trimmed, empties dropped. */
  fields: string[];
  /** The `limit` query value as given, echoed in the links. */
  limitParam?: string;
}

type ListingPage = components['schemas']['ListingPage'];
type PageLink = components['schemas']['Page'];

/** Query mode values and what they select; any other value selects the default (real assets), not echoed. */
const MODES: ReadonlyMap<string, ListMode> = new Map([
  ['test', 'test'],
  ['_all_', 'all'],
]);

/**
 * An offset whose `+` sign arrived unencoded was decoded to a space: `…03.936033 02:00`. Only a space right
 * before a trailing `HH`, `HHMM` or `HH:MM` is such a sign.
 */
const LOST_PLUS_SIGN = /(\d) (\d{2}(?::?\d{2})?)$/;

/** Reads the listing query. Throws ApiError 400 (`querystring`) for an unreadable `offset` or `limit`. */
export function parseListingQuery(query: Record<string, unknown>, timeZone: string): ListingParams {
  const params: ListingParams = {
    offset: '',
    limit: DEFAULT_PAGE_SIZE,
    descending: lastValue(query.descending) !== '',
    mode: 'real',
    fields: [],
  };

  const offset = lastValue(query.offset);
  if (offset !== '') {
    params.offset = restoreLostPlus(offset);
    params.after = readPosition(offset, timeZone, 'querystring', 'offset');
  }

  const limit = lastValue(query.limit);
  if (limit !== '') {
    if (!/^\d+$/.test(limit) || Number(limit) < 1) {
      throw ApiError.one(400, 'querystring', 'limit', 'Invalid limit: expected a whole number of at least 1');
    }
    params.limit = Math.min(Number(limit), MAX_PAGE_SIZE);
    params.limitParam = limit;
  }

  const mode = MODES.get(lastValue(query.mode));
  if (mode !== undefined) {
    params.mode = mode;
    params.modeParam = lastValue(query.mode);
  }

  params.fields = readFields(query);
  return params;
}

/** The listing mode a query asks for (`mode`): real assets unless `test` or `_all_`. */
export function readMode(query: Record<string, unknown>): ListMode {
  return MODES.get(lastValue(query.mode)) ?? 'real';
}

/** `opt_fields`, trimmed, empties dropped. */
export function readFields(query: Record<string, unknown>): string[] {
  return lastValue(query.opt_fields)
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
}

function restoreLostPlus(text: string): string {
  return text.replace(LOST_PLUS_SIGN, '$1+$2');
}

/**
 * A feed position (a `dateModified` value, as `offset` and the change stream's `Last-Event-ID` carry it) in
 * microseconds. Throws ApiError 400 naming where it came from when it is not a date-time.
 */
export function readPosition(text: string, timeZone: string, location: 'querystring' | 'header', name: string): number {
  const micros = parseDateToMicros(restoreLostPlus(text), timeZone);
  if (micros === undefined) {
    throw ApiError.one(
      400,
      location,
      name,
      `Invalid ${name}: expected a dateModified value, an ISO 8601 date-time such as 2026-11-22T12:30:17.615196+02:00`,
    );
  }
  return micros;
}

/**
 * The fields of `opt_fields` a listing reads from each asset: each once, not `id` or `dateModified` (every entry
 * has them), and only names that can be an asset's field (identifiers): any other name is in no asset.
 */
export function fieldsToRead(fields: readonly string[]): string[] {
  const read = new Set<string>();
  for (const field of fields) if (isFieldName(field) && !ENTRY_KEYS.has(field)) read.add(field);
  return [...read];
}

/** Whether `name` can be an asset's top-level field: asset fields are identifiers. */
export function isFieldName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

const ENTRY_KEYS = new Set(['id', 'dateModified']);

/**
 * The response body of one listing page, as JSON text: the entries are written from the rows' own texts,
 * nothing is parsed. Items have `id`, `dateModified` and the requested `opt_fields` the asset has (`fields`:
 * the list the rows were read with, `fieldsToRead`). `next_page` continues after the last row (or stays at the
 * request's offset when the page is empty, so the client polls there); `prev_page`, given only when the request
 * was descending or had an offset, walks back from the first row.
 */
export function listingPageText(
  params: ListingParams,
  fields: readonly string[],
  rows: ListedRow[],
  base: { path: string; origin: string },
): JsonText<ListingPage> {
  let text = '{"data":[';
  for (let i = 0; i < rows.length; i++) text += (i === 0 ? '' : ',') + listedItemText(rows[i]!, fields);
  const first = rows[0];
  const last = rows[rows.length - 1];
  text += '],"next_page":' + toJson(pageLink(params, base, last?.dateModified ?? params.offset, params.descending));
  if (params.descending || params.offset !== '') {
    text += ',"prev_page":' + toJson(pageLink(params, base, first?.dateModified ?? params.offset, !params.descending));
  }
  return text + '}';
}

/** One feed entry as JSON text: `id`, `dateModified` and the fields read (listing pages and change events). */
export function listedItemText(row: ListedRow, fields: readonly string[]): string {
  let text = '{"id":' + toJson(row.id) + ',"dateModified":' + toJson(row.dateModified);
  const values = row.fields;
  if (values !== undefined) {
    for (let i = 0; i < fields.length; i++) {
      const value = values[i];
      if (value !== undefined) text += ',"' + fields[i] + '":' + value;
    }
  }
  return text + '}';
}

function pageLink(
  params: ListingParams,
  base: { path: string; origin: string },
  offset: string,
  descending: boolean,
): PageLink {
  const query: [string, string][] = [];
  if (params.modeParam !== undefined) query.push(['mode', params.modeParam]);
  if (params.limitParam !== undefined) query.push(['limit', params.limitParam]);
  if (descending) query.push(['descending', '1']);
  if (params.fields.length > 0) query.push(['opt_fields', params.fields.join(',')]);
  query.push(['offset', offset]);
  const path = base.path + '?' + query.map(([name, value]) => name + '=' + formEncode(value)).join('&');
  return { path, uri: base.origin + path, offset };
}

/** Percent-encoding as the original's urlencode (quote_plus): `:` → `%3A`, `+` → `%2B`, space → `+`. */
function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/**
 * A query value as text: the last of repeated values (as the original's params), '' when absent. The route schema
 * may already have made a number of it (`limit`).
 */
export function lastValue(value: unknown): string {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof last === 'number') return String(last);
  return typeof last === 'string' ? last : '';
}
