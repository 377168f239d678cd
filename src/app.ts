/**
 * Builds the registry's Fastify instance: plugins in the order of the checks (decisions.md §8), then the
 * document's operations with their handlers. No listening here — src/server.ts does that, tests use the
 * instance directly.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import multipart from '@fastify/multipart';
import { parse as parseQuery } from 'fast-querystring';
import type { Config } from './config.js';
import type { AssetStore } from './store/types.js';
import { createServices } from './services/index.js';
import { operationHandlers } from './routes/index.js';
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import headers, { requestId } from './plugins/headers.js';
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

export interface AppOptions {
  config: Config;
  store: AssetStore;
  /** API keys; read from `config.authFile` (created when absent) when not given. */
  keys?: ApiKeys;
  /** The document service's key pair; read from `config.dsKeyFile` (created when absent) when not given. */
  signingKey?: SigningKey;
  logger?: FastifyServerOptions['logger'];
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

/** Fields and parts beside a multipart upload's one file: small, and few. */
const FORM_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 };

export async function buildApp({ config, store, keys, signingKey, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: trustProxy(config.trustProxy),
    genReqId: requestId,
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: true,
    routerOptions: {
      querystringParser: lastValues,
      // Longer than any path parameter the document allows, so that its own maxLength (400) decides, not the router.
      maxParamLength: 1000,
    },
    // Parameters are validated as the document declares them: typed by coercion, no defaults written into the
    // request (the listing echoes only what was sent), nothing removed.
    ajv: { customOptions: { coerceTypes: true, useDefaults: false, removeAdditional: false, allErrors: false } },
  });

  // Order matters: each onRequest hook is one step of the order of checks.
  await app.register(errors);
  await app.register(headers);
  // Preflights are answered before the cookie, rate and key checks: browsers send them without any of those.
  await app.register(cors, { origins: config.corsOrigins });
  await app.register(serverIdCookie, { serverId: config.serverId, secret: config.cookieSecret });
  await app.register(rateLimit, { max: config.rateLimitMax, timeWindow: config.rateLimitWindow, redisUrl: config.redisUrl });
  await app.register(auth, { keys: keys ?? ensureAuthFile(config.authFile).keys });
  await app.register(content, { maxFileBytes: config.dsMaxBytes });
  // The upload's one file streams to the store: one byte over DS_MAX_BYTES is enough to refuse it, and a second
  // file part is skipped by the parser.
  await app.register(multipart, { limits: { ...FORM_LIMITS, files: 1, fileSize: config.dsMaxBytes + 1 } });
  await app.register(options);
  // Last of the onSend hooks: it sees the reply exactly as it leaves (JSONP wrapped, content type set).
  if (config.validateReplies) await app.register(replyValidation);
  await app.register(docsPage, { prefix: API_PREFIX });

  const services = createServices(
    store,
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
        publicUrl: config.publicUrl,
        apiPrefix: API_PREFIX,
        signingKey: signingKey ?? ensureSigningKey(config.dsKeyFile).key,
        external:
          config.dsDownloadUrl === undefined ? undefined : { downloadUrl: config.dsDownloadUrl, publicKeys: config.dsPublicKeys },
      },
    },
    app.log,
  );
  // Streams never finish on their own: they are ended before the server waits for its connections to close.
  app.addHook('preClose', () => services.changes.close());
  await app.register(operations, { handlers: operationHandlers(services) });
  return app;
}
