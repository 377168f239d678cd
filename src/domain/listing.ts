/** The listing's query and page links (docs/decisions/0019-listing-query-and-page-links.md). */
import { parseDateToMicros } from './dates.js';
import { ApiError } from './errors.js';
import type { components } from '../contract/generated/openapi.js';
import type { JsonText } from './json.js';
import { toJson } from './serialize.js';

export type ListMode = 'real' | 'test' | 'all';

export interface ListedRow {
  id: string;
  /** `dateModified` in microseconds: the feed's order key. */
  modified: number;
  dateModified: string;
  /** The JSON text of each field of `fieldsToRead`, in its order; undefined where the asset has none. */
  fields?: (string | undefined)[];
}

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export interface ListingParams {
  /** The offset in microseconds; absent when the feed is read from its start (or end). */
  after?: number;
  /** The offset as echoed in the links, a lost `+` restored; '' when none was given. */
  offset: string;
  limit: number;
  descending: boolean;
  mode: ListMode;
  /** Absent for the default mode, which is not echoed. */
  modeParam?: string;
  fields: string[];
  limitParam?: string;
}

type ListingPage = components['schemas']['ListingPage'];
type PageLink = components['schemas']['Page'];

/** Any other value selects the default (real assets), not echoed. */
const MODES: ReadonlyMap<string, ListMode> = new Map([
  ['test', 'test'],
  ['_all_', 'all'],
]);

/** A `+` sent unencoded arrives as a space: `…03.936033 02:00`. Only one before a trailing offset is a sign. */
const LOST_PLUS_SIGN = /(\d) (\d{2}(?::?\d{2})?)$/;

/** Throws ApiError 400 for an unreadable `offset` or `limit`. */
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

export function readMode(query: Record<string, unknown>): ListMode {
  return MODES.get(lastValue(query.mode)) ?? 'real';
}

export function readFields(query: Record<string, unknown>): string[] {
  return lastValue(query.opt_fields)
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
}

function restoreLostPlus(text: string): string {
  return text.replace(LOST_PLUS_SIGN, '$1+$2');
}

/** A feed position (a `dateModified` value) in microseconds; ApiError 400 naming its source when unreadable. */
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

/** Each once, without the ones every entry has, and only identifiers: any other name is in no asset. */
export function fieldsToRead(fields: readonly string[]): string[] {
  const read = new Set<string>();
  for (const field of fields) if (isFieldName(field) && !ENTRY_KEYS.has(field)) read.add(field);
  return [...read];
}

export function isFieldName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

const ENTRY_KEYS = new Set(['id', 'dateModified']);

/**
 * Written from the rows' own texts, nothing parsed. An empty page's `next_page` stays at the request's offset, so
 * the client polls there; `prev_page` only when the request was descending or had an offset.
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
  text += `],"next_page":${toJson(pageLink(params, base, last?.dateModified ?? params.offset, params.descending))}`;
  if (params.descending || params.offset !== '') {
    text += `,"prev_page":${toJson(pageLink(params, base, first?.dateModified ?? params.offset, !params.descending))}`;
  }
  return `${text}}`;
}

/** One feed entry, for listing pages and change events alike. */
export function listedItemText(row: ListedRow, fields: readonly string[]): string {
  let text = `{"id":${toJson(row.id)},"dateModified":${toJson(row.dateModified)}`;
  const values = row.fields;
  if (values !== undefined) {
    for (let i = 0; i < fields.length; i++) {
      const value = values[i];
      if (value !== undefined) text += `,"${fields[i]}":${value}`;
    }
  }
  return `${text}}`;
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
  const path = `${base.path}?${query.map(([name, value]) => `${name}=${formEncode(value)}`).join('&')}`;
  return { path, uri: base.origin + path, offset };
}

/** Percent-encoding as the original's urlencode (quote_plus): `:` → `%3A`, `+` → `%2B`, space → `+`. */
function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The last of repeated values, as the original; '' when absent. The route schema may have made it a number. */
export function lastValue(value: unknown): string {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof last === 'number') return String(last);
  return typeof last === 'string' ? last : '';
}
