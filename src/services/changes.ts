/**
 * The change stream (decisions.md §11): every change of the feed pushed to the clients of this node as
 * Server-Sent Events, with the feed's own guarantee (nothing skipped, nothing twice).
 *
 * The stream is the feed, pushed: every event comes from `store.list` with `after` = the last position sent, so a
 * stream shows exactly what a client following `next_page` would see, and resuming after an event id is resuming
 * the listing at that offset. Why the listing never skips is docs/feed-completeness.md.
 *
 * One reader per node. The store signals writes of every node (`watchWrites`: SQLite's data_version, MongoDB's
 * change stream or a poll of the clock); on each signal this node reads the new feed rows once per group of
 * streams that want the same rows (same `mode`, with or without the documents) and writes them to every stream of
 * the group. A stream that starts behind, or fell behind, reads pages itself until it is level with the feed,
 * then joins its group (which goes back to the stream's position when it no longer holds the rows after it).
 * Rows > a stream's position are all it is ever sent, so joining early or late never repeats an event, and every
 * read continues after the last row it returned, so none is skipped.
 *
 * A stream is in one of four states: catching up (reading pages itself), live (fed by its group), paused (its
 * client left more than `maxUnread` bytes unread; nothing more is written to it until it drains, then it catches
 * up), closed. A stream paused for longer than `unreadTimeout` is dropped; its client resumes with Last-Event-ID.
 */
import { PassThrough, type Readable } from 'node:stream';
import { KEEP_ALIVE, STREAM_OPENING, eventText, parseChangeStreamRequest, type ChangeStreamParams } from '../domain/changes.js';
import { ApiError } from '../domain/errors.js';
import type { ListedRow, ListMode } from '../domain/listing.js';
import type { AssetStore, WriteWatch } from '../store/types.js';

export interface ChangeStreamSettings {
  /** The zone `offset` and `Last-Event-ID` are read in when they carry no offset of their own. */
  timeZone: string;
  /** Streams this node serves at once; more are refused with 503. */
  maxClients: number;
  /** Bytes a stream may hold unread by its client before nothing more is written to it… */
  maxUnread: number;
  /** …and how long (ms) it may stay so before it is dropped. */
  unreadTimeout: number;
  /** Longest silence of a stream (ms) before a keep-alive comment. */
  heartbeat: number;
}

/** What the service logs (a pino logger fits). */
export interface ChangeStreamLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Rows a group reads per query. */
const GROUP_PAGE = 1000;
/** Rows a stream that catches up reads per query (smaller: its client may be slow). */
const CATCH_UP_PAGE = 200;
/** Rows a group keeps after reading them, so that streams just behind it join without a query of their own. */
const RECENT_ROWS = 2000;
/** After a failed group read, the next attempt. */
const RETRY_READ_MS = 1000;
/** `Retry-After` of the 503 when the node has no room for another stream. */
const RETRY_AFTER_S = 5;
/** Position before every row: the start of the feed. */
const START = Number.NEGATIVE_INFINITY;

type State = 'catching-up' | 'live' | 'paused' | 'closed';

interface Stream {
  body: PassThrough;
  mode: ListMode;
  fields: string[];
  /** `fields` as a cache key for the event texts of one fan-out. */
  fieldsKey: string;
  groupKey: string;
  /** The `modified` of the last row sent (or the position asked for): only rows after it are sent. */
  position: number;
  state: State;
  /** When something was last written (performance.now() ms): keep-alives fill longer silences. */
  lastWriteAt: number;
  /** While paused: since when. */
  pausedAt: number;
  /** Bytes taken from `body` but not yet by the client (the response's buffer). */
  queued: () => number;
}

/** The streams of one node that want the same rows, and the one reader that feeds them. */
interface Group {
  key: string;
  mode: ListMode;
  /** The fields its streams carry (`opt_fields`): one group per mode and list of fields. */
  fields: readonly string[];
  /** Every row up to here has been read (and sent to the live streams). */
  head: number;
  /** The last rows read, ascending: all the rows in (recentFrom, head]. */
  recent: ListedRow[];
  recentFrom: number;
  live: Set<Stream>;
  reading: boolean;
  /** A signal came while reading: read once more. */
  again: boolean;
  /** Counts rewinds: a read that started before one is thrown away. */
  generation: number;
}

