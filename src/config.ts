/**
 * Settings, from the environment or the mirroring command-line flags (`--port 8080` = `PORT=8080`).
 * The defaults serve a working registry with no settings at all.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

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
  /** Largest file the built-in document service stores, in bytes (413 above it). */
  dsMaxBytes: number;
  /** The document service's Ed25519 key pair (PEM); created on first start. */
  dsKeyFile: string;
  /** An external document service whose download URLs documents may point at (`<this>/get/<key>?KeyID&Signature`). */
  dsDownloadUrl: string | undefined;
  /** The external document service's Ed25519 public keys, 64 hex characters each. */
  dsPublicKeys: string[];
  /** The registry's public address (`https://registry.example.org`) for the document service's URLs. */
  publicUrl: string | undefined;
  /** Check every reply against the OpenAPI document (500 on a breach); the test suite runs with it on. */
  validateReplies: boolean;
}

/** One row per setting: the environment name, the flag, the default and what it means (README and --help). */
export const SETTINGS = [
  ['HOST', '127.0.0.1', 'address the HTTP server listens on'],
  ['PORT', '6543', 'port the HTTP server listens on'],
  ['DATA_DIR', './data', 'embedded store folder (SQLite); several processes on one machine may share it'],
  ['MONGODB_URI', '', 'use MongoDB instead of the embedded store; database from the path, `registry` when none'],
  ['AUTH_FILE', '$DATA_DIR/auth.ini', 'API keys (INI: [role] name = key); created with fresh keys when absent'],
  ['SERVER_ID', 'host name', "this node's name in the cluster cookie"],
  ['COOKIE_SECRET', 'random per process', 'signs the SERVER_ID cookie; the same value on every node'],
  ['RATE_LIMIT_MAX', '1200', 'requests per window per client address'],
  ['RATE_LIMIT_WINDOW', '1 minute', 'rate window: milliseconds or words'],
  ['REDIS_URL', '', 'share rate counters across the nodes of a cluster'],
  ['TRUST_PROXY', 'false', 'behind a load balancer: true, a hop count or addresses, so the client address is used'],
  ['ASSET_ID_PREFIX', 'UA-AR-DGF', 'prefix of assetID'],
  ['TZ', 'Europe/Kyiv', 'time zone of the dates the registry writes'],
  ['LOG_LEVEL', 'info', 'pino log level'],
  ['BODY_LIMIT', '1048576', 'largest request body in bytes'],
  ['DS_MAX_BYTES', '52428800', 'largest file the built-in document service stores, in bytes'],
  ['DS_KEY_FILE', '$DATA_DIR/ds-key.pem', "the document service's Ed25519 key pair; created when absent; the same file on every node"],
  ['DS_DOWNLOAD_URL', '', 'an external document service documents may also come from (its URLs: <this>/get/<key>?KeyID&Signature)'],
  ['DS_PUBLIC_KEYS', '', "the external document service's Ed25519 public keys, hex, comma-separated"],
  ['PUBLIC_URL', '', "the registry's public address, for the document service's URLs (default: the request's origin)"],
  ['VALIDATE_REPLIES', 'false', 'check every reply against the OpenAPI document and answer 500 on a breach (tests run with it on)'],
] as const;

type Source = Record<string, string | undefined>;

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

/** `true`/`false`, a hop count (`1`), or addresses and subnets (`127.0.0.1,10.0.0.0/8`), as Fastify takes them. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function parseWindow(value: string | undefined): number | string {
  if (!value) return 60_000;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

/** An absolute http(s) URL without a trailing slash, or undefined when not set. */
function baseUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http or https URL, got "${value}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new Error(`${name} must be an http or https URL without query or fragment, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/** Ed25519 public keys as 64 hex characters each, comma-separated. */
function publicKeys(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => {
    const key = part.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`DS_PUBLIC_KEYS must hold 64 hexadecimal characters per key, got "${part}"`);
    return key;
  });
}

export function loadConfig(env: Source = process.env, argv: readonly string[] = process.argv.slice(2)): Config {
  const s: Source = { ...env, ...flagsToEnv(argv) };
  const dataDir = s.DATA_DIR || './data';
  return {
    host: s.HOST || '127.0.0.1',
    port: positiveInt('PORT', s.PORT, 6543),
    dataDir,
    mongodbUri: s.MONGODB_URI || undefined,
    authFile: s.AUTH_FILE || join(dataDir, 'auth.ini'),
    serverId: s.SERVER_ID || hostname(),
    cookieSecret: s.COOKIE_SECRET || randomBytes(32).toString('hex'),
    rateLimitMax: positiveInt('RATE_LIMIT_MAX', s.RATE_LIMIT_MAX, 1200),
    rateLimitWindow: parseWindow(s.RATE_LIMIT_WINDOW),
    redisUrl: s.REDIS_URL || undefined,
    trustProxy: parseTrustProxy(s.TRUST_PROXY),
    assetIdPrefix: s.ASSET_ID_PREFIX || 'UA-AR-DGF',
    timeZone: s.TZ || 'Europe/Kyiv',
    logLevel: s.LOG_LEVEL || 'info',
    bodyLimit: positiveInt('BODY_LIMIT', s.BODY_LIMIT, 1_048_576),
    dsMaxBytes: positiveInt('DS_MAX_BYTES', s.DS_MAX_BYTES, 52_428_800),
    dsKeyFile: s.DS_KEY_FILE || join(dataDir, 'ds-key.pem'),
    dsDownloadUrl: baseUrl('DS_DOWNLOAD_URL', s.DS_DOWNLOAD_URL),
    dsPublicKeys: publicKeys(s.DS_PUBLIC_KEYS),
    publicUrl: baseUrl('PUBLIC_URL', s.PUBLIC_URL),
    validateReplies: s.VALIDATE_REPLIES === 'true',
  };
}
