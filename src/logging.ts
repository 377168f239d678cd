/**
 * The registry's log (pino, through Fastify): secrets never reach it (decisions.md §15). Owner and transfer tokens
 * (`acc_token` in a URL, `X-Access-Token`, `access` in a body), `Authorization` and cookies are replaced by
 * `[Redacted]` wherever the registry or a library it uses would log them: the request line of every request log
 * (`url`), and headers, queries and bodies in any logged object (@fastify/multipart logs the request's headers
 * at trace level, for one).
 */
import { levels, type Bindings, type ChildLoggerOptions, type DestinationStream, type Level, type LoggerOptions } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

export const REDACTED = '[Redacted]';

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-access-token', 'proxy-authorization'];
const SECRET_FIELDS = ['access', 'acc_token', 'transfer'];

/** Headers objects and secret fields up to three levels into a logged object (`req.headers`, `busboyOptions.headers`). */
const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`, `*.*.headers["${name}"]`]),
  ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

/** The request target with the value of every `acc_token` query parameter replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]acc_token=)[^&#]*/gi, `$1${REDACTED}`);
}

/** What a request log line says of the request: Fastify's default, with the owner token out of the URL. */
function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's logger options at `level`, written to `stream` (standard output when undefined). */
export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestSerializer as never },
    ...(stream === undefined ? {} : { stream }),
  };
}

const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** Whether `logger` writes lines of `level` (pino's standard levels; `silent` writes none). */
function writes(logger: FastifyBaseLogger, level: Level): boolean {
  const threshold = levels.values[logger.level];
  return threshold !== undefined && levels.values[level]! >= threshold;
}

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, bound to its request id), made only when
 * the request logs something. Making a pino child costs as much as serving a cached read (its bindings pass
 * through the redaction), and at `warn` most requests never log. Until then the request's logger is its parent
 * with the levels it writes, and `child`, going to the child, made on first use; the other levels are the parent's
 * no-ops. Fastify hands every child options (`{}`); pino has a faster path for none, taken when they are empty.
 */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route's own log level comes as an option: such a child decides its levels itself, so it is made at once.
  if (Object.keys(options).length > 0) return logger.child(bindings, options);
  let child: FastifyBaseLogger | undefined;
  const made = (): FastifyBaseLogger => (child ??= logger.child(bindings));
  const lazy: FastifyBaseLogger = Object.create(logger);
  for (const level of LEVELS) {
    if (writes(logger, level)) lazy[level] = (...args: Parameters<FastifyBaseLogger['info']>) => made()[level](...args);
  }
  lazy.child = (...args) => made().child(...args);
  return lazy;
}