export class ChangeStreams {
  private readonly streams = new Set<Stream>();
  private readonly groups = new Map<string, Group>();
  private watching: Promise<WriteWatch> | undefined;
  private readonly maintenance: NodeJS.Timeout;
  private readonly tickMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private wakePending = false;
  private closed = false;

  constructor(
    private readonly store: AssetStore,
    private readonly settings: ChangeStreamSettings,
    private readonly log: ChangeStreamLog,
  ) {
    // Often enough that no stream stays silent beyond `heartbeat` and no slow client is kept much beyond its time.
    this.tickMs = Math.max(10, Math.min(1000, settings.heartbeat / 2, settings.unreadTimeout / 4));
    this.maintenance = setInterval(() => this.maintain(), this.tickMs);
    this.maintenance.unref();
  }

  /** Streams open on this node. */
  get size(): number {
    return this.streams.size;
  }

  /** Where a stream starts and what it carries, from the request; ApiError 400 for an unreadable position. */
  request(query: Record<string, unknown>, lastEventId: string | undefined): ChangeStreamParams {
    return parseChangeStreamRequest(query, lastEventId, this.settings.timeZone);
  }

  /**
   * Opens a stream: the readable side is the response body. `queued` tells how many bytes wait beyond it, on
   * their way to the client (the response's own buffer). Throws ApiError 503 when the node serves `maxClients`
   * streams already (or is closing).
   */
  open(params: ChangeStreamParams, queued: () => number = () => 0): Readable {
    if (this.closed || this.streams.size >= this.settings.maxClients) {
      throw new ApiError(503, [{ location: 'url', name: 'stream', description: 'Too many streams, retry later' }], {
        'Retry-After': String(RETRY_AFTER_S),
      });
    }
    const stream: Stream = {
      body: new PassThrough({ highWaterMark: Math.min(16_384, Math.max(1, this.settings.maxUnread)) }),
      mode: params.mode,
      fields: params.fields,
      fieldsKey: params.fields.join(','),
      groupKey: `${params.mode}:${params.fields.join(',')}`,
      position: params.after ?? START,
      state: 'catching-up',
      lastWriteAt: performance.now(),
      pausedAt: 0,
      queued,
    };
    this.streams.add(stream);
    // The client went away (or was dropped): forget the stream.
    stream.body.once('close', () => this.forget(stream));
    // Its client read enough of what was waiting: catch up from where it stopped.
    stream.body.on('drain', () => this.resume(stream));
    // A write that races the client's disconnect must not become an unhandled error.
    stream.body.on('error', () => undefined);
    this.write(stream, STREAM_OPENING);
    void this.catchUp(stream);
    return stream.body;
  }

  /**
   * Ends every stream, each with a complete response (clients reconnect elsewhere with Last-Event-ID), and opens
   * no more. At once, so that the server can stop listening right after.
   */
  endStreams(): void {
    this.closed = true;
    clearInterval(this.maintenance);
    clearTimeout(this.retryTimer);
    for (const stream of [...this.streams]) {
      // A stream whose client is not reading would hold the shutdown until it does: it is cut instead.
      if (stream.state === 'paused') stream.body.destroy();
      else stream.body.end();
      this.forget(stream);
    }
  }

  /** Ends every stream and stops watching the store. */
  async close(): Promise<void> {
    this.endStreams();
    const watching = this.watching;
    this.watching = undefined;
    if (watching) await (await watching.catch(() => undefined))?.close();
  }

  // ---------------------------------------------------------------- reading

  /** Starts watching the store's writes once, before the first stream reads anything (again after a failure). */
  private watch(): Promise<WriteWatch> {
    this.watching ??= this.store.watchWrites(() => this.wake()).catch((error: unknown) => {
      this.watching = undefined;
      throw error;
    });
    return this.watching;
  }

