/** A stream is paused while its client leaves too much unread: nothing more is written until it drains. */
import { PassThrough } from 'node:stream';
import type { ChangeStreamParams } from '../../domain/changes.js';
import type { ListMode } from '../../domain/listing.js';
import { firstRowBytes, START } from './feed.js';

type State = 'catching-up' | 'live' | 'paused' | 'closed';

export interface Stream {
  body: PassThrough;
  mode: ListMode;
  fields: string[];
  groupKey: string;
  /** The client's address (after `TRUST_PROXY`): its share of the node's streams. */
  client: string;
  /** Bytes per row of its last catch-up read. */
  rowBytes: number;
  /** The `modified` of the last row sent (or the position asked for): only rows after it are sent. */
  position: number;
  state: State;
  /** performance.now() of the last write: keep-alives fill longer silences. */
  lastWriteAt: number;
  pausedAt: number;
  /** Bytes past `body` not yet taken by the client (the response's buffer). */
  queued: () => number;
}

export function newStream(params: ChangeStreamParams, maxUnread: number, queued: () => number, client: string): Stream {
  return {
    body: new PassThrough({ highWaterMark: Math.min(16_384, Math.max(1, maxUnread)) }),
    mode: params.mode,
    fields: params.fields,
    groupKey: `${params.mode}:${params.fields.join(',')}`,
    client,
    rowBytes: firstRowBytes(params.fields),
    position: params.after ?? START,
    state: 'catching-up',
    lastWriteAt: performance.now(),
    pausedAt: 0,
    queued,
  };
}

/** False when the stream is gone: nothing was written. Shared bytes are written as they are, not copied. */
export function write(stream: Stream, ...chunks: (string | Buffer)[]): boolean {
  if (stream.state === 'closed' || stream.body.destroyed || stream.body.writableEnded) return false;
  for (const chunk of chunks) stream.body.write(chunk);
  stream.lastWriteAt = performance.now();
  return true;
}

/** Bytes written that the client has not taken yet: what waits in this process. */
export function unread(stream: Stream): number {
  return stream.body.writableLength + stream.body.readableLength + stream.queued();
}
