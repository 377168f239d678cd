/** The change stream's request and events (docs/decisions/0034-change-stream-is-the-feed-pushed.md). */
import type { ListedRow, ListMode } from './listing.js';
import { fieldsToRead, lastValue, listedItemText, readFields, readMode, readPosition } from './listing.js';
import { toJson } from './serialize.js';

export interface ChangeStreamParams {
  /** Strictly after this `modified`; absent: from the feed's start. */
  after?: number;
  /** Where `after` was read from. */
  afterFrom?: 'Last-Event-ID' | 'offset';
  mode: ListMode;
  /** As `fieldsToRead` gives them. */
  fields: string[];
}

/** `Last-Event-ID`, which a browser resends on reconnect, wins over `offset`; an empty one counts as absent. */
export function parseChangeStreamRequest(
  query: Record<string, unknown>,
  lastEventId: string | undefined,
  timeZone: string,
): ChangeStreamParams {
  const params: ChangeStreamParams = { mode: readMode(query), fields: fieldsToRead(readFields(query)) };
  const offset = lastValue(query.offset);
  if (lastEventId !== undefined && lastEventId !== '') {
    params.after = readPosition(lastEventId, timeZone, 'header', 'Last-Event-ID');
    params.afterFrom = 'Last-Event-ID';
  } else if (offset !== '') {
    params.after = readPosition(offset, timeZone, 'querystring', 'offset');
    params.afterFrom = 'offset';
  }
  return params;
}

/** Clients reconnect after a second; the default is browser-specific. */
export const STREAM_OPENING = 'retry: 1000\n\n';

/** Keeps proxies from closing an idle stream. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * A feed row whose large field values are bytes shared by every stream that sends them
 * (docs/decisions/0061-one-copy-of-an-event.md); small ones stay text.
 */
export interface EventRow {
  id: string;
  modified: number;
  dateModified: string;
  /** As `ListedRow.fields`: one per field read, in its order. */
  values?: (string | Buffer | undefined)[];
}

/**
 * `eventText` of `row` as the pieces to write: text around the shared values, which are written as they are. Their
 * bytes are those of `eventText` with the values' text.
 */
export function eventChunks(row: EventRow, fields: readonly string[]): (string | Buffer)[] {
  const chunks: (string | Buffer)[] = [];
  let text = `id: ${row.dateModified}\ndata: {"id":${toJson(row.id)},"dateModified":${toJson(row.dateModified)}`;
  const values = row.values;
  if (values !== undefined) {
    for (let i = 0; i < fields.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      text += `,"${fields[i]}":`;
      if (typeof value === 'string') {
        text += value;
      } else {
        chunks.push(text, value);
        text = '';
      }
    }
  }
  chunks.push(`${text}}\n\n`);
  return chunks;
}

export function eventText(row: ListedRow, fields: string[]): string {
  // JSON escapes every line break inside strings, so the data is one line.
  return `id: ${row.dateModified}\ndata: ${listedItemText(row, fields)}\n\n`;
}
