/**
 * The settings, listed once (docs/decisions/0005-settings-from-one-schema.md): load.ts, help.ts and types.ts all
 * read this list. The defaults serve a working registry with no settings at all.
 *
 * `x-default` words a default worked out at start-up by `resolve`; `x-value` names the kind of value where the type
 * alone does not say it; the description of an `anyOf` branch names that kind of value.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Checked, listOf, type Setting, type SettingSchema } from './setting.js';
import { proxyAddresses } from './values.js';

export const SETTINGS = {
  TZ: {
    concern: 'registry',
    key: 'timeZone',
    type: 'string',
    format: 'time-zone',
    default: 'Europe/Kyiv',
    description: 'time zone of the dates the registry writes',
  },
  ASSET_ID_PREFIX: {
    concern: 'registry',
    key: 'assetIdPrefix',
    type: 'string',
    default: 'UA-AR-DGF',
    description: 'prefix of `assetID`',
  },

  HOST: {
    concern: 'server',
    key: 'host',
    type: 'string',
    default: '127.0.0.1',
    description: 'address the HTTP server listens on',
  },
  PORT: {
    concern: 'server',
    key: 'port',
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 6543,
    description: 'port the HTTP server listens on',
  },
  LOG_LEVEL: {
    concern: 'server',
    key: 'logLevel',
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    description: 'pino log level',
  },
  BODY_LIMIT: {
    concern: 'server',
    key: 'bodyLimit',
    type: 'integer',
    minimum: 1,
    default: 1_048_576,
    description: 'largest request body in bytes (413 above)',
  },
  HISTORY_PAGE_BYTES: {
    concern: 'server',
    key: 'historyPageBytes',
    type: 'integer',
    minimum: 1,
    default: 4_194_304,
    description:
      "bytes a page of an asset's history may take: it ends before the revision that would pass them (at least one revision a page)",
  },
  TRUST_PROXY: {
    concern: 'server',
    key: 'trustProxy',
    anyOf: [
      { type: 'boolean', description: '`true` or `false`' },
      { type: 'integer', minimum: 0, description: 'a hop count' },
      {
        type: 'string',
        pattern: '^ *[0-9A-Fa-f:.]+(/[0-9]{1,3})? *(, *[0-9A-Fa-f:.]+(/[0-9]{1,3})? *)*$',
        description: "the proxies' addresses and CIDR ranges, comma-separated (`10.0.0.5,10.1.0.0/16`)",
      },
    ],
    default: false,
    description:
      "behind a load balancer: which proxies to trust, so that the client's address is used; in production the balancer's address (`true` trusts any client's `X-Forwarded-For`, and logs a warning)",
    resolve: (value: boolean | number | string) => (typeof value === 'string' ? proxyAddresses(value) : value),
  },
  VALIDATE_REPLIES: {
    concern: 'server',
    key: 'validateReplies',
    type: 'boolean',
    default: false,
    description:
      'check every reply against the OpenAPI document and answer 500 on a violation; the test suite runs with it on',
  },
  CLOSE_GRACE_DELAY: {
    concern: 'server',
    key: 'closeGraceDelay',
    type: 'integer',
    minimum: 0,
    default: 10_000,
    description:
      'on SIGTERM or SIGINT: milliseconds to finish the requests in flight and close the store before exiting anyway',
  },

  DATA_DIR: {
    concern: 'store',
    key: 'dataDir',
    type: 'string',
    default: './data',
    description: 'embedded store folder (SQLite file `registry.sqlite`); several processes on one machine may share it',
  },
  MONGODB_URI: {
    concern: 'store',
    key: 'mongodbUri',
    type: 'string',
    description: "use MongoDB instead of the embedded store; the database is the URI's path, `registry` when none",
  },

  CACHE_MB: {
    concern: 'cache',
    key: 'maxBytes',
    type: 'integer',
    minimum: 0,
    default: 32,
    description:
      "mebibytes of memory a node's cache of served assets and feed pages may take; exact after every write of any node (0: none)",
    resolve: (mebibytes: number) => mebibytes * 1024 * 1024,
  },

  AUTH_FILE: {
    concern: 'auth',
    key: 'file',
    type: 'string',
    'x-default': '`$DATA_DIR/auth.ini`',
    description: 'API keys (INI: `[role]`, `name = key`); created with fresh random keys, printed once, when absent',
    resolve: (file: string | undefined, { DATA_DIR }: Checked) => file ?? join(DATA_DIR, 'auth.ini'),
  },

  SERVER_ID: {
    concern: 'cookie',
    key: 'serverId',
    type: 'string',
    'x-default': 'host name',
    description: "this node's name in the cluster cookie (letters, digits, `_`, `-`, `.`)",
    resolve: (name: string | undefined) => name ?? hostname(),
  },
  COOKIE_SECRET: {
    concern: 'cookie',
    key: 'secret',
    type: 'string',
    format: 'cookie-secret',
    'x-secret': true,
    'x-value': "text of at least 32 bytes (`openssl rand -hex 32`), not the example's placeholder",
    'x-default': 'random per process',
    description: 'signs the cluster cookie; set the same value on every node',
    resolve: (secret: string | undefined) => secret ?? randomBytes(32).toString('hex'),
  },

  RATE_LIMIT_MAX: {
    concern: 'rateLimit',
    key: 'max',
    type: 'integer',
    minimum: 0,
    default: 1200,
    description: 'requests per window per client address',
  },
  RATE_LIMIT_WINDOW: {
    concern: 'rateLimit',
    key: 'timeWindow',
    anyOf: [
      { type: 'integer', minimum: 1, description: 'milliseconds' },
      { type: 'string', pattern: '\\D', description: 'words (`1 minute`)' },
    ],
    default: 60_000,
    description: 'the rate window',
  },
  REDIS_URL: {
    concern: 'rateLimit',
    key: 'redisUrl',
    type: 'string',
    description: 'keep rate counters in Redis, so a whole cluster enforces one limit per client',
  },

  STREAM_MAX_CLIENTS: {
    concern: 'streams',
    key: 'maxClients',
    type: 'integer',
    minimum: 0,
    default: 1000,
    description: 'change streams (`GET /assets/changes`) one node serves at once; 503 beyond (0: none)',
  },
  STREAM_MAX_PER_CLIENT: {
    concern: 'streams',
    key: 'maxPerClient',
    type: 'integer',
    minimum: 0,
    default: 100,
    description:
      'change streams one client address (after `TRUST_PROXY`) may hold open on a node; 503 beyond, as for `STREAM_MAX_CLIENTS`',
  },
  STREAM_MAX_UNREAD: {
    concern: 'streams',
    key: 'maxUnread',
    type: 'integer',
    minimum: 0,
    default: 1_048_576,
    description: 'bytes a change-stream client may leave unread for `STREAM_UNREAD_TIMEOUT` before it is dropped',
  },
  STREAM_UNREAD_TIMEOUT: {
    concern: 'streams',
    key: 'unreadTimeout',
    type: 'integer',
    minimum: 1,
    default: 30_000,
    description: 'milliseconds a change-stream client may leave `STREAM_MAX_UNREAD` bytes unread',
  },
  STREAM_HEARTBEAT: {
    concern: 'streams',
    key: 'heartbeat',
    type: 'integer',
    minimum: 1,
    default: 15_000,
    description: 'longest silence of a change stream in milliseconds (then a keep-alive comment)',
  },

  DS_MAX_BYTES: {
    concern: 'documentService',
    key: 'maxBytes',
    type: 'integer',
    minimum: 1,
    default: 52_428_800,
    description: 'largest file the built-in document service stores, in bytes (413 above; nothing of it is kept)',
  },
  DS_KEY_FILE: {
    concern: 'documentService',
    key: 'keyFile',
    type: 'string',
    'x-default': '`$DATA_DIR/ds-key.pem`',
    description:
      "the document service's Ed25519 key pair (PEM), which signs its download URLs; created when absent; the same file on every node",
    resolve: (file: string | undefined, { DATA_DIR }: Checked) => file ?? join(DATA_DIR, 'ds-key.pem'),
  },
  DS_DOWNLOAD_URL: {
    concern: 'documentService',
    key: 'downloadUrl',
    type: 'string',
    pattern: '^https?://[^?#]+[^/?#]$',
    'x-value': 'an http or https URL without query, fragment or final `/`',
    description:
      'an external document service whose files documents may point at too (its URLs: `<DS_DOWNLOAD_URL>/get/<key>?KeyID=…&Signature=…`)',
  },
  DS_PUBLIC_KEYS: {
    concern: 'documentService',
    key: 'publicKeys',
    type: 'string',
    pattern: '^[0-9a-fA-F]{64}( *, *[0-9a-fA-F]{64})*$',
    'x-value': 'keys of 64 hexadecimal characters, comma-separated',
    description: "the external document service's Ed25519 public keys, 64 hexadecimal characters each, comma-separated",
    resolve: (keys: string | undefined) => listOf(keys).map((key) => key.toLowerCase()),
  },

  LOG_ORIGIN: {
    concern: 'log',
    key: 'origin',
    type: 'string',
    pattern: '^[^\\s+]+$',
    'x-value': 'a name without spaces or `+` (`registry.example.org/api/0.1/log`)',
    'x-default': 'the host and path of `PUBLIC_URL` + `/api/0.1/log`, else `claimrights-registry.invalid/<key hash>`',
    description: "the log's origin: its checkpoints' first line and its verifier key's name; the same on every node",
  },
  LOG_KEY_FILE: {
    concern: 'log',
    key: 'keyFile',
    type: 'string',
    'x-default': '`$DATA_DIR/log.key`',
    description: "the log's Ed25519 signing key (PEM), made with mode 0600 when absent; the same on every node",
    resolve: (file: string | undefined, { DATA_DIR }: Checked) => file ?? join(DATA_DIR, 'log.key'),
  },

  METRICS_PORT: {
    concern: 'metrics',
    key: 'port',
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    description:
      "serve metrics in the Prometheus text format at `GET /metrics` on a listener of their own on this port, never on the API's; unset: no metrics are kept",
  },
  METRICS_HOST: {
    concern: 'metrics',
    key: 'host',
    type: 'string',
    default: '127.0.0.1',
    description: 'address the metrics listener listens on (with `METRICS_PORT`)',
  },

  PUBLIC_URL: {
    concern: 'hosts',
    key: 'publicUrl',
    type: 'string',
    pattern: '^https?://[^/?#@\\s]+/?$',
    'x-value': 'an http or https origin (`https://registry.example.org`), with or without a final `/`',
    'x-default': "the request's origin",
    description:
      "the registry's public address: every absolute URL it writes (`Location`, `next_page.uri`, the document service's) is on it, documents are accepted only with the document service's URLs there, and it answers to its host",
    resolve: (url: string | undefined) => url?.replace(/\/$/, ''),
  },
  ALLOWED_HOSTS: {
    concern: 'hosts',
    key: 'allowedHosts',
    type: 'string',
    pattern: '^ *[A-Za-z0-9.-]+ *(, *[A-Za-z0-9.-]+ *)*$',
    'x-value': 'host names without ports, comma-separated',
    'x-default': 'none',
    description:
      '`Host` names the registry answers to besides that of `PUBLIC_URL` and `localhost`, `127.0.0.1`, `[::1]` (other hosts get 400; with `PUBLIC_URL` on any port, without it with no port or the one the request came in on)',
    resolve: (names: string | undefined) => listOf(names).map((name) => name.toLowerCase()),
  },

  REQUEST_TIMEOUT: {
    concern: 'connections',
    key: 'requestTimeout',
    type: 'integer',
    minimum: 1,
    default: 30_000,
    description:
      "milliseconds a request's headers, or any pause in its body, may take (408 and the connection closed past it); also how long a silent connection stays open",
  },
  KEEP_ALIVE_TIMEOUT: {
    concern: 'connections',
    key: 'keepAliveTimeout',
    type: 'integer',
    minimum: 1,
    default: 5000,
    description: 'milliseconds an idle kept-alive connection stays open',
  },
  MAX_CONNECTIONS_PER_CLIENT: {
    concern: 'connections',
    key: 'maxPerClient',
    type: 'integer',
    minimum: 1,
    default: 256,
    description:
      'connections one client address (the TCP peer, whatever `TRUST_PROXY` says) may hold open at once; one beyond is closed without an answer',
  },

  CORS_ORIGINS: {
    concern: 'cors',
    key: 'origins',
    type: 'string',
    pattern: '^https?://[^/?#,\\s]+( *, *https?://[^/?#,\\s]+)*$',
    'x-value': 'origins (`https://broker.example.org`), comma-separated',
    'x-default': 'none',
    description:
      'pages on these origins may write (POST, PUT, PATCH, with credentials) and get preflights answered (CORS); public reads answer any origin',
    resolve: listOf,
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The flag that mirrors a setting: `DATA_DIR` → `--data-dir`. */
export const flagOf = (name: string): string => `--${name.toLowerCase().replace(/_/g, '-')}`;

/** The settings' JSON Schema: each setting's own, without what places it in Config. */
export const SETTINGS_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(SETTINGS).map(([name, setting]: [string, Setting]) => {
      const { concern: _concern, key: _key, resolve: _resolve, ...schema } = setting;
      return [name, schema as SettingSchema];
    }),
  ),
  required: [],
  additionalProperties: false,
};
