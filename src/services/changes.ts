/**
 * The change stream: the feed pushed as Server-Sent Events (docs/decisions/0034-change-stream-is-the-feed-pushed.md).
 * A stream that starts or falls behind reads pages itself until it is level, then joins its group (changes/group.ts).
 * Only rows after a stream's position are sent to it, and every read goes on after the last row it returned: joining
 * early or late neither repeats nor skips an event.
 */
import type { Readable } from 'node:stream';
import {
  KEEP_ALIVE,
  STREAM_OPENING,
  eventChunks,
  parseChangeStreamRequest,
  type ChangeStreamParams,
  type EventRow,
} from '../domain/changes.js';
import { ApiError } from '../domain/errors.js';
import type { AssetStore } from '../store/types.js';
import { firstAfter, readAfter } from './changes/feed.js';
import { Group, type GroupHost } from './changes/group.js';
import { SharedValues } from './changes/shared.js';
import { WriteSignals } from './changes/signals.js';
import { newStream, unread, write, type Stream } from './changes/stream.js';

export interface ChangeStreamSettings {
  /** The zone of an `offset` or `Last-Event-ID` without an offset of its own. */
  timeZone: string;
  /** Streams beyond are refused with 503. */
  maxClients: number;
  /** Streams of one client address beyond are refused with 503. */
  maxPerClient: number;
  /** Bytes a stream may hold unread before nothing more is written to it… */
  maxUnread: number;
  /** …and how long (ms) it may stay so before it is dropped. */
  unreadTimeout: number;
  /** Longest silence (ms) before a keep-alive comment. */
  heartbeat: number;
}

export interface ChangeStreamLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Smaller than a group's page: the client may be slow. About a bound's worth of bytes, at least one row. */
const CATCH_UP_PAGE = { maxRows: 200, budget: 1024 * 1024 };
const RETRY_AFTER_S = 5;

function tooMany(): ApiError {
  return new ApiError(503, [{ location: 'url', name: 'stream', description: 'Too many streams, retry later' }], {
    'Retry-After': String(RETRY_AFTER_S),
  });
}

export class ChangeStreams {
  private readonly streams = new Set<Stream>();
  private readonly groups = new Map<string, Group>();
  /** Open streams per client address. */
  private readonly perClient = new Map<string, number>();
  private readonly shared = new SharedValues();
  private readonly signals: WriteSignals;
  private readonly maintenance: NodeJS.Timeout;
  private readonly tickMs: number;
  private closed = false;
  private readonly groupHost: GroupHost = {
    send: (stream, rows) => this.send(stream, rows),
    readFailed: (error) => this.groupReadFailed(error),
  };

