/**
 * Starts the real registry on a random port over a real, temporary store (SQLite in a fresh DATA_DIR, or a fresh
 * MongoDB database when MONGODB_URI is set), with a known auth.ini. No mocks.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { buildApp } from '../../src/app.js';
import type { AssetStore } from '../../src/store/types.js';

export interface TestKeys {
  broker: string;
  broker2: string;
  concierge: string;
  admin: string;
}

/** Fixed 32-hex API keys; auth.ini names: broker, broker2 [brokers]; concierge [concierge]; administrator [admins]. */
export const KEYS: TestKeys = {
  broker: '6c1c4e1a0e9b4f7c8d2b3a4f5e6d7c8b',
  broker2: 'a2b2c2d2e2f2a3b3c3d3e3f3a4b4c4d4',
  concierge: '0f0e0d0c0b0a09080706050403020100',
  admin: '1234abcd1234abcd1234abcd1234abcd',
};

export const COOKIE_SECRET = 'test-cookie-secret-0123456789abcdef0123456789abcdef';

export const AUTH_INI = `[brokers]
broker = ${KEYS.broker}
broker2 = ${KEYS.broker2}

[concierge]
concierge = ${KEYS.concierge}

[admins]
administrator = ${KEYS.admin}
`;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  dataDir: string;
  /** The server's own MongoDB database, when the suite runs on MongoDB. */
  mongodbUri?: string;
  app: FastifyInstance;
  store: AssetStore;
  close(): Promise<void>;
}

/** A MongoDB URI with its database path replaced by `/registry_test_<random>` (query string kept). */
export function uniqueMongoUri(uri: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!m) throw new Error(`MONGODB_URI not understood: ${uri}`);
  return `${m[1]}/registry_test_${randomBytes(6).toString('hex')}${m[3] ?? ''}`;
}

export async function startServer(settings: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'registry-test-'));
  const authFile = join(dataDir, 'auth.ini');
  await writeFile(authFile, AUTH_INI);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_FILE: authFile,
    RATE_LIMIT_MAX: '1000000',
    LOG_LEVEL: 'silent',
    TZ: 'Europe/Kyiv',
    COOKIE_SECRET,
    SERVER_ID: 'test-node',
    VALIDATE_REPLIES: 'true',
  };
  if (process.env.MONGODB_URI) env.MONGODB_URI = uniqueMongoUri(process.env.MONGODB_URI);
  const config = loadConfig({ ...env, ...settings }, []);
  const store = await openStore(config);
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, store });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await store.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    mongodbUri: config.mongodbUri,
    app,
    store,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await store.close();
      }
    },
  };
}
