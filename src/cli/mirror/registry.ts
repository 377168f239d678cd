/** The mirror's connection to a registry, with the rules every client follows: the cluster cookie, 412, 429. */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';

/** Longest wait after repeated 429s, and for a registry that cannot be reached. */
export const MAX_BACKOFF_MS = 60_000;
/** A stream sends at least a comment every 15 s: four times that without a byte, the connection is dead. */
const STREAM_SILENCE_MS = 60_000;
/** 412s in a row before giving up on a request (each carries a fresh cookie, so one repeat should do). */
export const MAX_PRECONDITION_REPEATS = 5;

export class Registry {
  private cookie: string | undefined;
  private readonly reads: Dispatcher = new Agent({ connections: 16, bodyTimeout: 60_000, headersTimeout: 60_000 });
  readonly streams: Dispatcher = new Agent({ bodyTimeout: STREAM_SILENCE_MS, headersTimeout: 60_000 });

  constructor(
    readonly api: string,
    private readonly log: (text: string) => void,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.cookie === undefined ? extra : { ...extra, cookie: this.cookie };
  }

  keepCookie(headers: Record<string, string | string[] | undefined>): void {
    const setCookie = headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const pair = line.split(';')[0]!;
      if (pair.startsWith('SERVER_ID=')) this.cookie = pair;
    }
  }

  /** As `getText`, for bytes (the log's tiles). */
  async getBytes(path: string): Promise<{ status: number; bytes: Buffer }> {
    const { status, body } = await this.get(path);
    return { status, bytes: body };
  }

  async getText(path: string): Promise<{ status: number; text: string }> {
    const { status, body } = await this.get(path);
    return { status, text: body.toString('utf8') };
  }

  /** Repeats on 412, backs off on 429 and on errors until it gets an answer. */
  private async get(path: string): Promise<{ status: number; body: Buffer }> {
    let backoff = 1000;
    let preconditions = 0;
    for (;;) {
      try {
        const res = await request(this.api + path, { method: 'GET', headers: this.headers(), dispatcher: this.reads });
        this.keepCookie(res.headers);
        const body = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode === 412 && ++preconditions <= MAX_PRECONDITION_REPEATS) continue;
        if (res.statusCode === 429 || res.statusCode >= 500) {
          const wait = Math.max(retryAfterMs(res.headers) ?? 0, backoff);
          this.log(`GET ${path} answered ${res.statusCode}; again in ${Math.round(wait / 1000)} s`);
          await sleep(wait);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
          continue;
        }
        return { status: res.statusCode, body };
      } catch (error) {
        this.log(`GET ${path} failed (${(error as Error).message}); again in ${Math.round(backoff / 1000)} s`);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }
}

export function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
}
