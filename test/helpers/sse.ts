/**
 * Server-Sent Events for the tests, written from the HTML standard's parsing rules (not shared with the server):
 * a parser of the event-stream text, and a client that holds a stream open over real HTTP (undici) and collects
 * its events.
 */
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { componentValidator } from '../../src/contract/validators.js';

export interface SseEvent {
  /** The `id` field, when the event had one. */
  id?: string;
  /** The `data` lines, joined with `\n`. */
  data: string;
  /** The `event` field, when given. */
  event?: string;
}

/** Feeds on chunks of the stream's text; keeps the events, comments and the last `retry` value it read. */
export class SseParser {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | undefined;
  private buffer = '';
  private fields: { id?: string; event?: string; data: string[] } = { data: [] };

  push(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const match = /\r\n|\n|\r/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (match === null || (match[0] === '\r' && match.index === this.buffer.length - 1)) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.fields.data.length > 0) {
        const event: SseEvent = { data: this.fields.data.join('\n') };
        if (this.fields.id !== undefined) event.id = this.fields.id;
        if (this.fields.event !== undefined) event.event = this.fields.event;
        this.events.push(event);
      }
      this.fields = { data: [] };
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') this.fields.data.push(value);
    else if (name === 'id') this.fields.id = value;
    else if (name === 'event') this.fields.event = value;
    else if (name === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }
}

/** Streams stay open far longer than undici's default body timeout; a dispatcher of their own. */
const streamDispatcher = new Agent({ bodyTimeout: 0, headersTimeout: 30_000, connections: null, pipelining: 1 });

export interface OpenedStream {
  status: number;
  headers: Record<string, string>;
  parser: SseParser;
  /** Resolves when the server ends the stream (cleanly: `true`; cut off: `false`). */
  ended: Promise<boolean>;
  /** The body text of a refusal (anything but 200). */
  text: string;
  /** Closes the connection from the client's side. */
  close(): void;
  /** Calls `listener` after each chunk of the stream has been parsed. */
  onChunk(listener: () => void): void;
  /** Resolves once `done(parser)` holds; fails after `timeoutMs`. */
  waitFor(done: (parser: SseParser) => boolean, timeoutMs: number, what?: string): Promise<void>;
}

/** GET `url` as an event stream. A refusal (not 200) is read whole and returned with its text. */
async function openStream(
  url: string,
  headers: Record<string, string> = {},
  dispatcher: Dispatcher = streamDispatcher,
): Promise<OpenedStream> {
  const abort = new AbortController();
  const res = await request(url, {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
    dispatcher,
  });
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const parser = new SseParser();
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: flat,
      parser,
      ended: Promise.resolve(true),
      text,
      close: () => undefined,
      onChunk: () => undefined,
      waitFor: () => Promise.reject(new Error(`no stream: ${res.statusCode} ${text}`)),
    };
  }
  res.body.setEncoding('utf8');
  const listeners = new Set<() => void>();
  const ended = new Promise<boolean>((resolve) => {
    res.body.on('data', (chunk: string) => {
      parser.push(chunk);
      for (const listener of listeners) listener();
    });
    res.body.on('end', () => resolve(true));
    res.body.on('error', () => resolve(false));
  });
  return {
    status: res.statusCode,
    headers: flat,
    parser,
    ended,
    text: '',
    close: () => abort.abort(),
    onChunk: (listener) => void listeners.add(listener),
    waitFor: (done, timeoutMs, what = 'the expected events') =>
      new Promise<void>((resolve, reject) => {
        if (done(parser)) return resolve();
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`stream: ${what} did not arrive within ${timeoutMs} ms (${parser.events.length} events so far)`),
          );
        }, timeoutMs);
        const check = () => {
          if (!done(parser)) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
      }),
  };
}

export const CHANGES = '/api/0.1/assets/changes';

/** A stream's event as the registry sends it: its id, and its data parsed (a listing entry). */
export interface ChangeEvent {
  id: string;
  data: { id: string; dateModified: string; [field: string]: unknown };
}

/**
 * `GET /api/0.1/assets/changes<query>` on `base`. The test servers check their replies against the OpenAPI
 * document themselves (VALIDATE_REPLIES), refusals included; the events inside a stream are checked here
 * (`changeEvents`).
 */
export async function openChanges(
  base: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<OpenedStream> {
  return openStream(base + CHANGES + query, headers);
}

/** The document's schema of an event's data: a listing entry. */
const listingItem = componentValidator('ListingItem');

/** The events read so far, each checked: one line of JSON data matching `ListingItem`, its id its `dateModified`. */
export function changeEvents(parser: SseParser): ChangeEvent[] {
  return parser.events.map((event) => {
    if (event.data.includes('\n')) throw new Error(`event data on several lines: ${event.data}`);
    const data = JSON.parse(event.data) as ChangeEvent['data'];
    if (!listingItem(data))
      throw new Error(`event data ${event.data} is no ListingItem: ${JSON.stringify(listingItem.errors)}`);
    if (event.id !== data.dateModified)
      throw new Error(`event id ${event.id} is not its dateModified ${data.dateModified}`);
    return { id: event.id, data };
  });
}
