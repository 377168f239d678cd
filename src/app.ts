/**
 * Builds the registry's Fastify instance: plugins in the order of the checks (decisions.md §8), then the
 * document's operations with their handlers. No listening here — src/server.ts does that, tests use the
 * instance directly.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import multipart from '@fastify/multipart';
import { parse as parseQuery } from 'fast-querystring';
import type { Config } from './config.js';
import { loggerOptions, requestLoggerFactory } from './logging.js';
import type { AssetStore } from './store/types.js';
import { createServices } from './services/index.js';
import { operationHandlers } from './routes/index.js';
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import headers, { requestId } from './plugins/headers.js';
import draining from './plugins/draining.js';
import connections from './plugins/connections.js';
import hosts from './plugins/hosts.js';
import cors from './plugins/cors.js';
import serverIdCookie from './plugins/server-id.js';
import rateLimit from './plugins/rate-limit.js';
import auth, { ensureAuthFile, type ApiKeys } from './plugins/auth.js';
import content from './plugins/content.js';
import options from './plugins/options.js';
import docsPage from './plugins/docs-page.js';
import operations from './plugins/operations.js';
import { API_PREFIX } from './plugins/contract.js';
import { ensureSigningKey, type SigningKey } from './services/signing.js';
import replyValidation from './plugins/reply-validation.js';
import { timedStore } from './store/timed.js';
import { cachedStore } from './store/cached.js';

export interface AppOptions {
  config: Config;
  store: AssetStore;
  /** API keys; read from `config.authFile` (created when absent) when not given. */
  keys?: ApiKeys;
  /** The document service's key pair; read from `config.dsKeyFile` (created when absent) when not given. */
  signingKey?: SigningKey;
  /** Where the log goes (standard output when not given); the level is LOG_LEVEL's. */
  logStream?: DestinationStream;
}

/** A hop count trusts that many proxies nearest to the server (Fastify accepts it, but its types do not). */
function trustProxy(setting: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** The query string with the last of repeated values, as the original read its parameters. */
function lastValues(text: string): Record<string, unknown> {
  const query = parseQuery(text) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) if (Array.isArray(value)) query[name] = value[value.length - 1];
  return query;
}

/** The metrics of a node and their plugin, loaded only when METRICS_PORT is set (prom-client takes a while to load). */
async function loadMetrics(address: { host: string; port: number }) {
  const { NodeMetrics, default: plugin } = await import('./plugins/metrics.js');
  return { recorder: new NodeMetrics(address), plugin };
}

/** Fields and parts beside a multipart upload's one file: small, and few. */
const FORM_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 };

export async function buildApp({ config, store, keys, signingKey, logStream }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, logStream),
    bodyLimit: config.bodyLimit,
    trustProxy: trustProxy(config.trustProxy),
    genReqId: requestId,
    childLoggerFactory: requestLoggerFactory,
    frameworkErrors,
    clientErrorHandler,
    // Requests that arrive while the node drains are answered by the draining plugin, in the error envelope.
    return503OnClosing: false,
    // The bounds of decisions.md §15: the headers (and a silent connection) by Node's headersTimeout, checked
    // often enough to act within a tenth of the bound; the pauses of a body by plugins/connections.ts. Node's
    // requestTimeout and Fastify's connectionTimeout stay off: the first bounds a whole request (it would cut an
    // upload that keeps arriving), the second a whole connection (it would cut a change stream or a download).
    http: {
      headersTimeout: config.requestTimeout,
      requestTimeout: 0,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(config.requestTimeout / 10))),
      // A missing Host is refused by plugins/hosts.ts, in the envelope.
      requireHostHeader: false,
    },
    requestTimeout: 0,
    connectionTimeout: 0,
    keepAliveTimeout: config.keepAliveTimeout,
    routerOptions: {
      querystringParser: lastValues,
      // Longer than any path parameter the document allows, so that its own maxLength (400) decides, not the router.
      maxParamLength: 1000,
    },
    // Parameters are validated as the document declares them: typed by coercion, no defaults written into the
    // request (the listing echoes only what was sent), nothing removed.
    ajv: { customOptions: { coerceTypes: true, useDefaults: false, removeAdditional: false, allErrors: false } },
  });

  // With METRICS_PORT only: a node without it pays for none of the metrics (no hooks, the store unwrapped).
  const metrics =
    config.metricsPort === undefined ? undefined : await loadMetrics({ host: config.metricsHost, port: config.metricsPort });
  if (metrics) {
    // First: its request timer starts before every check. The streams are counted when scraped, once they exist.
    await app.register(metrics.plugin, { metrics: metrics.recorder, feed: store, openStreams: () => services.changes.size });
  }

  // Order matters: each onRequest hook is one step of the order of checks.
  await app.register(errors);
  await app.register(headers);
  await app.register(hosts, { publicUrl: config.publicUrl, allowedHosts: config.allowedHosts });
  await app.register(connections, {
    requestTimeout: config.requestTimeout,
    keepAliveTimeout: config.keepAliveTimeout,
    maxPerClient: config.maxConnectionsPerClient,
  });
  await app.register(draining);
  // Preflights are answered before the cookie, rate and key checks: browsers send them without any of those.
  await app.register(cors, { origins: config.corsOrigins });
  await app.register(serverIdCookie, { serverId: config.serverId, secret: config.cookieSecret });
  await app.register(rateLimit, {
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindow,
    redisUrl: config.redisUrl,
    onRefused: metrics?.recorder.countRateLimitRefusal,
  });
  await app.register(auth, { keys: keys ?? ensureAuthFile(config.authFile).keys });
  await app.register(content, { maxFileBytes: config.dsMaxBytes });
  // The upload's one file streams to the store: one byte over DS_MAX_BYTES is enough to refuse it, and a second
  // file part is skipped by the parser.
  await app.register(multipart, { limits: { ...FORM_LIMITS, files: 1, fileSize: config.dsMaxBytes + 1 } });
  await app.register(options);
  // Last of the onSend hooks: it sees the reply exactly as it leaves (JSONP wrapped, content type set).
  if (config.validateReplies) await app.register(replyValidation);
  await app.register(docsPage, { prefix: API_PREFIX });

  // The cache outside the timing: the store's latency is of the calls that reach it.
  const servedStore = await cachedStore(metrics ? timedStore(store, metrics.recorder.storeTimer) : store, {
    maxBytes: config.cacheBytes,
  });
  app.addHook('onClose', () => servedStore.stopWatching());
  const services = createServices(
    servedStore,
    {
      timeZone: config.timeZone,
      assetIdPrefix: config.assetIdPrefix,
      streams: {
        maxClients: config.streamMaxClients,
        maxUnread: config.streamMaxUnread,
        unreadTimeout: config.streamUnreadTimeout,
        heartbeat: config.streamHeartbeat,
      },
      files: {
        maxBytes: config.dsMaxBytes,
        apiPrefix: API_PREFIX,
        signingKey: signingKey ?? ensureSigningKey(config.dsKeyFile).key,
        external:
          config.dsDownloadUrl === undefined ? undefined : { downloadUrl: config.dsDownloadUrl, publicKeys: config.dsPublicKeys },
      },
    },
    app.log,
  );
  // Streams never finish on their own: they are ended before the server waits for its connections to close, and
  // the store's watch is stopped after.
  app.addHook('preClose', (done) => {
    services.changes.endStreams();
    done();
  });
  app.addHook('onClose', () => services.changes.close());
  await app.register(operations, { handlers: operationHandlers(services) });
  return app;
}