  constructor(
    private readonly store: AssetStore,
    private readonly settings: ChangeStreamSettings,
    private readonly log: ChangeStreamLog,
  ) {
    this.signals = new WriteSignals(store, () => {
      for (const group of this.groups.values()) void group.read();
    });
    // Often enough that no stream stays silent beyond `heartbeat` and no slow client is kept much beyond its time.
    this.tickMs = Math.max(10, Math.min(1000, settings.heartbeat / 2, settings.unreadTimeout / 4));
    this.maintenance = setInterval(() => this.maintain(), this.tickMs);
    this.maintenance.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /**
   * ApiError 400 for an unreadable position, or one later than both the newest entry of the feed and the clock: no
   * event would ever reach that stream.
   */
  async request(query: Record<string, unknown>, lastEventId: string | undefined): Promise<ChangeStreamParams> {
    const params = parseChangeStreamRequest(query, lastEventId, this.settings.timeZone);
    const { after, afterFrom } = params;
    if (after === undefined || afterFrom === undefined || after <= Date.now() * 1000) return params;
    const [newest] = await this.store.list({ descending: true, limit: 1, mode: 'all', fields: [] });
    if (newest !== undefined && after <= newest.modified) return params;
    throw ApiError.one(
      400,
      afterFrom === 'Last-Event-ID' ? 'header' : 'querystring',
      afterFrom,
      `Invalid ${afterFrom}: later than the newest entry of the feed and the server's clock`,
    );
  }

  /**
   * The response body; `queued` tells the bytes waiting beyond it. 503 beyond `maxClients`, beyond `maxPerClient` for
   * `client` (its address after `TRUST_PROXY`), or while closing.
   */
  open(params: ChangeStreamParams, queued: () => number = () => 0, client = ''): Readable {
    const ofClient = this.perClient.get(client) ?? 0;
    if (this.closed || this.streams.size >= this.settings.maxClients || ofClient >= this.settings.maxPerClient) {
      throw tooMany();
    }
    const stream = newStream(params, this.settings.maxUnread, queued, client);
    this.streams.add(stream);
    this.perClient.set(client, ofClient + 1);
    stream.body.once('close', () => this.forget(stream));
    // Its client read enough of what was waiting: catch up from where it stopped.
    stream.body.on('drain', () => this.resume(stream));
    // A write that races the client's disconnect must not become an unhandled error.
    stream.body.on('error', () => undefined);
    write(stream, STREAM_OPENING);
    void this.catchUp(stream);
    return stream.body;
  }

  /** Each with a complete response (clients reconnect with Last-Event-ID), at once: the server stops right after. */
  endStreams(): void {
    this.closed = true;
    clearInterval(this.maintenance);
    this.signals.stopRetrying();
    for (const stream of [...this.streams]) {
      // A client that is not reading would hold the shutdown until it does: its stream is cut instead.
      if (stream.state === 'paused') stream.body.destroy();
      else stream.body.end();
      this.forget(stream);
    }
  }

  async close(): Promise<void> {
    this.endStreams();
    await this.signals.close();
  }

  private async catchUp(stream: Stream): Promise<void> {
    try {
      // Watching first: a write after the group's last read is then always signalled.
      await this.signals.watch();
      while (stream.state === 'catching-up') {
        const group = this.groups.get(stream.groupKey);
        if (group?.holds(stream.position)) {
          group.join(stream);
          return;
        }
        const { rows, full } = await readAfter(this.store, this.shared, stream.position, stream, CATCH_UP_PAGE);
        if (stream.state !== 'catching-up') return;
        this.send(stream, rows);
        if (!full && stream.state === 'catching-up') {
          // Level with the feed. A group that no longer holds the rows after the stream's position (it started ahead,
          // or read on past what it keeps) goes back to it.
          const level = this.groups.get(stream.groupKey) ?? this.startGroup(stream);
          if (!level.holds(stream.position)) level.rewind(stream.position);
          level.join(stream);
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

  private startGroup(stream: Stream): Group {
    const group = new Group(
      stream.groupKey,
      stream.mode,
      stream.fields,
      stream.position,
      this.store,
      this.shared,
      this.groupHost,
    );
    this.groups.set(group.key, group);
    // A write signalled while the stream was catching up found no group to wake.
    void group.read();
    return group;
  }

  private groupReadFailed(error: unknown): void {
    if (this.closed) return;
    this.log.warn({ err: error }, 'change stream: reading the feed failed; trying again');
    this.signals.retryLater();
  }

  /**
   * The rows after the stream's position, an event at a time: the unread bound is checked after each, so a client
   * holds at most one event beyond it (docs/decisions/0060-stream-bounds-per-event.md).
   */
  private send(stream: Stream, rows: readonly EventRow[]): void {
    for (let i = firstAfter(rows, stream.position); i < rows.length; i++) {
      if (stream.state === 'paused' || stream.state === 'closed') return;
      const row = rows[i]!;
      if (!write(stream, ...eventChunks(row, stream.fields))) return;
      stream.position = row.modified;
      if (unread(stream) > this.settings.maxUnread) {
        this.pause(stream);
        return;
      }
    }
  }

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

  /** Drops the clients too slow for too long (they resume with Last-Event-ID) and keeps silent streams alive. */
  private maintain(): void {
    const now = performance.now();
    for (const stream of [...this.streams]) {
      if (stream.state === 'paused') {
        // One that took enough since the last look goes on, however long it was paused.
        if (unread(stream) > this.settings.maxUnread && now - stream.pausedAt >= this.settings.unreadTimeout) {
          this.log.info({ unreadBytes: unread(stream) }, 'change stream: client too slow, dropped');
          stream.body.destroy();
          this.forget(stream);
        } else {
          this.resume(stream);
        }
      } else if (now - stream.lastWriteAt >= this.settings.heartbeat - this.tickMs) {
        write(stream, KEEP_ALIVE);
      }
    }
  }

  private leaveGroup(stream: Stream): void {
    const group = this.groups.get(stream.groupKey);
    if (group === undefined || !group.live.delete(stream)) return;
    // Nobody left to feed: a stream that comes back starts a new one.
    if (group.live.size === 0) {
      this.groups.delete(group.key);
      group.retired = true;
    }
  }

  private forget(stream: Stream): void {
    if (stream.state === 'closed') return;
    this.leaveGroup(stream);
    stream.state = 'closed';
    this.streams.delete(stream);
    const left = (this.perClient.get(stream.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(stream.client, left);
    else this.perClient.delete(stream.client);
  }
}
