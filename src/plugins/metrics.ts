/**
 * Prometheus metrics (listed in docs/operations.md) on a listener of their own; without METRICS_PORT nothing is built.
 * Labelled by `operationId`, never the URL: one series per operation. Apps in one process never share a registry.
 */
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import promClient, { Counter, Gauge, Histogram, Registry } from '@prometheus-io/client';
import fastifyMetrics from 'fastify-metrics';
import type { AssetStore } from '../store/types.js';
import type { OperationTimer } from '../store/timed.js';
import { envelope } from '../domain/errors.js';
import { JSON_TYPE } from '../domain/serialize.js';
import { hostChecker, type HostOptions } from './hosts.js';
import './operations.js'; // the `operationId` route config

const METRICS_PATH = '/metrics';

export const NO_OPERATION = '(no operation)';

const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Finer than the requests': a read of the embedded store is far below a millisecond. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

declare module 'fastify' {
  interface FastifyInstance {
    /** Listens once the app is ready and closes with it. */
    metricsServer?: FastifyInstance;
  }
}

export interface MetricsAddress {
  host: string;
  port: number;
}

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

  readonly countRateLimitRefusal = (): void => {
    this.rateLimitRefusals.inc();
  };

  readonly storeTimer: OperationTimer = (operation) => {
    const series = this.storeDuration.labels(operation);
    return (seconds) => series.observe(seconds);
  };
}

interface MetricsOptions {
  metrics: NodeMetrics;
  /** Not the timed store: scrapes are not store traffic. */
  feed: Pick<AssetStore, 'list'>;
  openStreams: () => number;
  /** The API's Host rule holds here too (docs/decisions/0062-smaller-rules-of-round-two.md). */
  hosts: HostOptions;
}

const operationOf = (request: FastifyRequest): string => request.routeOptions.config.operationId ?? NO_OPERATION;

async function metricsPlugin(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const { registry } = options.metrics;
  const { feed, openStreams } = options;

  await app.register(fastifyMetrics.default, {
    promClient,
    endpoint: null,
    defaultMetrics: { enabled: true, register: registry },
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      groupStatusCodes: true,
      // HEAD and OPTIONS are requests like the others.
      methodBlacklist: [],
      overrides: {
        labels: { route: 'operation', status: 'status_class', getRouteLabel: operationOf },
        histogram: {
          buckets: REQUEST_BUCKETS,
          help: 'Duration of requests in seconds, by operation of the document',
          registers: [registry],
        },
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

  const server = Fastify({
    loggerInstance: app.log.child({ listener: 'metrics' }),
    // The hook below refuses it, in the envelope.
    http: { requireHostHeader: false },
  });
  const checkHost = hostChecker(options.hosts, server.server);
  server.addHook('onRequest', (request, reply, done) => {
    const refused = checkHost(request);
    if (refused === undefined) return done();
    reply
      .code(refused.statusCode)
      .type(JSON_TYPE)
      .send(JSON.stringify(envelope(refused.errors)));
  });
  // Scraped every few seconds: only what goes wrong is logged.
  server.get(METRICS_PATH, { logLevel: 'warn' }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  app.decorate('metricsServer', server);
  // A port that cannot be had stops the start, as the API's would.
  app.addHook('onReady', async () => {
    await server.listen(options.metrics.address);
  });
  app.addHook('onClose', () => server.close());
}

export default fp(metricsPlugin, { fastify: '5.x', name: 'metrics' });
