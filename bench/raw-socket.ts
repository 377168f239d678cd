/** HTTP/1.1 over a bare socket: what a client that reads slowly, or not at all, makes a node hold. */
import { connect, type Socket } from 'node:net';

/** A connection to `url`'s host and port; its errors ignored (the node may close it). */
export async function rawSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  return socket;
}

/** How often `marker` has come in on `socket` so far; nothing read is kept but a marker's length of it. */
export function countReads(socket: Socket, marker: string): () => number {
  let count = 0;
  let carry = '';
  socket.on('data', (chunk: Buffer) => {
    const text = carry + chunk.toString('latin1');
    count += text.split(marker).length - 1;
    carry = text.slice(-(marker.length - 1));
  });
  return () => count;
}
