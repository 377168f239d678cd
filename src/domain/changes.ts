/**
 * The change stream's request and wire format (decisions.md §11): where a stream starts, which entries it
 * carries, and the Server-Sent Events text of each event. The entries are the listing's (listing.ts): the stream
 * is the feed, pushed.
 */
import type { ListedRow, ListMode } from './listing.js';
import { fieldsToRead, lastValue, listedItemText, readFields, readMode, readPosition } from './listing.js';

export interface ChangeStreamParams {
  /** Events start strictly after this `modified` (µs); absent: from the start of the feed. */
  after?: number;
  mode: ListMode;
  /** The fields of `opt_fields` each event carries, as the listing reads them (`fieldsToRead`). */
  fields: string[];
}

/**
 * The stream's request: `Last-Event-ID` (the header a browser resends on reconnect) wins over the `offset` query;
 * both are `dateModified` values. An empty header counts as absent. Throws ApiError 400 for an unreadable one.
 */
export function parseChangeStreamRequest(
  query: Record<string, unknown>,
  lastEventId: string | undefined,
  timeZone: string,
): ChangeStreamParams {
  const params: ChangeStreamParams = { mode: readMode(query), fields: fieldsToRead(readFields(query)) };
  const offset = lastValue(query.offset);
  if (lastEventId !== undefined && lastEventId !== '') {
    params.after = readPosition(lastEventId, timeZone, 'header', 'Last-Event-ID');
  } else if (offset !== '') {
    params.after = readPosition(offset, timeZone, 'querystring', 'offset');
  }
  return params;
}

/** The first bytes of every stream: clients reconnect one second after losing it (the default is browser-specific). */
export const STREAM_OPENING = 'retry: 1000\n\n';

/** A comment line: it carries nothing, but keeps proxies from closing an idle stream. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** One event: its id is the entry's `dateModified`, its data the listing entry as one line of JSON. */
export function eventText(row: ListedRow, fields: string[]): string {
  // JSON escapes every line break inside strings, so the data is one line.
  return `id: ${row.dateModified}\ndata: ${listedItemText(row, fields)}\n\n`;
}