  /**
   * Something was written on some node: every group reads what is new. Deferred to the next turn of the event
   * loop, so that a burst of signals makes one read and the writer's own answer is not held up by it.
   */
  private wake(): void {
    if (this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      for (const group of this.groups.values()) void this.readGroup(group);
    });
  }

  /** Reads pages after the stream's position until it is level with its group, then joins the group. */
  private async catchUp(stream: Stream): Promise<void> {
    try {
      // Watching first: a write after the group's last read is then always signalled.
      await this.watch();
      while (stream.state === 'catching-up') {
        const group = this.groups.get(stream.groupKey);
        if (group !== undefined && stream.position >= group.recentFrom) {
          this.join(group, stream);
          return;
        }
        const rows = await this.readAfter(stream.position, CATCH_UP_PAGE, stream);
        if (stream.state !== 'catching-up') return;
        this.send(stream, rows);
        if (rows.length < CATCH_UP_PAGE && stream.state === 'catching-up') {
          // Level with the feed: the stream joins its group, or starts it. A group that no longer holds the rows
          // after the stream's position (it started ahead of it, or read on past what it keeps) goes back to it.
          const level = this.groups.get(stream.groupKey) ?? this.startGroup(stream);
          if (stream.position < level.recentFrom) this.rewind(level, stream.position);
          this.join(level, stream);
          return;
        }
      }
    } catch (error) {
      if (stream.state === 'closed') return;
      // The client reconnects with its last event id, to this node or another.
      this.log.warn({ err: error }, 'change stream: reading the feed failed; the stream is ended');
      stream.body.end();
      this.forget(stream);
    }
  }

  /** The next rows of the feed after `position`, ascending, with the fields its reader carries. */
  private readAfter(position: number, limit: number, reader: { mode: ListMode; fields: readonly string[] }): Promise<ListedRow[]> {
    return this.store.list({ after: position === START ? undefined : position, descending: false, limit, mode: reader.mode, fields: reader.fields });
  }

  private startGroup(stream: Stream): Group {
    const group: Group = {
      key: stream.groupKey,
      mode: stream.mode,
      fields: stream.fields,
      head: stream.position,
      recent: [],
      recentFrom: stream.position,
      live: new Set(),
      reading: false,
      again: false,
      generation: 0,
    };
    this.groups.set(group.key, group);
    // A write signalled while the stream was catching up found no group to wake: read once now.
    void this.readGroup(group);
    return group;
  }

  /**
   * Moves the group's reader back to `position`. A read under way when this happens is thrown away (its rows are
   * read again), so that no stream is given rows beyond what the group will read next; the streams already past
   * the rows read again skip them by their positions.
   */
  private rewind(group: Group, position: number): void {
    group.generation++;
    group.head = position;
    group.recentFrom = position;
    group.recent = [];
    void this.readGroup(group);
  }

  /** The stream is at or after `group.recentFrom`: what it has not seen of the group's rows is in `recent`. */
  private join(group: Group, stream: Stream): void {
    stream.state = 'live';
    group.live.add(stream);
    const missed = rowsAfter(group.recent, stream.position);
    if (missed.length > 0) this.send(stream, missed);
  }

  /** Reads the new rows of a group, page by page, and writes them to its live streams. One read at a time. */
  private async readGroup(group: Group): Promise<void> {
    if (group.reading) {
      group.again = true;
      return;
    }
    group.reading = true;
    try {
      do {
        group.again = false;
        for (;;) {
          const generation = group.generation;
          const rows = await this.readAfter(group.head, GROUP_PAGE, group);
          if (generation !== group.generation) {
            // Rewound meanwhile: read again from the new head.
            group.again = true;
            break;
          }
          if (rows.length === 0) break;
          group.head = rows[rows.length - 1]!.modified;
          this.remember(group, rows);
          this.fanOut(group, rows);
          if (rows.length < GROUP_PAGE) break;
        }
      } while (group.again && this.groups.get(group.key) === group);
    } catch (error) {
      if (this.closed) return;
      this.log.warn({ err: error }, 'change stream: reading the feed failed; trying again');
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = undefined;
        this.wake();
      }, RETRY_READ_MS);
    } finally {
      group.reading = false;
    }
  }

  private remember(group: Group, rows: ListedRow[]): void {
    group.recent.push(...rows);
    const excess = group.recent.length - RECENT_ROWS;
    if (excess > 0) {
      group.recentFrom = group.recent[excess - 1]!.modified;
      group.recent.splice(0, excess);
    }
  }

  /** Writes new rows to every live stream of the group; the event texts are made once per `opt_fields`. */
  private fanOut(group: Group, rows: ListedRow[]): void {
    const texts = new Map<string, string[]>();
    const wholes = new Map<string, string>();
    for (const stream of [...group.live]) {
      const from = firstAfter(rows, stream.position);
      if (from === rows.length) continue;
      let eventTexts = texts.get(stream.fieldsKey);
      if (eventTexts === undefined) {
        eventTexts = rows.map((row) => eventText(row, stream.fields));
        texts.set(stream.fieldsKey, eventTexts);
      }
      let text: string;
      if (from === 0) {
        text = wholes.get(stream.fieldsKey) ?? eventTexts.join('');
        wholes.set(stream.fieldsKey, text);
      } else {
        text = eventTexts.slice(from).join('');
      }
      this.deliver(stream, text, rows[rows.length - 1]!.modified);
    }
  }

  /** Sends the rows after the stream's position (a catch-up page, or what it missed while joining). */
  private send(stream: Stream, rows: ListedRow[]): void {
    const from = firstAfter(rows, stream.position);
    if (from === rows.length) return;
    let text = '';
    for (let i = from; i < rows.length; i++) text += eventText(rows[i]!, stream.fields);
    this.deliver(stream, text, rows[rows.length - 1]!.modified);
  }

  private deliver(stream: Stream, text: string, position: number): void {
    if (!this.write(stream, text)) return;
    stream.position = position;
    if (unread(stream) > this.settings.maxUnread) this.pause(stream);
  }

  private write(stream: Stream, text: string): boolean {
    if (stream.state === 'closed' || stream.body.destroyed || stream.body.writableEnded) return false;
    stream.body.write(text);
    stream.lastWriteAt = performance.now();
    return true;
  }

  // ---------------------------------------------------------------- slow clients, keep-alives, the end

  /** Nothing more is written to the stream until its client has read what waits. */
  private pause(stream: Stream): void {
    this.leaveGroup(stream);
    stream.state = 'paused';
    stream.pausedAt = performance.now();
  }

  private resume(stream: Stream): void {
    if (stream.state !== 'paused' || unread(stream) > this.settings.maxUnread) return;
    stream.state = 'catching-up';
    void this.catchUp(stream);
  }

  private maintain(): void {
    const now = performance.now();
    for (const stream of [...this.streams]) {
      if (stream.state === 'paused') {
        if (now - stream.pausedAt >= this.settings.unreadTimeout) {
          this.log.info({ unreadBytes: unread(stream) }, 'change stream: client too slow, dropped');
          stream.body.destroy();
          this.forget(stream);
        } else {
          this.resume(stream);
        }
      } else if (now - stream.lastWriteAt >= this.settings.heartbeat - this.tickMs) {
        this.write(stream, KEEP_ALIVE);
      }
    }
  }

  private leaveGroup(stream: Stream): void {
    const group = this.groups.get(stream.groupKey);
    if (group === undefined || !group.live.delete(stream)) return;
    // Nobody left to feed: stop reading for it (a stream that comes back starts it again).
    if (group.live.size === 0) this.groups.delete(group.key);
  }

  private forget(stream: Stream): void {
    if (stream.state === 'closed') return;
    this.leaveGroup(stream);
    stream.state = 'closed';
    this.streams.delete(stream);
  }
}

/** Bytes written to the stream that its client has not taken yet (what waits in this process). */
function unread(stream: Stream): number {
  return stream.body.writableLength + stream.body.readableLength + stream.queued();
}

/** Index of the first row after `position` (rows ascend by `modified`). */
function firstAfter(rows: ListedRow[], position: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.modified > position) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function rowsAfter(rows: ListedRow[], position: number): ListedRow[] {
  return rows.slice(firstAfter(rows, position));
}
