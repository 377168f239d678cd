/**
 * Settings, from the environment or the mirroring command-line flags (`--port 8080` = `PORT=8080`).
 * One JSON Schema says each setting's type, default and meaning: Ajv checks and converts the values with it, and
 * `--help` and the README's settings table are written from it. The defaults serve a working registry with no
 * settings at all.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  mongodbUri: string | undefined;
  authFile: string;
  serverId: string;
  cookieSecret: string;
  rateLimitMax: number;
  /** Milliseconds, or words that @fastify/rate-limit understands (`1 minute`). */
  rateLimitWindow: number | string;
  redisUrl: string | undefined;
  trustProxy: boolean | number | string;
  assetIdPrefix: string;
  timeZone: string;
  logLevel: string;
  /** Largest request body accepted, in bytes (413 above it). */
  bodyLimit: number;
  /** Check every reply against the OpenAPI document and answer 500 on a violation. */
  validateReplies: boolean;
  /** Milliseconds a graceful shutdown may take before the process exits anyway. */
  closeGraceDelay: number;
  /** Bytes of memory this node's cache of served assets and feed pages may take (0: none). */
  cacheBytes: number;
  /** Change streams this node serves at once (503 beyond). */
  streamMaxClients: number;
  /** Bytes a stream's client may leave unread… */
  streamMaxUnread: number;
  /** …for this many milliseconds before it is disconnected. */
  streamUnreadTimeout: number;
  /** Milliseconds a stream may stay silent before a keep-alive comment is sent. */
  streamHeartbeat: number;
  /** Largest file the built-in document service stores, in bytes (413 above it). */
  dsMaxBytes: number;
  /** The document service's Ed25519 key pair (PEM); created on first start. */
  dsKeyFile: string;
  /** An external document service whose download URLs documents may carry (`<this>/get/<key>?KeyID&Signature`). */
  dsDownloadUrl: string | undefined;
  /** The external document service's Ed25519 public keys, 64 lowercase hex characters each. */
  dsPublicKeys: string[];
  /** The registry's public origin (`https://registry.example.org`, no final `/`): every absolute URL it writes. */
  publicUrl: string | undefined;
  /** Port of the metrics listener (Prometheus text format); unset: no metrics are kept or served. */
  metricsPort: number | undefined;
  /** Address of the metrics listener. */
  metricsHost: string;
  /** Host names the registry answers to besides PUBLIC_URL's and the loopback names, lower case. */
  allowedHosts: string[];
  /** Milliseconds a request's headers, or a pause in its body, may take (408 past it). */
  requestTimeout: number;
  /** Milliseconds an idle kept-alive connection stays open. */
  keepAliveTimeout: number;
  /** Connections one TCP peer address may hold open at once. */
  maxConnectionsPerClient: number;
  /** Origins whose pages may write and send preflights (CORS); reads answer any origin. */
  corsOrigins: string[];
}

/** The settings by name, as the schema checks and converts them; unset ones without a default stay absent. */
interface Settings {
  HOST: string;
  PORT: number;
  DATA_DIR: string;
  MONGODB_URI?: string;
  AUTH_FILE?: string;
  SERVER_ID?: string;
  COOKIE_SECRET?: string;
  RATE_LIMIT_MAX: number;
  RATE_LIMIT_WINDOW: number | string;
  REDIS_URL?: string;
  TRUST_PROXY: boolean | number | string;
  ASSET_ID_PREFIX: string;
  TZ: string;
  LOG_LEVEL: string;
  BODY_LIMIT: number;
  VALIDATE_REPLIES: boolean;
  CLOSE_GRACE_DELAY: number;
  CACHE_MB: number;
  STREAM_MAX_CLIENTS: number;
  STREAM_MAX_UNREAD: number;
  STREAM_UNREAD_TIMEOUT: number;
  STREAM_HEARTBEAT: number;
  DS_MAX_BYTES: number;
  DS_KEY_FILE?: string;
  DS_DOWNLOAD_URL?: string;
  DS_PUBLIC_KEYS?: string;
  PUBLIC_URL?: string;
  METRICS_PORT?: number;
  METRICS_HOST: string;
  ALLOWED_HOSTS?: string;
  REQUEST_TIMEOUT: number;
  KEEP_ALIVE_TIMEOUT: number;
  MAX_CONNECTIONS_PER_CLIENT: number;
  CORS_ORIGINS?: string;
}

