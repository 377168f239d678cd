import { describe, expect, it } from 'vitest';
import { eventChunks, eventText, parseChangeStreamRequest } from '../../src/domain/changes.js';
import { parseDateToMicros } from '../../src/domain/dates.js';
import { ApiError } from '../../src/domain/errors.js';

const TZ = 'Europe/Kyiv';
const A = '2018-01-09T18:31:03.936033+02:00';
const B = '2018-01-09T18:31:04.100517+02:00';
const micros = (date: string) => parseDateToMicros(date, TZ)!;

function refusal(query: Record<string, unknown>, lastEventId?: string): ApiError {
  try {
    parseChangeStreamRequest(query, lastEventId, TZ);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseChangeStreamRequest', () => {
  it('starts at the start of the feed, real assets, no fields, unless told otherwise', () => {
    expect(parseChangeStreamRequest({}, undefined, TZ)).toEqual({ mode: 'real', fields: [] });
    expect(parseChangeStreamRequest({ mode: '_all_', opt_fields: ' status, ,title' }, undefined, TZ)).toEqual({
      mode: 'all',
      fields: ['status', 'title'],
    });
  });

  it('starts after Last-Event-ID, which wins over offset; an empty header counts as absent', () => {
    expect(parseChangeStreamRequest({ offset: A }, B, TZ).after).toBe(micros(B));
    expect(parseChangeStreamRequest({ offset: A }, '', TZ).after).toBe(micros(A));
    // The listing's leniency: a + decoded to a space, the last of repeated values.
    expect(parseChangeStreamRequest({ offset: ['x', A.replace('+', ' ')] }, undefined, TZ).after).toBe(micros(A));
  });

  it('refuses a position that is no date, naming where it came from', () => {
    expect(refusal({}, 'event-17')).toMatchObject({
      statusCode: 400,
      errors: [{ location: 'header', name: 'Last-Event-ID' }],
    });
    expect(refusal({ offset: 'yesterday' })).toMatchObject({
      statusCode: 400,
      errors: [{ location: 'querystring', name: 'offset' }],
    });
  });
});

describe('eventText', () => {
  const row = { id: '6aa3093c0b00447abefcacf9a11da277', modified: micros(A), dateModified: A };

  it('is the listing entry as one line of data, with the dateModified as its id', () => {
    expect(eventText(row, [])).toBe(`id: ${A}\ndata: {"id":"${row.id}","dateModified":"${A}"}\n\n`);
  });

  it('adds the fields asked for as the store read their texts; the data stays one line', () => {
    // The texts as a store reads them (`ListQuery.fields`): title, value, and a field the asset lacks.
    const fields = ['"два\\nрядки"', '{"amount":100.0,"currency":"UAH"}', undefined];
    const text = eventText({ ...row, fields }, ['title', 'value', 'missing']);
    expect(text).toBe(
      `id: ${A}\ndata: {"id":"${row.id}","dateModified":"${A}","title":"два\\nрядки","value":{"amount":100.0,"currency":"UAH"}}\n\n`,
    );
    expect(text.split('\n')).toHaveLength(4);
  });
});

describe('eventChunks (record 0061)', () => {
  const row = { id: '6aa3093c0b00447abefcacf9a11da277', modified: micros(A), dateModified: A };
  const texts = ['"два\\nрядки"', '{"amount":100.0,"currency":"UAH"}', undefined];

  it('are the bytes of eventText, the shared values written as they are', () => {
    const fields = ['title', 'value', 'missing'];
    const shared = Buffer.from(texts[1]!);
    const chunks = eventChunks({ ...row, values: [texts[0], shared, undefined] }, fields);
    expect(chunks).toContain(shared);
    expect(Buffer.concat(chunks.map((chunk) => Buffer.from(chunk))).toString()).toBe(
      eventText({ ...row, fields: texts }, fields),
    );
    expect(eventChunks(row, [])).toEqual([eventText(row, [])]);
  });
});
