/**
 * Pipelined requests are read only while their answers leave (docs/decisions/0059-pipelined-requests-bounded.md).
 * Node parses every request of a chunk it has read and queues their answers in memory until the client takes them;
 * here a request reaches the app only while fewer than `MAX_UNSENT_ANSWERS` answers on its connection are unsent and
 * at most `MAX_UNSENT_BYTES` wait for the client. The others wait unhandled and the socket stops reading.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const MAX_UNSENT_ANSWERS = 16;
const MAX_UNSENT_BYTES = 1024 * 1024;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Line {
  socket: Socket;
  /** Answers handed to the app and not yet all handed to the kernel. */
  unsent: Set<ServerResponse>;
  /** Requests read but held back, in order. */
  held: [IncomingMessage, ServerResponse][];
  /** Bytes the kernel has taken, when last looked at, and when that last grew. */
  flushed: number;
  progressAt: number;
}

/** Node's own flag for a socket it paused: while set, it does not resume reading on its own (`_http_server.js`). */
interface PausableSocket extends Socket {
  _paused?: boolean;
  parser?: { pause(): void; resume(): void } | null;
}

/** What waits in this process for the client: the socket's buffer and the answers queued behind it. */
function unsentBytes(line: Line): number {
  let bytes = line.socket.writableLength;
  for (const response of line.unsent) if (response.socket !== line.socket) bytes += response.writableLength;
  return bytes;
}

function hasRoom(line: Line): boolean {
  return line.unsent.size < MAX_UNSENT_ANSWERS && unsentBytes(line) <= MAX_UNSENT_BYTES;
}

function flushedBytes(socket: Socket): number {
  return socket.bytesWritten - socket.writableLength;
}

/** An event stream is bounded by its own rules (docs/decisions/0034-change-stream-is-the-feed-pushed.md). */
function isEventStream(response: ServerResponse): boolean {
  return String(response.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

export interface PipeliningLimits {
  /** How long (ms) a client may take nothing while answers wait before its connection is closed. */
  requestTimeout: number;
}

/** Fastify's `serverFactory`: Node's HTTP server with the app's handler behind the gate. */
export function pipelinedServer(
  options: ServerOptions,
  handler: Handler,
  { requestTimeout }: PipeliningLimits,
): Server {
  const lines = new WeakMap<Socket, Line>();
  /** The lines with answers unsent or requests held: the ones the timer looks at. */
  const waiting = new Set<Line>();

  function hold(line: Line): void {
    const socket = line.socket as PausableSocket;
    socket._paused = true;
    socket.pause();
  }

  function release(line: Line): void {
    const socket = line.socket as PausableSocket;
    if (!socket._paused || socket.destroyed) return;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }

  function watch(line: Line): void {
    if (waiting.has(line)) return;
    line.flushed = flushedBytes(line.socket);
    line.progressAt = performance.now();
    waiting.add(line);
  }

  function dispatch(line: Line, request: IncomingMessage, response: ServerResponse): void {
    line.unsent.add(response);
    watch(line);
    response.once('close', () => {
      line.unsent.delete(response);
      pump(line);
    });
    handler(request, response);
  }

  /** Hands held requests to the app while there is room; reads on once none is held. */
  function pump(line: Line): void {
    while (line.held.length > 0 && hasRoom(line)) {
      const [request, response] = line.held.shift()!;
      dispatch(line, request, response);
    }
    if (line.held.length > 0) {
      hold(line);
      return;
    }
    if (line.unsent.size === 0) waiting.delete(line);
    release(line);
  }

  function lineOf(socket: Socket): Line {
    let line = lines.get(socket);
    if (line === undefined) {
      const created: Line = { socket, unsent: new Set(), held: [], flushed: 0, progressAt: 0 };
      lines.set(socket, created);
      socket.on('drain', () => pump(created));
      socket.once('close', () => {
        created.held.length = 0;
        waiting.delete(created);
      });
      line = created;
    }
    return line;
  }

  /** A client that takes no byte for `requestTimeout` while answers wait here loses its connection. */
  function closeStalled(): void {
    const now = performance.now();
    for (const line of waiting) {
      const { socket } = line;
      const flushed = flushedBytes(socket);
      if (flushed > line.flushed || unsentBytes(line) === 0) {
        line.flushed = flushed;
        line.progressAt = now;
        continue;
      }
      if (line.held.length === 0 && [...line.unsent].some(isEventStream)) continue;
      if (now - line.progressAt >= requestTimeout) {
        waiting.delete(line);
        socket.destroy();
      }
    }
  }

  const server = createServer(options, (request, response) => {
    const line = lineOf(request.socket);
    if (line.held.length === 0 && hasRoom(line)) return dispatch(line, request, response);
    line.held.push([request, response]);
    watch(line);
    hold(line);
  });
  const timer = setInterval(closeStalled, Math.max(10, Math.min(1000, Math.floor(requestTimeout / 10))));
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return server;
}
