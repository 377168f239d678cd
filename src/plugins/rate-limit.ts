/**
 * The rate limit (docs/decisions/0018-rate-limit.md), per `request.ip`, in an app-level hook: the plugin's `global`
 * mode adds route-level hooks, which would run after the API key. An unreachable Redis is logged, requests served.
 */
import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../domain/errors.js';
import './operations.js'; // the `methodNotAllowed` route config flag

interface RateLimitOptions {
  max: number;
  /** Milliseconds, or words such as `1 minute`. */
  timeWindow: number | string;
  /** Counters shared by the nodes of a cluster. */
  redisUrl?: string | undefined;
  /** So registries sharing one Redis count apart. */
  nameSpace?: string;
  onRefused?: (() => void) | undefined;
}

const DEFAULT_RATE_NAMESPACE = 'claimrights-registry:rate:';

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
    // ioredis's defaults would make a request wait for Redis. Loaded only here: start-up need not pay for it.
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
    // Thrown as an ApiError: a result without `statusCode` would become a 500.
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

const rateLimit = fp(rateLimitPlugin, { fastify: '5.x', name: 'registry-rate-limit' });
export default rateLimit;
