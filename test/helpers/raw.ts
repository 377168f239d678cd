/**
 * A raw TCP connection to a test server, for what a client library would not send: bodies that pause or never
 * come, silent connections, hand-written headers. It records what arrives and when the server closes.
 */
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as text. */
  readonly received: () => string;
  /** Milliseconds from the connection to the first byte received (undefined: none yet). */
  readonly firstByteAfter: () => number | undefined;
  /** Milliseconds since the connection was made. */
  readonly elapsed: () => number;
  /** Resolves with the milliseconds from the connection to its close by either side. */
  readonly closed: Promise<number>;
  write(text: string | Buffer): void;
  /** Resolves once `received()` satisfies `done` (fails after `timeoutMs`). */
  waitFor(done: (text: string) => boolean, timeoutMs: number): Promise<void>;
  destroy(): void;
}

/** Opens a connection to the server at `url` (`http://127.0.0.1:<port>`), optionally from `localAddress`. */
export function rawConnection(url: string, options: { localAddress?: string } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
  let text = '';
  let start = 0;
  let firstByte: number | undefined;
  const waiters = new Set<() => void>();
  socket.on('data', (chunk: Buffer) => {
    firstByte ??= Date.now() - start;
    text += chunk.toString('latin1');
    for (const waiter of waiters) waiter();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - start)));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      start = Date.now();
      resolve({
        socket,
        received: () => text,
        firstByteAfter: () => firstByte,
        elapsed: () => Date.now() - start,
        closed,
        write: (data) => void socket.write(data),
        waitFor: (done, timeoutMs) =>
          new Promise<void>((ok, fail) => {
            if (done(text)) return ok();
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`not received within ${timeoutMs} ms; got: ${JSON.stringify(text.slice(0, 500))}`));
            }, timeoutMs);
            const check = (): void => {
              if (!done(text)) return;
              clearTimeout(timer);
              waiters.delete(check);
              ok();
            };
            waiters.add(check);
            void closed.then(check);
          }),
        destroy: () => socket.destroy(),
      });
    });
  });
}

/** The JSON body of the last HTTP response in `text` (raw bytes of one or more responses, Content-Length framed). */
export function lastJsonBody(text: string): unknown {
  const start = text.lastIndexOf('\r\n\r\n');
  return JSON.parse(Buffer.from(text.slice(start + 4), 'latin1').toString('utf8'));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
