/** The registry's Fastify instance, its plugins in the order of checks (docs/decisions/0014-order-of-checks.md). */
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import multipart from '@fastify/multipart';
import { parse as parseQuery } from 'fast-querystring';
import type { Config } from './config/types.js';
import { loggerOptions, requestLoggerFactory } from './logging.js';
import type { AssetStore } from './store/types.js';
import { createServices } from './services/index.js';
import { operationHandlers } from './routes/index.js';
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import headers, { requestId } from './plugins/headers.js';
import draining from './plugins/draining.js';
import connections from './plugins/connections.js';
import { pipelinedServer } from './plugins/pipelining.js';
import hosts from './plugins/hosts.js';
import cors from './plugins/cors.js';
import serverIdCookie from './plugins/server-id.js';
import rateLimit from './plugins/rate-limit.js';
import auth, { ensureAuthFile, type ApiKeys } from './plugins/auth.js';
import content from './plugins/content.js';
import options from './plugins/options.js';
import docsPage from './plugins/docs-page.js';
import operations from './plugins/operations.js';
import { API_PREFIX } from './contract/document.js';
import { ensureSigningKey, type SigningKey } from './services/signing.js';
import { logIdentity } from './services/log/identity.js';
import { LogIntegrator } from './services/log/integrator.js';
import { IntegratorThread } from './services/log/integrator-thread.js';
import replyValidation from './plugins/reply-validation.js';
import { timedStore } from './store/timed.js';
import { cachedStore } from './store/cached.js';

export interface AppOptions {
  config: Config;
  store: AssetStore;
  /** Default: read from `config.auth.file`, created when absent. */
  keys?: ApiKeys;
  /** Default: read from `config.documentService.keyFile`, created when absent. */
  signingKey?: SigningKey;
  /** The transparency log's key. Default: read from `config.log.keyFile`, created when absent. */
  logKey?: SigningKey;
  logStream?: DestinationStream;
  /** Asked for every MiB of a file streamed through (docs/decisions/0031-built-in-document-service.md). */
  collectYoung?: () => void;
}

/** A hop count trusts that many proxies nearest to the server (Fastify accepts it, but its types do not). */
function trustProxy(
  setting: Config['server']['trustProxy'],
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** The last of repeated values, as the original read its parameters. */
function lastValues(text: string): Record<string, unknown> {
  const query = parseQuery(text) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) if (Array.isArray(value)) query[name] = value[value.length - 1];
  return query;
}

/** Loaded only with METRICS_PORT: the metrics client takes a while to load. */
async function loadMetrics(address: { host: string; port: number }) {
  const { NodeMetrics, default: plugin } = await import('./plugins/metrics.js');
  return { recorder: new NodeMetrics(address), plugin };
}

const FORM_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 };

