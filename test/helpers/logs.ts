/**
 * The suite's log capture (docs/decisions/0044-secrets-out-of-logs.md): every test server logs at `trace` into a
 * file of its own, beside the tokens its clients received, and the global teardown fails the run when any line
 * holds a secret.
 */
import { appendFileSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';

/** The folder of this run's logs; a folder of this process when the run has none (a file run outside vitest's config). */
function logDir(): string {
  let dir = process.env.REGISTRY_TEST_LOG_DIR;
  if (dir === undefined) {
    dir = join(tmpdir(), `registry-test-logs-${process.pid}`);
    process.env.REGISTRY_TEST_LOG_DIR = dir;
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ServerLog {
  readonly stream: pino.DestinationStream;
  /** Every line written so far. */
  lines(): string[];
  close(): void;
}

/** A new log file for one test server. */
export function openServerLog(): ServerLog {
  const path = join(logDir(), `server-${process.pid}-${randomBytes(6).toString('hex')}.log`);
  // An open descriptor: the stream is ready at once (a path would be opened later, and flushing before fails).
  const stream = pino.destination({ dest: openSync(path, 'a'), sync: false, minLength: 4096 });
  let closed = false;
  return {
    stream,
    lines() {
      if (!closed) stream.flushSync();
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '');
    },
    close() {
      if (closed) return;
      closed = true;
      stream.flushSync();
      stream.end();
    },
  };
}

/** Notes secrets a test client was handed (owner and transfer tokens), for the end-of-run scan. */
export function noteSecrets(values: readonly string[]): void {
  if (values.length === 0) return;
  appendFileSync(join(logDir(), `secrets-${process.pid}.txt`), `${values.join('\n')}\n`);
}

/** Header and field names whose values are secrets wherever they appear in a logged object. */
const SECRET_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-access-token',
  'access',
  'acc_token',
]);
const REDACTED = '[Redacted]';

/** The names of secret fields in a logged object whose value is not redacted. */
function unredactedFields(value: unknown, found: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return found;
  for (const [name, member] of Object.entries(value)) {
    if (SECRET_NAMES.has(name.toLowerCase()) && member !== REDACTED) found.push(name);
    else unredactedFields(member, found);
  }
  return found;
}

/**
 * What secret `line` gives away, or undefined: one of `secrets` (keys, tokens; also as Basic credentials), an
 * `acc_token` query value, a `SERVER_ID` cookie, or a secret header or field that is not redacted.
 */
function leakIn(line: string, secrets: readonly string[]): string | undefined {
  for (const secret of secrets) {
    if (line.includes(secret)) return `the secret ${secret.slice(0, 6)}…`;
    // The first 30 characters of a secret start the base64 of any Basic credentials made of it with the same 40 characters.
    if (secret.length >= 30 && line.includes(Buffer.from(secret.slice(0, 30)).toString('base64'))) {
      return `Basic credentials of ${secret.slice(0, 6)}…`;
    }
  }
  if (/acc_token=(?!\[Redacted\]|&|"|$)/i.test(line)) return 'an acc_token in a URL';
  if (/SERVER_ID=[^;"\s]/.test(line)) return 'the SERVER_ID cookie';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const fields = unredactedFields(parsed);
  return fields.length > 0 ? `the field ${fields[0]}` : undefined;
}

/** Every leak in `lines`, with the line (cut short). */
export function leaksIn(lines: readonly string[], secrets: readonly string[]): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    const leak = leakIn(line, secrets);
    if (leak !== undefined) leaks.push(`${leak}: ${line.slice(0, 400)}`);
  }
  return leaks;
}
