/**
 * The one reader of a node's streams that want the same rows (same mode and fields): on every signal it reads the new
 * rows once and writes them to each of its live streams. It keeps the last rows it read, so that a stream just behind
 * it joins without a query of its own.
 */
import type { EventRow } from '../../domain/changes.js';
import type { ListMode } from '../../domain/listing.js';
import type { AssetStore } from '../../store/types.js';
import { firstRowBytes, readAfter } from './feed.js';
import { rowBytes, type SharedValues } from './shared.js';
import type { Stream } from './stream.js';

const GROUP_PAGE = { maxRows: 1000, budget: 4 * 1024 * 1024 };
/** The rows kept for streams just behind; their large values are shared with every other group. */
const RECENT_ROWS = 2000;
const RECENT_BYTES = 8 * 1024 * 1024;

/** How the group's rows reach a stream, and what a failed read does: the node's streams decide. */
export interface GroupHost {
  /** Writes the rows after the stream's position, event by event, while the stream takes them. */
  send(stream: Stream, rows: readonly EventRow[]): void;
  readFailed(error: unknown): void;
}

export class Group {
  readonly live = new Set<Stream>();
  /** Every row up to here has been read and sent to the live streams. */
  private head: number;
  /** The last rows read, ascending: all the rows in (recentFrom, head]. */
  private recent: EventRow[] = [];
  private recentBytes = 0;
  private recentFrom: number;
  rowBytes: number;
  private reading = false;
  /** A signal came while reading: read once more. */
  private again = false;
  /** Counts rewinds: a read that started before one is thrown away. */
  private generation = 0;
  /** Set when the node lets the group go (no live stream left): its reading stops. */
  retired = false;

  constructor(
    readonly key: string,
    readonly mode: ListMode,
    readonly fields: readonly string[],
    position: number,
    private readonly store: AssetStore,
    private readonly shared: SharedValues,
    private readonly host: GroupHost,
  ) {
    this.head = position;
    this.recentFrom = position;
    this.rowBytes = firstRowBytes(fields);
  }

  /** Whether the group holds every row after `position`, so a stream there may join. */
  holds(position: number): boolean {
    return position >= this.recentFrom;
  }

  /** Only for a stream the group holds: what it has not seen of the group's rows is in `recent`. */
  join(stream: Stream): void {
    stream.state = 'live';
    this.live.add(stream);
    this.host.send(stream, this.recent);
  }

  /**
   * Moves the reader back to `position`. A read under way is thrown away (its rows are read again), so that no stream
   * is given rows beyond what the group reads next; streams already past them skip them by their positions.
   */
  rewind(position: number): void {
    this.generation++;
    this.head = position;
    this.recentFrom = position;
    this.recent = [];
    this.recentBytes = 0;
    void this.read();
  }

  /** Reads the new rows page by page and writes them to the live streams; one read at a time. */
  async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const generation = this.generation;
          const { rows, full } = await readAfter(this.store, this.shared, this.head, this, GROUP_PAGE);
          if (generation !== this.generation) {
            this.again = true;
            break;
          }
          if (rows.length === 0) break;
          this.head = rows[rows.length - 1]!.modified;
          this.remember(rows);
          this.fanOut(rows);
          if (!full) break;
        }
      } while (this.again && !this.retired);
    } catch (error) {
      this.host.readFailed(error);
    } finally {
      this.reading = false;
    }
  }

  private remember(rows: EventRow[]): void {
    for (const row of rows) {
      this.recent.push(row);
      this.recentBytes += rowBytes(row);
    }
    let excess = 0;
    let bytes = this.recentBytes;
    while (excess < this.recent.length && (this.recent.length - excess > RECENT_ROWS || bytes > RECENT_BYTES)) {
      bytes -= rowBytes(this.recent[excess]!);
      excess++;
    }
    if (excess > 0) {
      this.recentFrom = this.recent[excess - 1]!.modified;
      this.recent.splice(0, excess);
      this.recentBytes = bytes;
    }
  }

  /** Each stream is written its events one by one: one that stops taking them is paused after the event it was at. */
  private fanOut(rows: EventRow[]): void {
    for (const stream of [...this.live]) this.host.send(stream, rows);
  }
}