/**
 * Every setting: its type, its default and what it means. `x-default` tells people the default that is worked out
 * at start-up (`default` holds the constant ones); the description of a branch of `anyOf` names that kind of value.
 */
export const SETTINGS_SCHEMA: JSONSchemaType<Settings> = {
  type: 'object',
  properties: {
    HOST: { type: 'string', default: '127.0.0.1', description: 'address the HTTP server listens on' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 6543, description: 'port the HTTP server listens on' },
    DATA_DIR: {
      type: 'string',
      default: './data',
      description: 'embedded store folder (SQLite file `registry.sqlite`); several processes on one machine may share it',
    },
    MONGODB_URI: {
      type: 'string',
      nullable: true,
      description: 'use MongoDB instead of the embedded store; the database is the URI\'s path, `registry` when none',
    },
    AUTH_FILE: {
      type: 'string',
      nullable: true,
      'x-default': '`$DATA_DIR/auth.ini`',
      description: 'API keys (INI: `[role]`, `name = key`); created with fresh random keys, printed once, when absent',
    },
    SERVER_ID: {
      type: 'string',
      nullable: true,
      'x-default': 'host name',
      description: "this node's name in the cluster cookie (letters, digits, `_`, `-`, `.`)",
    },
    COOKIE_SECRET: {
      type: 'string',
      nullable: true,
      'x-default': 'random per process',
      description: 'signs the cluster cookie; set the same value on every node',
    },
    RATE_LIMIT_MAX: {
      type: 'integer',
      minimum: 0,
      default: 1200,
      description: 'requests per window per client address',
    },
    RATE_LIMIT_WINDOW: {
      anyOf: [
        { type: 'integer', minimum: 1, description: 'milliseconds' },
        { type: 'string', pattern: '\\D', description: 'words (`1 minute`)' },
      ],
      default: 60_000,
      description: 'the rate window',
    },
    REDIS_URL: {
      type: 'string',
      nullable: true,
      description: 'keep rate counters in Redis, so a whole cluster enforces one limit per client',
    },
    TRUST_PROXY: {
      anyOf: [
        { type: 'boolean', description: '`true` or `false`' },
        { type: 'integer', minimum: 0, description: 'a hop count' },
        { type: 'string', minLength: 1, description: 'addresses and subnets (`127.0.0.1,10.0.0.0/8`)' },
      ],
      default: false,
      description: "behind a load balancer: which proxies to trust, so that the client's address is used",
    },
    ASSET_ID_PREFIX: { type: 'string', default: 'UA-AR-DGF', description: 'prefix of `assetID`' },
    TZ: {
      type: 'string',
      format: 'time-zone',
      default: 'Europe/Kyiv',
      description: 'time zone of the dates the registry writes',
    },
    LOG_LEVEL: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'pino log level',
    },
    BODY_LIMIT: {
      type: 'integer',
      minimum: 1,
      default: 1_048_576,
      description: 'largest request body in bytes (413 above)',
    },
    VALIDATE_REPLIES: {
      type: 'boolean',
      default: false,
      description:
        'check every reply against the OpenAPI document and answer 500 on a violation; the test suite runs with it on',
    },
    CLOSE_GRACE_DELAY: {
      type: 'integer',
      minimum: 0,
      default: 10_000,
      description:
        'on SIGTERM or SIGINT: milliseconds to finish the requests in flight and close the store before exiting anyway',
    },
    CACHE_MB: {
      type: 'integer',
      minimum: 0,
      default: 32,
      description:
        "mebibytes of memory a node's cache of served assets and feed pages may take; exact after every write of any node (0: none)",
    },
    STREAM_MAX_CLIENTS: {
      type: 'integer',
      minimum: 0,
      default: 1000,
      description: 'change streams (`GET /assets/changes`) one node serves at once; 503 beyond (0: none)',
    },
    STREAM_MAX_UNREAD: {
      type: 'integer',
      minimum: 0,
      default: 1_048_576,
      description: 'bytes a change-stream client may leave unread for `STREAM_UNREAD_TIMEOUT` before it is dropped',
    },
    STREAM_UNREAD_TIMEOUT: {
      type: 'integer',
      minimum: 1,
      default: 30_000,
      description: 'milliseconds a change-stream client may leave `STREAM_MAX_UNREAD` bytes unread',
    },
    STREAM_HEARTBEAT: {
      type: 'integer',
      minimum: 1,
      default: 15_000,
      description: 'longest silence of a change stream in milliseconds (then a keep-alive comment)',
    },
    DS_MAX_BYTES: {
      type: 'integer',
      minimum: 1,
      default: 52_428_800,
      description: 'largest file the built-in document service stores, in bytes (413 above; nothing of it is kept)',
    },
    DS_KEY_FILE: {
      type: 'string',
      nullable: true,
      'x-default': '`$DATA_DIR/ds-key.pem`',
      description:
        "the document service's Ed25519 key pair (PEM), which signs its download URLs; created when absent; the same file on every node",
    },
    DS_DOWNLOAD_URL: {
      type: 'string',
      nullable: true,
      pattern: '^https?://[^?#]+[^/?#]$',
      'x-value': 'an http or https URL without query, fragment or final `/`',
      description:
        'an external document service whose files documents may point at too (its URLs: `<DS_DOWNLOAD_URL>/get/<key>?KeyID=…&Signature=…`)',
    },
    DS_PUBLIC_KEYS: {
      type: 'string',
      nullable: true,
      pattern: '^[0-9a-fA-F]{64}( *, *[0-9a-fA-F]{64})*$',
      'x-value': 'keys of 64 hexadecimal characters, comma-separated',
      description: "the external document service's Ed25519 public keys, 64 hexadecimal characters each, comma-separated",
    },
    PUBLIC_URL: {
      type: 'string',
      nullable: true,
      pattern: '^https?://[^/?#@\\s]+/?$',
      'x-value': 'an http or https origin (`https://registry.example.org`), with or without a final `/`',
      'x-default': "the request's origin",
      description:
        "the registry's public address: every absolute URL it writes (`Location`, `next_page.uri`, the document service's) is on it, documents are accepted only with the document service's URLs there, and it answers to its host",
    },
    ALLOWED_HOSTS: {
      type: 'string',
      nullable: true,
      pattern: '^ *[A-Za-z0-9.-]+ *(, *[A-Za-z0-9.-]+ *)*$',
      'x-value': 'host names without ports, comma-separated',
      'x-default': 'none',
      description:
        '`Host` names the registry answers to besides that of `PUBLIC_URL` and `localhost`, `127.0.0.1`, `[::1]` (any port; other hosts get 400)',
    },
    REQUEST_TIMEOUT: {
      type: 'integer',
      minimum: 1,
      default: 30_000,
      description:
        "milliseconds a request's headers, or any pause in its body, may take (408 and the connection closed past it); also how long a silent connection stays open",
    },
    KEEP_ALIVE_TIMEOUT: {
      type: 'integer',
      minimum: 1,
      default: 5000,
      description: 'milliseconds an idle kept-alive connection stays open',
    },
    MAX_CONNECTIONS_PER_CLIENT: {
      type: 'integer',
      minimum: 1,
      default: 256,
      description:
        'connections one client address (the TCP peer, whatever `TRUST_PROXY` says) may hold open at once; one beyond is closed without an answer',
    },
    METRICS_PORT: {
      type: 'integer',
      nullable: true,
      minimum: 0,
      maximum: 65535,
      description:
        'serve metrics in the Prometheus text format at `GET /metrics` on a listener of their own on this port, never on the API\'s; unset: no metrics are kept',
    },
    METRICS_HOST: {
      type: 'string',
      default: '127.0.0.1',
      description: 'address the metrics listener listens on (with `METRICS_PORT`)',
    },
    CORS_ORIGINS: {
      type: 'string',
      nullable: true,
      pattern: '^https?://[^/?#,\\s]+( *, *https?://[^/?#,\\s]+)*$',
      'x-value': 'origins (`https://broker.example.org`), comma-separated',
      'x-default': 'none',
      description:
        'pages on these origins may write (POST, PUT, PATCH, with credentials) and get preflights answered (CORS); public reads answer any origin',
    },
  },
  required: [],
  additionalProperties: false,
};

