/** What the benchmarks ask of this machine before they start servers: a free port, whether cores can be pinned. */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

/** A port free on loopback now, for a server the benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether `taskset` is here to pin the server and the load generator to separate cores. */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
