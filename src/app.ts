/**
 * Builds the registry's Fastify instance: plugins in the order of the checks (decisions.md §8), then routes.
 * No listening here — src/server.ts does that, tests use the instance directly.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { AssetStore } from './store/types.js';
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import headers, { requestId } from './plugins/headers.js';
import serverIdCookie from './plugins/server-id.js';
import rateLimit from './plugins/rate-limit.js';
import auth, { ensureAuthFile, type ApiKeys } from './plugins/auth.js';
import content from './plugins/content.js';
import options from './plugins/options.js';
import docsPage from './plugins/docs-page.js';
import assetRoutes, { API_PREFIX } from './routes/assets.js';
import healthRoutes from './routes/health.js';
import openapiRoutes from './routes/openapi.js';

export interface AppOptions {
  config: Config;
  store: AssetStore;
  /** API keys; read from `config.authFile` (created when absent) when not given. */
  keys?: ApiKeys;
  logger?: FastifyServerOptions['logger'];
}

/** A hop count trusts that many proxies nearest to the server (Fastify accepts it, but its types do not). */
function trustProxy(setting: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

export async function buildApp({ config, store, keys, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: trustProxy(config.trustProxy),
    genReqId: requestId,
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: true,
  });

  // Order matters: each onRequest hook is one step of the order of checks.
  await app.register(errors);
  await app.register(headers);
  await app.register(serverIdCookie, { serverId: config.serverId, secret: config.cookieSecret });
  await app.register(rateLimit, { max: config.rateLimitMax, timeWindow: config.rateLimitWindow, redisUrl: config.redisUrl });
  await app.register(auth, { keys: keys ?? ensureAuthFile(config.authFile).keys });
  await app.register(content);
  await app.register(options);
  await app.register(docsPage, { prefix: API_PREFIX });

  await app.register(assetRoutes, { config, store });
  await app.register(healthRoutes, { store });
  await app.register(openapiRoutes);
  return app;
}
