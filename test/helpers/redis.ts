import { connect } from 'node:net';

/** The Redis the tests use: the one CI names, else a local default. */
export const REDIS_URL = process.env.REDIS_TEST_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** When CI names a Redis (REDIS_TEST_URL) it must be there: only an unnamed, absent default may be skipped. */
export const HAS_REDIS = process.env.REDIS_TEST_URL ? true : await reachable(REDIS_URL);
