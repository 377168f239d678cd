/**
 * A small client for the suite: a cookie jar for the SERVER_ID cluster cookie, Basic auth by API key. It talks to
 * the real server through a transport: Fastify's `inject` (the whole app, no socket) where the socket is not the
 * point, or real HTTP (undici) where it is (other processes, the balancer, raw protocol, the client address). Every
 * reply was checked against the OpenAPI document by the server itself (`VALIDATE_REPLIES`, set by the test
 * servers): a reply that breaks it arrives as a 500.
 */
import { Readable } from 'node:stream';
import { request as undiciRequest, Agent, interceptors, type Dispatcher } from 'undici';
import type { FastifyInstance } from 'fastify';
import { noteSecrets } from './logs.js';

export interface RequestOptions {
  /** API key sent as the Basic-auth user name (`key:`). `null` sends no key even when the client has one. */
  key?: string | null;
  /** Extra request headers (override the defaults; lower-case names recommended). */
  headers?: Record<string, string>;
  /** A value sent as JSON with `Content-Type: application/json` (unless `headers` says otherwise). */
  json?: unknown;
  /** A raw body, sent as is (a stream is sent chunked unless `headers` give its length); no Content-Type is added. */
  body?: string | Buffer | AsyncIterable<Uint8Array>;
  /** Owner token, sent as the `acc_token` query parameter. */
  token?: string;
  /** `false` skips the automatic cookie fetch before a write (to test 412). */
  autoCookie?: boolean;
}

export interface Response {
  status: number;
  /** Lower-case names; repeated headers joined with `, ` (set-cookie: see `setCookies`). */
  headers: Record<string, string>;
  setCookies: string[];
  text: string;
  /** The body's bytes as they came (files from the document service). */
  raw: Buffer;
  /** Parsed body when it is JSON, else undefined. */
  json: any;
}

/** One request as it goes out: `path` includes the query string; header names are lower-case. */
interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
}

interface IncomingResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  raw: Buffer;
}

/** How a client reaches a server. */
export interface Transport {
  /** `http://127.0.0.1:<port>` of the server, no trailing slash (the Host of injected requests too). */
  readonly baseUrl: string;
  send(request: OutgoingRequest): Promise<IncomingResponse>;
}

/**
 * One keep-alive-free dispatcher so closing a test server never waits for idle sockets. A GET or HEAD whose
 * connection closes before any answer is sent once more, as Go's HTTP client and browsers do for idempotent
 * requests (RFC 9110 §9.2.2): a node sometimes closes a connection a sequence of tile reads is using
 * (docs/testing.md). Statuses are never retried: a test sees every 429 and 503.
 */
const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 }).compose(
  interceptors.retry({
    maxRetries: 1,
    minTimeout: 0,
    methods: ['GET', 'HEAD'],
    statusCodes: [],
    errorCodes: ['UND_ERR_SOCKET', 'ECONNRESET'],
  }),
);

/** Real HTTP over a socket (undici); `through` keeps connections alive as it likes (a default one does not). */
export function httpTransport(baseUrl: string, through: Dispatcher = dispatcher): Transport {
  const base = baseUrl.replace(/\/$/, '');
  return {
    baseUrl: base,
    async send({ method, path, headers, body }) {
      const res = await undiciRequest(base + path, { method: method as any, headers, body, dispatcher: through });
      return { status: res.statusCode, headers: res.headers, raw: Buffer.from(await res.body.arrayBuffer()) };
    },
  };
}

/** Methods whose requests carry a body: undici sends `Content-Length: 0` when they have none. */
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The whole Fastify app without a socket (`app.inject`). The request looks as it does over HTTP: the Host of the
 * listening address (links in answers are built from it), Content-Length or, for a stream, Transfer-Encoding as
 * undici sends them, the loopback address.
 */
export function injectTransport(app: FastifyInstance, baseUrl: string): Transport {
  const base = baseUrl.replace(/\/$/, '');
  const host = new URL(base).host;
  return {
    baseUrl: base,
    async send({ method, path, headers, body }) {
      const sent: Record<string, string> = { host, ...headers };
      if (body instanceof Readable) {
        if (sent['content-length'] === undefined) sent['transfer-encoding'] ??= 'chunked';
      } else if (sent['content-length'] === undefined && (body !== undefined || PAYLOAD_METHODS.has(method))) {
        sent['content-length'] = String(body === undefined ? 0 : Buffer.byteLength(body));
      }
      const res = await app.inject({
        method: method as any,
        url: path,
        headers: sent,
        payload: body,
        remoteAddress: '127.0.0.1',
      });
      return { status: res.statusCode, headers: res.headers, raw: res.rawPayload };
    },
  };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Client {
  readonly transport: Transport;
  key: string | undefined;
  autoCookie: boolean;
  /** Cookie jar: name → value. */
  readonly cookies = new Map<string, string>();

  /** `target`: a server URL (real HTTP) or a transport. */
  constructor(target: string | Transport, options: { key?: string; autoCookie?: boolean } = {}) {
    this.transport = typeof target === 'string' ? httpTransport(target) : target;
    this.key = options.key;
    this.autoCookie = options.autoCookie ?? true;
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** A client on the same server and transport with another key and its own (empty) cookie jar. */
  as(key: string | undefined): Client {
    const c = new Client(this.transport, { autoCookie: this.autoCookie });
    c.key = key;
    return c;
  }

  cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    method = method.toUpperCase();
    const autoCookie = options.autoCookie ?? this.autoCookie;
    if (autoCookie && WRITES.has(method) && !this.cookies.has('SERVER_ID')) {
      await this.request('GET', '/api/0.1/assets', { key: null });
    }
    let target = path;
    if (options.token !== undefined) {
      target += `${target.includes('?') ? '&' : '?'}acc_token=${encodeURIComponent(options.token)}`;
    }
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? this.key : (options.key ?? undefined);
    if (key !== undefined) headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    let body: string | Buffer | Readable | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
      body = options.body;
    } else if (options.body !== undefined) {
      body = Readable.from(options.body, { objectMode: false });
    }
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;

    const res = await this.transport.send({ method, path: target, headers, body });
    const text = res.raw.toString('utf8');
    const out: Record<string, string> = {};
    let setCookies: string[] = [];
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      if (k === 'set-cookie') setCookies = Array.isArray(v) ? v : [String(v)];
      out[k] = Array.isArray(v) ? v.join(', ') : String(v);
    }
    for (const sc of setCookies) {
      const first = sc.split(';')[0] ?? '';
      const eq = first.indexOf('=');
      if (eq > 0) this.cookies.set(first.slice(0, eq).trim(), first.slice(eq + 1).trim());
    }
    let json: any;
    if (/^application\/json/i.test(out['content-type'] ?? '')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const access = json?.access;
    if (typeof access === 'object' && access !== null) {
      noteSecrets([access.token, access.transfer].filter((value): value is string => typeof value === 'string'));
    }
    return { status: res.status, headers: out, setCookies, text, raw: res.raw, json };
  }

  get(path: string, options?: RequestOptions): Promise<Response> {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<Response> {
    return this.request('POST', path, json === undefined ? options : { ...options, json });
  }

  patch(path: string, json?: unknown, options: RequestOptions = {}): Promise<Response> {
    return this.request('PATCH', path, json === undefined ? options : { ...options, json });
  }
}
