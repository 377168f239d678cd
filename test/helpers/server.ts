/**
 * The suite's fixture: the real registry over a real, temporary store (SQLite in a fresh DATA_DIR, or a fresh
 * MongoDB database when MONGODB_URI is set), with a known auth.ini and clients for every role. No mocks.
 *
 *     const server = useServer();                       // per file, or per describe (its own store)
 *     const { broker, anonymous } = server;             // clients, usable in hooks and tests
 *
 * `useServer` starts the server before the first test of its block and closes it after the last one, removing
 * its folder and dropping its database. Clients go through Fastify's `inject` unless `{ via: 'http' }` asks for
 * real HTTP. `startServer` and `new Client(url, { key })` remain for code that manages its own server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/types.js';
import { openStore } from '../../src/store/index.js';
import { buildApp } from '../../src/app.js';
import type { AssetStore } from '../../src/store/types.js';
import { Client, httpTransport, injectTransport, type Transport } from './client.js';
import { openServerLog } from './logs.js';
import { KEYS, COOKIE_SECRET } from './keys.js';

export { KEYS, COOKIE_SECRET } from './keys.js';

const AUTH_INI = `[brokers]
broker = ${KEYS.broker}
broker2 = ${KEYS.broker2}

[concierge]
concierge = ${KEYS.concierge}

[admins]
administrator = ${KEYS.admin}
`;

/** Environment-style settings (`TZ`, `BODY_LIMIT`, ...), over the suite's defaults. */
export type Settings = Record<string, string>;

/** `inject`: the app without a socket; `http`: real requests to the listening port. */
type Via = 'inject' | 'http';

interface ClientOptions {
  key?: string;
  autoCookie?: boolean;
  /** Defaults to the server's. */
  via?: Via;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly dataDir: string;
  /** The server's own MongoDB database, when the suite runs on MongoDB. */
  readonly mongodbUri?: string;
  readonly app: FastifyInstance;
  readonly store: AssetStore;
  /** One client per role, each with its own cookie jar, shared by the tests of the block. */
  readonly anonymous: Client;
  readonly broker: Client;
  readonly broker2: Client;
  readonly concierge: Client;
  readonly admin: Client;
  /** A new client (empty cookie jar). */
  client(options?: ClientOptions): Client;
  /** How clients reach this server `via` inject or real HTTP. */
  transport(via: Via): Transport;
  /** Every line the server has logged so far (at `trace` unless the settings give LOG_LEVEL). */
  logLines(): string[];
  /** Stops the server, then removes its folder and drops its database. Safe to call twice. */
  close(): Promise<void>;
}

/** A MongoDB URI with its database path replaced by `/registry_test_<random>` (query string kept). */
export function uniqueMongoUri(uri: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!m) throw new Error(`MONGODB_URI not understood: ${uri}`);
  return `${m[1]}/registry_test_${randomBytes(6).toString('hex')}${m[3] ?? ''}`;
}

/** Drops the database a test MongoDB URI names (the fixture's clean-up, and that of tests opening stores themselves). */
export async function dropMongoDatabase(uri: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}

/** Temporary folders and MongoDB test databases handed out to a test, all removed by `cleanup()`. */
export class Scratch {
  private readonly dirs: string[] = [];
  private readonly databases: string[] = [];

