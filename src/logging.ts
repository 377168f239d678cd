/**
 * The registry's log (pino, through Fastify): secrets never reach it (decisions.md §15). Owner and transfer tokens
 * (`acc_token` in a URL, `X-Access-Token`, `access` in a body), `Authorization` and cookies are replaced by
 * `[Redacted]` wherever the registry or a library it uses would log them: the request line of every request log
 * (`url`), and headers, queries and bodies in any logged object (@fastify/multipart logs the request's headers
 * at trace level, for one).
 */
import type { DestinationStream, LoggerOptions } from 'pino';
import type { FastifyRequest } from 'fastify';

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
