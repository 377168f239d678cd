/** Secrets never reach the log, a library's lines included (docs/decisions/0044-secrets-out-of-logs.md). */
import {
  levels,
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Level,
  type LoggerOptions,
} from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

const REDACTED = '[Redacted]';

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-access-token', 'proxy-authorization'];
const SECRET_FIELDS = ['access', 'acc_token', 'transfer'];

/** Up to three levels into a logged object (`req.headers`, `busboyOptions.headers`). */
const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`, `*.*.headers["${name}"]`]),
  ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

export function redactUrl(url: string): string {
  return url.replace(/([?&]acc_token=)[^&#]*/gi, `$1${REDACTED}`);
}

/** Fastify's default, with the owner token out of the URL. */
function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestSerializer as never },
    ...(stream === undefined ? {} : { stream }),
  };
}

const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

function writes(logger: FastifyBaseLogger, level: Level): boolean {
  const threshold = levels.values[logger.level];
  return threshold !== undefined && levels.values[level]! >= threshold;
}

/** Made on first log: a pino child costs as much as a cached read, and at `warn` most requests never log. */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route's own log level comes as an option: such a child decides its levels itself.
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