export async function buildApp({
  config,
  store,
  keys,
  signingKey,
  logKey,
  logStream,
  collectYoung,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.server.logLevel, logStream),
    bodyLimit: config.server.bodyLimit,
    trustProxy: trustProxy(config.server.trustProxy),
    genReqId: requestId,
    childLoggerFactory: requestLoggerFactory,
    frameworkErrors,
    clientErrorHandler,
    // plugins/draining.ts answers instead, in the envelope.
    return503OnClosing: false,
    // docs/decisions/0042-connection-bounds.md: Node's requestTimeout would cut an upload that keeps arriving, and
    // Fastify's connectionTimeout a change stream or a download; a body's pauses are plugins/connections.ts's. The
    // app's handler waits behind the gate of docs/decisions/0059-pipelined-requests-bounded.md.
    serverFactory: (handler) => {
      const server = pipelinedServer(
        {
          headersTimeout: config.connections.requestTimeout,
          requestTimeout: 0,
          connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(config.connections.requestTimeout / 10))),
          // plugins/hosts.ts refuses it, in the envelope.
          requireHostHeader: false,
          keepAliveTimeout: config.connections.keepAliveTimeout,
        },
        handler,
        config.connections,
      );
      server.setTimeout(0);
      return server;
    },
    routerOptions: {
      querystringParser: lastValues,
      // Above the document's own maxLength, so that it decides, not the router.
      maxParamLength: 1000,
    },
    // No defaults written into the request: the listing echoes only what was sent.
    ajv: { customOptions: { coerceTypes: true, useDefaults: false, removeAdditional: false, allErrors: false } },
  });

  if (config.server.trustProxy === true) {
    // docs/decisions/0062-smaller-rules-of-round-two.md: any client then names its own address to the rate limit.
    app.log.warn(
      "TRUST_PROXY=true trusts every client's X-Forwarded-For: any client can pass the rate limit by naming another address; set the balancer's address instead",
    );
  }
  const { host: metricsHost, port: metricsPort } = config.metrics;
  const metrics = metricsPort === undefined ? undefined : await loadMetrics({ host: metricsHost, port: metricsPort });
  if (metrics) {
    // First, so its timer starts before every check; `services` exists by the first scrape.
    await app.register(metrics.plugin, {
      metrics: metrics.recorder,
      feed: store,
      openStreams: () => services.changes.size,
      hosts: config.hosts,
    });
  }

  await app.register(errors);
  await app.register(headers);
  await app.register(hosts, config.hosts);
  await app.register(connections, config.connections);
  await app.register(draining);
  // Browsers send preflights without a cookie or a key.
  await app.register(cors, config.cors);
  await app.register(serverIdCookie, {
    ...config.cookie,
    secure: config.hosts.publicUrl?.startsWith('https:') === true,
  });
  await app.register(rateLimit, { ...config.rateLimit, onRefused: metrics?.recorder.countRateLimitRefusal });
  await app.register(auth, { keys: keys ?? ensureAuthFile(config.auth.file).keys });
  await app.register(content, { maxFileBytes: config.documentService.maxBytes });
  // One byte over DS_MAX_BYTES is enough to refuse the streaming file.
  await app.register(multipart, {
    limits: { ...FORM_LIMITS, files: 1, fileSize: config.documentService.maxBytes + 1 },
  });
  await app.register(options);
  // The last onSend hook: it sees the reply exactly as it leaves.
  if (config.server.validateReplies) await app.register(replyValidation);
  await app.register(docsPage, { prefix: API_PREFIX });

  // The cache outside the timing: the store's latency is that of the calls that reach it.
  const servedStore = await cachedStore(metrics ? timedStore(store, metrics.recorder.storeTimer) : store, config.cache);
  app.addHook('onClose', () => servedStore.stopWatching());
  const { maxBytes, keyFile, downloadUrl, publicKeys } = config.documentService;
  const logIdentityOfNode = logIdentity(
    logKey ?? ensureSigningKey(config.log.keyFile, 'the transparency log key').key,
    {
      origin: config.log.origin,
      publicUrl: config.hosts.publicUrl,
    },
  );
  const services = createServices(
    servedStore,
    {
      timeZone: config.timeZone,
      assetIdPrefix: config.assetIdPrefix,
      historyPageBytes: config.server.historyPageBytes,
      streams: config.streams,
      files: {
        maxBytes,
        apiPrefix: API_PREFIX,
        signingKey: signingKey ?? ensureSigningKey(keyFile).key,
        external: downloadUrl === undefined ? undefined : { downloadUrl, publicKeys },
      },
      log: logIdentityOfNode,
    },
    app.log,
    store.writeState?.bind(store),
  );
  store.onBackgroundFailure?.((message) => app.log.error({ failure: message }, "the store's background work failed"));
  // docs/decisions/0066-log-order-and-integration.md: off the requests' path, stopped before the store closes; in a
  // thread of its own where the store can open the log there (docs/decisions/0079-the-integrator-runs-in-a-thread-of-its-own.md).
  const integrator = store.logSource
    ? new IntegratorThread({ source: store.logSource, identity: logIdentityOfNode }, app.log)
    : new LogIntegrator(store.log, logIdentityOfNode, app.log);
  app.addHook('onReady', async () => {
    app.log.info({ vkey: logIdentityOfNode.vkey }, 'transparency log: this node signs with this verifier key');
    await integrator.start();
  });
  app.addHook('onClose', () => integrator.stop());
  // Streams never finish on their own: ended before the server waits for its connections.
  app.addHook('preClose', (done) => {
    services.changes.endStreams();
    done();
  });
  app.addHook('onClose', () => services.changes.close());
  await app.register(operations, { handlers: operationHandlers(services, collectYoung ?? (() => undefined)) });
  return app;
}