  /** A fresh empty folder under the system's temporary folder. */
  async dir(prefix = 'registry-test-'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A fresh folder holding the suite's auth.ini: `{ dataDir, authFile }`. */
  async dataDir(prefix?: string): Promise<{ dataDir: string; authFile: string }> {
    const dataDir = await this.dir(prefix);
    const authFile = join(dataDir, 'auth.ini');
    await writeFile(authFile, AUTH_INI);
    return { dataDir, authFile };
  }

  /** A fresh database on the MONGODB_URI server; undefined when the suite runs on the embedded store. */
  mongoUri(): string | undefined {
    if (!process.env.MONGODB_URI) return undefined;
    const uri = uniqueMongoUri(process.env.MONGODB_URI);
    this.databases.push(uri);
    return uri;
  }

  async cleanup(): Promise<void> {
    const databases = this.databases.splice(0);
    const dirs = this.dirs.splice(0);
    await Promise.all([
      ...databases.map(dropMongoDatabase),
      ...dirs.map((dir) => rm(dir, { recursive: true, force: true })),
    ]);
  }
}

/** A Scratch for this file or describe block, cleaned up after its last test. */
export function useScratch(): Scratch {
  const scratch = new Scratch();
  afterAll(() => scratch.cleanup());
  return scratch;
}

type RoleClients = Pick<TestServer, 'anonymous' | 'broker' | 'broker2' | 'concierge' | 'admin'>;

/** The ready-made client of each role. */
function roleClients(client: (options?: ClientOptions) => Client): RoleClients {
  return {
    anonymous: client(),
    broker: client({ key: KEYS.broker }),
    broker2: client({ key: KEYS.broker2 }),
    concierge: client({ key: KEYS.concierge }),
    admin: client({ key: KEYS.admin }),
  };
}

/** What `openStore` reads of the settings. */
type StoreSettings = Parameters<typeof openStore>[0];

export interface StartOptions {
  via?: Via;
  /** Opens the server's store from its settings instead of `openStore` (e.g. a MongoDB store with command monitoring). */
  openStore?: (settings: StoreSettings) => Promise<AssetStore>;
}

/**
 * Starts the registry on a random port. `settings` override the suite's defaults; `via` is how its clients reach
 * it (default `inject`). The caller closes it.
 */
export async function startServer(settings: Settings = {}, options: StartOptions = {}): Promise<TestServer> {
  const scratch = new Scratch();
  const { dataDir, authFile } = await scratch.dataDir();
  const env: Settings = {
    DATA_DIR: dataDir,
    AUTH_FILE: authFile,
    RATE_LIMIT_MAX: '1000000',
    // Everything is logged, so that the end of the run can check that no line holds a secret (helpers/logs.ts).
    LOG_LEVEL: 'trace',
    TZ: 'Europe/Kyiv',
    COOKIE_SECRET,
    SERVER_ID: 'test-node',
    VALIDATE_REPLIES: 'true',
  };
  // A store given in the settings belongs to the caller: only the scratch's own folder and database are removed.
  const mongodbUri = settings.MONGODB_URI === undefined ? scratch.mongoUri() : undefined;
  if (mongodbUri) env.MONGODB_URI = mongodbUri;
  let app: FastifyInstance | undefined;
  let store: AssetStore | undefined;
  let config: Config;
  const log = openServerLog();
  try {
    config = loadConfig({ ...env, ...settings }, []);
    store = await (options.openStore ?? openStore)({ ...config.store, timeZone: config.timeZone });
    app = await buildApp({ config, store, logStream: log.stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await app?.close();
    await store?.close();
    log.close();
    await scratch.cleanup();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // A connection that never sent a request (a client reconnecting after its stream was aborted, say) would keep
  // the HTTP server's close waiting for minutes: it is dropped when the server stops, and so is any new one.
  let stopping = false;
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    if (stopping) return void socket.destroy();
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  const transports: Record<Via, Transport> = { inject: injectTransport(app, url), http: httpTransport(url) };
  const via = options.via ?? 'inject';
  const client = (o: ClientOptions = {}) =>
    new Client(transports[o.via ?? via], { key: o.key, autoCookie: o.autoCookie });
  const started = { app, store };
  let closing: Promise<void> | undefined;
  return {
    url,
    dataDir: config.store.dataDir,
    mongodbUri: config.store.mongodbUri,
    app,
    store,
    ...roleClients(client),
    client,
    transport: (v) => transports[v],
    logLines: () => log.lines(),
    close() {
      closing ??= (async () => {
        stopping = true;
        for (const socket of unused) socket.destroy();
        try {
          await started.app.close();
        } finally {
          log.close();
          try {
            await started.store.close();
          } finally {
            await scratch.cleanup();
          }
        }
      })();
      return closing;
    },
  };
}

/** A server for the current test only, closed (and cleaned up) when the test ends. Call it inside a test. */
export async function serverForThisTest(settings: Settings = {}, options: StartOptions = {}): Promise<TestServer> {
  const server = await startServer(settings, options);
  onTestFinished(() => server.close());
  return server;
}

/** Resolves to the running server's transport when a request is sent, so clients can be made before it starts. */
function lateTransport(resolve: () => Transport): Transport {
  return {
    get baseUrl() {
      return resolve().baseUrl;
    },
    send: (request) => resolve().send(request),
  };
}

/**
 * A server for the enclosing file or describe block: started in `beforeAll`, closed in `afterAll`. Its clients
 * exist at once (destructure them at the top of the block); the server's own parts (`url`, `store`, `app`,
 * `dataDir`) can be read from the block's hooks and tests on. Call it before the block's own hooks: `beforeAll`
 * hooks run in the order they were added, `afterAll` hooks in reverse, so the block's set-up finds the server running
 * and its tear-down runs before the server stops.
 */
export function useServer(settings: Settings = {}, options: StartOptions = {}): TestServer {
  let started: TestServer | undefined;
  const running = (): TestServer => {
    if (!started) throw new Error('useServer: the server runs from the beforeAll of its block to its afterAll');
    return started;
  };
  const via = options.via ?? 'inject';
  const transports: Record<Via, Transport> = {
    inject: lateTransport(() => running().transport('inject')),
    http: lateTransport(() => running().transport('http')),
  };
  const client = (o: ClientOptions = {}) =>
    new Client(transports[o.via ?? via], { key: o.key, autoCookie: o.autoCookie });

  beforeAll(async () => {
    started = await startServer(settings, options);
  });
  afterAll(async () => {
    await started?.close();
  });

  return {
    get url() {
      return running().url;
    },
    get dataDir() {
      return running().dataDir;
    },
    get mongodbUri() {
      return running().mongodbUri;
    },
    get app() {
      return running().app;
    },
    get store() {
      return running().store;
    },
    ...roleClients(client),
    client,
    transport: (v) => transports[v],
    logLines: () => running().logLines(),
    close: () => running().close(),
  };
}
