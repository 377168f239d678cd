/**
 * Rate control (registry-spec "Limits", decisions.md §8): at most `max` requests per `timeWindow` per client
 * address, 429 with the JSON error envelope and `Retry-After` beyond it.
 *
 * - @fastify/rate-limit's handler, added as an app-level onRequest hook by this plugin (the plugin's own
 *   `global` mode would add route-level hooks, which run after every app-level hook, so after the API key):
 *   registration order is the order of checks, cluster cookie (412) → rate (429) → API key (401).
 *   Requests that matched no route (404), routes marked `config.methodNotAllowed` (405) and routes marked
 *   `config.rateLimit: false` (the health check the load balancer polls) are not counted.
 * - The key is `request.ip`: behind a load balancer, the app's `trustProxy` (TRUST_PROXY) makes it the client's
 *   address from X-Forwarded-For instead of the balancer's.
 * - With `redisUrl`, the counters live in Redis (ioredis), so every node of a cluster enforces one limit per
 *   client. Should Redis be unreachable, requests are served (the limit is not enforced) and a warning logged.
 * - `onRefused` is told of every 429 (the metrics' count, when METRICS_PORT is set).
 * - The 429 is thrown as an ApiError (statusCode 429, `errors`): a builder result without `statusCode` would
 *   become a 500 (fastify-notes §3.1).
 */
import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../domain/errors.js';
import './operations.js'; // the `methodNotAllowed` route config flag

export interface RateLimitOptions {
  /** Requests per window per client address (`RATE_LIMIT_MAX`). */
  max: number;
  /** Milliseconds, or words such as `1 minute` (`RATE_LIMIT_WINDOW`). */
  timeWindow: number | string;
  /** `REDIS_URL`: share the counters across the nodes of a cluster. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys, so registries sharing one Redis count apart. */
  nameSpace?: string;
  /** Called for every request refused (the metrics' count). */
  onRefused?: (() => void) | undefined;
}

export const DEFAULT_RATE_NAMESPACE = 'claimrights-registry:rate:';

function describeWindow(timeWindow: number | string): string {
  if (typeof timeWindow === 'string') return timeWindow;
  if (timeWindow % 60_000 === 0) return timeWindow === 60_000 ? '1 minute' : `${timeWindow / 60_000} minutes`;
  if (timeWindow % 1000 === 0) return timeWindow === 1000 ? '1 second' : `${timeWindow / 1000} seconds`;
  return `${timeWindow} ms`;
}

const rateLimitPlugin: FastifyPluginAsync<RateLimitOptions> = async (fastify, options) => {
  const { max, timeWindow, redisUrl } = options;
  const windowText = describeWindow(timeWindow);

  let redis: Redis | undefined;
  if (redisUrl) {
    // The rate-limit README: ioredis defaults are not suited to rate limiting (a request would wait for Redis).
    // Loaded only here: without REDIS_URL, start-up need not pay for the client.
    const { Redis: RedisClient } = await import('ioredis');
    const client = new RedisClient(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
    let healthy = true;
    client.on('ready', () => {
      if (!healthy) fastify.log.info('rate limit: Redis reachable again');
      healthy = true;
    });
    client.on('error', (err: Error) => {
      if (healthy) fastify.log.warn({ err }, 'rate limit: Redis unreachable, the limit is not enforced meanwhile');
      healthy = false;
    });
    fastify.addHook('onClose', async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    });
    redis = client;
  }

  await fastify.register(fastifyRateLimit, {
    global: false,
    max,
    timeWindow,
    keyGenerator: (request) => request.ip,
    ...(options.onRefused ? { onExceeded: options.onRefused } : {}),
    ...(redis ? { redis, nameSpace: options.nameSpace ?? DEFAULT_RATE_NAMESPACE, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new ApiError(
        context.statusCode,
        [
          {
            location: 'header',
            name: 'Retry-After',
            description:
              `Rate limit exceeded: at most ${context.max} requests per ${windowText} from one client address. ` +
              `Repeat the request after ${seconds} s (Retry-After), with increasing delays while the answer is 429.`,
          },
        ],
        { 'Retry-After': String(seconds) },
      );
    },
  });

  const limit = fastify.rateLimit();
  fastify.addHook('onRequest', async function rateLimitHook(request, reply) {
    const config = request.routeOptions.config;
    if (request.is404 || config?.methodNotAllowed === true || config?.rateLimit === false) return;
    await limit.call(this, request, reply);
  });
};

export const rateLimit = fp(rateLimitPlugin, { fastify: '5.x', name: 'registry-rate-limit' });
export default rateLimit;