type Source = Record<string, string | undefined>;

export const SETTING_NAMES = Object.keys(SETTINGS_SCHEMA.properties ?? {}) as (keyof Settings)[];

/** The flag that mirrors a setting: `DATA_DIR` → `--data-dir`. */
export const flagOf = (name: string): string => `--${name.toLowerCase().replace(/_/g, '-')}`;

/** Reads `--name value` and `--name=value` flags into environment-style keys (`--data-dir` → DATA_DIR). */
export function flagsToEnv(argv: readonly string[]): Source {
  const out: Source = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg?.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)).replace(/-/g, '_').toUpperCase();
    out[name] = eq === -1 ? argv[++i] : arg.slice(eq + 1);
  }
  return out;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// coerceTypes turns the strings of the environment into the schema's numbers and booleans (inside anyOf, the first
// branch that accepts the text wins); useDefaults fills in the constant defaults.
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false });
ajv.addKeyword('x-default');
ajv.addKeyword('x-value');
ajv.addFormat('time-zone', isTimeZone);
const validateSettings = ajv.compile(SETTINGS_SCHEMA);

interface SettingSchema {
  type?: string;
  anyOf?: SettingSchema[];
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  format?: string;
  description?: string;
  default?: unknown;
  'x-default'?: string;
  /** The kind of value in words, where the type alone does not say it (a pattern's). */
  'x-value'?: string;
}

