/**
 * Metrics in the Prometheus text format, kept by prom-client (through fastify-metrics for the requests) and served
 * at `GET /metrics` by a listener of their own on METRICS_HOST:METRICS_PORT, never by the API's. Without
 * METRICS_PORT none of this is built: no hook, no wrapped store, nothing counted.
 *
 * - `http_request_duration_seconds{method, operation, status_class}`: a histogram per operation of the document
 *   (its `operationId`, never the URL: one series per operation, whatever the ids in the path), by status class
 *   (`2xx`…); its `_count` is the number of requests. Routes that are no operation (the 405 stand-ins, the docs
 *   page's files) count as `(no operation)`; requests that matched no route are not counted. A change stream is
 *   timed until it ends.
 * - `registry_store_operation_duration_seconds{operation}`: every call of the store (src/store/timed.ts).
 * - `registry_change_streams_open`, `registry_feed_last_modified_timestamp_seconds`: read when scraped, so they
 *   cost nothing in between; the feed's newest `dateModified` is that of the default feed (`mode` real), written by
 *   any node sharing the store.
 * - `registry_rate_limit_refusals_total`: requests answered 429.
 * - prom-client's process metrics (CPU, memory, event loop lag, garbage collection, handles).
 *
 * Each app keeps its own prom-client registry (several apps in one process, as in the tests, never share series).
 */
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import promClient, { Counter, Gauge, Histogram, Registry } from 'prom-client';
import fastifyMetrics from 'fastify-metrics';
import type { AssetStore } from '../store/types.js';
import type { OperationTimer } from '../store/timed.js';
import './operations.js'; // the `operationId` route config

export const METRICS_PATH = '/metrics';

/** The `operation` of a request whose route is none of the document's operations. */
export const NO_OPERATION = '(no operation)';

/** Seconds; most answers take a few milliseconds, a write under contention or a large upload far longer. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; a read of the embedded store takes tens of microseconds. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics listener, when METRICS_PORT is set: it listens once the app is ready and closes with it. */
    metricsServer?: FastifyInstance;
  }
}

/** Where the metrics listener listens. */
export interface MetricsAddress {
  host: string;
  port: number;
}

/** The registry of one app, where it is served, and the metrics that parts outside the request hooks record into. */
export class NodeMetrics {
  readonly registry = new Registry();
  private readonly rateLimitRefusals = new Counter({
    name: 'registry_rate_limit_refusals_total',
    help: 'Requests refused by the rate limit (429)',
    registers: [this.registry],
  });
  private readonly storeDuration = new Histogram<'operation'>({
    name: 'registry_store_operation_duration_seconds',
    help: 'Duration of store operations in seconds, by operation of the store interface',
    labelNames: ['operation'],
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });

  constructor(readonly address: MetricsAddress) {}

  /** Counts one request refused by the rate limit. */
  readonly countRateLimitRefusal = (): void => {
    this.rateLimitRefusals.inc();
  };

  /** Records the durations of one store operation (for `timedStore`). */
  readonly storeTimer: OperationTimer = (operation) => {
    const series = this.storeDuration.labels(operation);
    return (seconds) => series.observe(seconds);
  };
}

export interface MetricsOptions {
  metrics: NodeMetrics;
  /** The store, read when scraped for the feed's newest `dateModified` (not timed: scrapes are not store traffic). */
  feed: Pick<AssetStore, 'list'>;
  /** Change streams open on this node. */
  openStreams: () => number;
}

const operationOf = (request: FastifyRequest): string => request.routeOptions.config.operationId ?? NO_OPERATION;

async function metricsPlugin(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const { registry } = options.metrics;
  const { feed, openStreams } = options;

  await app.register(fastifyMetrics.default, {
    promClient,
    // Served by the metrics listener below, never by the API.
    endpoint: null,
    defaultMetrics: { enabled: true, register: registry },
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      groupStatusCodes: true,
      // Every method counts: HEAD and OPTIONS are requests like the others.
      methodBlacklist: [],
      overrides: {
        labels: { route: 'operation', status: 'status_class', getRouteLabel: operationOf },
        histogram: { buckets: REQUEST_BUCKETS, help: 'Duration of requests in seconds, by operation of the document', registers: [registry] },
        // Disabled, but made all the same by fastify-metrics: kept out of every registry.
        summary: { registers: [] },
      },
    },
  });

  new Gauge({
    name: 'registry_change_streams_open',
    help: 'Change streams (GET /assets/changes) open on this node',
    registers: [registry],
    collect() {
      this.set(openStreams());
    },
  });
  new Gauge({
    name: 'registry_feed_last_modified_timestamp_seconds',
    help: 'The newest dateModified of the feed (mode real), as seconds since the epoch; absent while the feed is empty',
    registers: [registry],
    async collect() {
      try {
        const [newest] = await feed.list({ descending: true, limit: 1, mode: 'real', fields: [] });
        if (newest === undefined) this.reset();
        else this.set(newest.modified / 1e6);
      } catch (err) {
        // The other metrics matter most when the store does not answer: this one is left out, not the scrape.
        this.reset();
        app.log.warn({ err }, 'metrics: reading the newest dateModified of the feed failed');
      }
    },
  });

  const server = Fastify({ loggerInstance: app.log.child({ listener: 'metrics' }) });
  // Scraped every few seconds: only what goes wrong is logged.
  server.get(METRICS_PATH, { logLevel: 'warn' }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  app.decorate('metricsServer', server);
  // A port that cannot be had stops the start, as the API's own would.
  app.addHook('onReady', async () => {
    await server.listen(options.metrics.address);
  });
  app.addHook('onClose', () => server.close());
}

export default fp(metricsPlugin, { fastify: '5.x', name: 'metrics' });