const settingSchema = (name: string): SettingSchema =>
  (SETTINGS_SCHEMA.properties as Record<string, SettingSchema>)[name] ?? {};

/** The kind of value a setting takes, in words (`a whole number from 0 to 65535`), for people and error messages. */
export function valueText(schema: SettingSchema): string {
  if (schema['x-value'] !== undefined) return schema['x-value'];
  if (schema.anyOf) return schema.anyOf.map((branch) => branch.description ?? valueText(branch)).join(', or ');
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'boolean') return '`true` or `false`';
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema;
    if (minimum !== undefined && maximum !== undefined) return `a whole number from ${minimum} to ${maximum}`;
    return minimum !== undefined ? `a whole number, at least ${minimum}` : 'a whole number';
  }
  if (schema.format === 'time-zone') return 'a time zone name (`Europe/Kyiv`, `UTC`)';
  return 'text';
}

/** The default as people read it: the constant, the one worked out at start-up, or "unset". */
export function defaultText(schema: SettingSchema): string {
  if (schema['x-default'] !== undefined) return schema['x-default'];
  return schema.default === undefined ? 'unset' : String(schema.default);
}

/** A setting that is unknown or has a value its schema refuses: start-up stops with this message. */
export class SettingError extends Error {}

function settingError(error: ErrorObject, given: Source): SettingError {
  const name = error.instancePath.slice(1);
  const schema = settingSchema(name);
  const expected = valueText(schema).replace(/`/g, '');
  return new SettingError(`${name} must be ${expected} (${schema.description}), got "${given[name] ?? ''}"`);
}

/** Every setting from the environment and the flags (a flag wins); an empty value counts as unset. */
export function loadConfig(env: Source = process.env, argv: readonly string[] = process.argv.slice(2)): Config {
  const flags = flagsToEnv(argv);
  const unknown = Object.keys(flags).filter((name) => !(SETTING_NAMES as string[]).includes(name));
  if (unknown.length > 0) throw new SettingError(`unknown flag ${flagOf(unknown[0]!)} (see --help)`);
  const given: Source = {};
  for (const name of SETTING_NAMES) {
    const value = flags[name] ?? env[name];
    if (value !== undefined && value !== '') given[name] = value;
  }
  const settings: unknown = { ...given };
  if (!validateSettings(settings)) throw settingError(validateSettings.errors![0]!, given);
  const s = settings as Settings;
  return {
    host: s.HOST,
    port: s.PORT,
    dataDir: s.DATA_DIR,
    mongodbUri: s.MONGODB_URI,
    authFile: s.AUTH_FILE ?? join(s.DATA_DIR, 'auth.ini'),
    serverId: s.SERVER_ID ?? hostname(),
    cookieSecret: s.COOKIE_SECRET ?? randomBytes(32).toString('hex'),
    rateLimitMax: s.RATE_LIMIT_MAX,
    rateLimitWindow: s.RATE_LIMIT_WINDOW,
    redisUrl: s.REDIS_URL,
    trustProxy: s.TRUST_PROXY,
    assetIdPrefix: s.ASSET_ID_PREFIX,
    timeZone: s.TZ,
    logLevel: s.LOG_LEVEL,
    bodyLimit: s.BODY_LIMIT,
    validateReplies: s.VALIDATE_REPLIES,
    closeGraceDelay: s.CLOSE_GRACE_DELAY,
    cacheBytes: s.CACHE_MB * 1024 * 1024,
    streamMaxClients: s.STREAM_MAX_CLIENTS,
    streamMaxUnread: s.STREAM_MAX_UNREAD,
    streamUnreadTimeout: s.STREAM_UNREAD_TIMEOUT,
    streamHeartbeat: s.STREAM_HEARTBEAT,
    dsMaxBytes: s.DS_MAX_BYTES,
    dsKeyFile: s.DS_KEY_FILE ?? join(s.DATA_DIR, 'ds-key.pem'),
    dsDownloadUrl: s.DS_DOWNLOAD_URL,
    dsPublicKeys: s.DS_PUBLIC_KEYS === undefined ? [] : s.DS_PUBLIC_KEYS.split(',').map((key) => key.trim().toLowerCase()),
    metricsPort: s.METRICS_PORT,
    metricsHost: s.METRICS_HOST,
    publicUrl: s.PUBLIC_URL?.replace(/\/$/, ''),
    allowedHosts: s.ALLOWED_HOSTS === undefined ? [] : s.ALLOWED_HOSTS.split(',').map((name) => name.trim().toLowerCase()),
    requestTimeout: s.REQUEST_TIMEOUT,
    keepAliveTimeout: s.KEEP_ALIVE_TIMEOUT,
    maxConnectionsPerClient: s.MAX_CONNECTIONS_PER_CLIENT,
    corsOrigins: s.CORS_ORIGINS === undefined ? [] : s.CORS_ORIGINS.split(',').map((origin) => origin.trim()),
  };
}

/** `--help`: every setting with its flag, the values it takes, its default and its meaning. */
export function helpText(): string {
  const blocks = SETTING_NAMES.map((name) => {
    const schema = settingSchema(name);
    const plain = (text: string) => text.replace(/`/g, '');
    return (
      `  ${name}, ${flagOf(name)}\n` +
      `      ${plain(schema.description ?? '')}\n` +
      `      value: ${plain(valueText(schema))}; default: ${plain(defaultText(schema))}`
    );
  });
  return (
    'claimrights-registry: settings, each an environment variable or the matching flag (PORT=8080 or --port 8080);\n' +
    'a flag wins over the environment, an empty value counts as unset.\n\n' +
    `${blocks.join('\n')}\n`
  );
}

/** The README's settings table (Markdown), written by `npm run generate` between its markers. */
export function settingsTable(): string {
  const rows = SETTING_NAMES.map((name) => {
    const schema = settingSchema(name);
    const fallback = defaultText(schema);
    const shownDefault = schema['x-default'] !== undefined || schema.default === undefined ? fallback : `\`${fallback}\``;
    return `| \`${name}\` | ${shownDefault} | ${valueText(schema)} | ${schema.description ?? ''} |`;
  });
  return ['| Setting | Default | Value | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
