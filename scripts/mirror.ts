/**
 * `npm run mirror -- --from <registry> --to <folder>`: keeps a folder with the latest JSON of every listed asset
 * of a registry, `<folder>/<id>.json` (exactly what `GET /api/0.1/assets/{id}` answers), within a second of each
 * change.
 *
 * It follows the change stream (`GET /api/0.1/assets/changes`, decisions.md §11) and, for every event, reads the
 * asset and writes its file. Where it stopped is kept in `<folder>/.mirror-state.json` (the last event id, a
 * `dateModified`), written after the files of the events before it, so a mirror that is stopped or crashes
 * resumes there: an asset may be read twice, none is missed. When the stream is unavailable (a registry without
 * it, 503 when a node has no room, a broken connection) it follows the listing from the same position instead —
 * the stream's event ids and the listing's offsets are the same values — and tries the stream again each time
 * the listing has nothing new.
 *
 * As every client of the registry must: it keeps the SERVER_ID cookie, repeats a request answered 412 with the
 * new cookie, and backs off on 429 (Retry-After, then longer while 429 repeats).
 *
 * Options: --from URL (the registry, e.g. http://127.0.0.1:6543, or its API URL ending in /api/0.1), --to DIR,
 * --mode test|_all_ (default: real assets, as the listing), --concurrency N (assets read at once, 8),
 * --poll-ms N (pause of the listing at its end, 10000).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';

interface Options {
  api: string;
  folder: string;
  mode: string | undefined;
  concurrency: number;
  pollMs: number;
}

interface MirrorState {
  from: string;
  mode: string | null;
  /** The last event id (a `dateModified`) whose asset is written; absent: from the start of the feed. */
  position?: string;
}

/** A change: the asset and the feed position after it. */
interface Change {
  id: string;
  position: string;
}

const API_PATH = '/api/0.1';
/** Longest wait after repeated 429s, and for a registry that cannot be reached. */
const MAX_BACKOFF_MS = 60_000;
/** A stream sends at least a comment every 15 s; four times that without a byte means the connection is dead. */
const STREAM_SILENCE_MS = 60_000;
/** 412s in a row before giving up on a request (each carries a fresh cookie, so one repeat should do). */
const MAX_PRECONDITION_REPEATS = 5;

const log = (text: string): void => void process.stderr.write(`[mirror] ${new Date().toISOString()} ${text}\n`);

function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  const from = value('from');
  const folder = value('to');
  if (from === undefined || folder === undefined) {
    throw new Error('usage: npm run mirror -- --from <registry url> --to <folder> [--mode test|_all_] [--concurrency N] [--poll-ms N]');
  }
  const base = from.replace(/\/+$/, '');
  return {
    api: base.endsWith(API_PATH) ? base : base + API_PATH,
    folder,
    mode: value('mode'),
    concurrency: Math.max(1, Number(value('concurrency') ?? 8)),
    pollMs: Math.max(10, Number(value('poll-ms') ?? 10_000)),
  };
}

/** One registry connection: the cookie jar and the rules of every request (412 repeat, 429 back-off). */
class Registry {
  private cookie: string | undefined;
  private readonly reads: Dispatcher = new Agent({ connections: 16, bodyTimeout: 60_000, headersTimeout: 60_000 });
  readonly streams: Dispatcher = new Agent({ bodyTimeout: STREAM_SILENCE_MS, headersTimeout: 60_000 });

  constructor(readonly api: string) {}

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

  /** GET `path` as JSON text: repeats on 412, backs off on 429 and on errors until it gets an answer. */
  async getText(path: string): Promise<{ status: number; text: string }> {
    let backoff = 1000;
    let preconditions = 0;
    for (;;) {
      try {
        const res = await request(this.api + path, { method: 'GET', headers: this.headers(), dispatcher: this.reads });
        this.keepCookie(res.headers);
        const text = await res.body.text();
        if (res.statusCode === 412 && ++preconditions <= MAX_PRECONDITION_REPEATS) continue;
        if (res.statusCode === 429 || res.statusCode >= 500) {
          const wait = Math.max(retryAfterMs(res.headers) ?? 0, backoff);
          log(`GET ${path} answered ${res.statusCode}; again in ${Math.round(wait / 1000)} s`);
          await sleep(wait);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
          continue;
        }
        return { status: res.statusCode, text };
      } catch (error) {
        log(`GET ${path} failed (${(error as Error).message}); again in ${Math.round(backoff / 1000)} s`);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }
}

function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
}

/** Server-Sent Events: the `id` and `data` of each event, from the text as it arrives. */
class EventParser {
  private buffer = '';
  private id: string | undefined;
  private data: string[] = [];
  retryMs: number | undefined;

  /** The events completed by this chunk. */
  push(chunk: string): { id: string | undefined; data: string }[] {
    const events: { id: string | undefined; data: string }[] = [];
    this.buffer += chunk;
    let match: RegExpExecArray | null;
    while ((match = /\r\n|\n|\r(?!$)/.exec(this.buffer)) !== null) {
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.data.length > 0) events.push({ id: this.id, data: this.data.join('\n') });
        this.data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'data') this.data.push(value);
        else if (name === 'id') this.id = value;
        else if (name === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
      }
    }
    return events;
  }
}

class Mirror {
  private readonly registry: Registry;
  private state: MirrorState;
  private readonly stateFile: string;
  private stopping = false;
  private written = 0;

  constructor(private readonly options: Options) {
    this.registry = new Registry(options.api);
    mkdirSync(options.folder, { recursive: true });
    this.stateFile = join(options.folder, '.mirror-state.json');
    this.state = this.readState();
  }

  stop(): void {
    this.stopping = true;
  }

  private readState(): MirrorState {
    const fresh: MirrorState = { from: this.options.api, mode: this.options.mode ?? null };
    let saved: MirrorState;
    try {
      saved = JSON.parse(readFileSync(this.stateFile, 'utf8')) as MirrorState;
    } catch {
      return fresh;
    }
    if (saved.from !== fresh.from || saved.mode !== fresh.mode) {
      throw new Error(`${this.stateFile} belongs to another registry or mode (${saved.from}, ${saved.mode ?? 'real'}); use another folder`);
    }
    return saved;
  }

  private saveState(position: string): void {
    this.state.position = position;
    writeAtomically(this.stateFile, `${JSON.stringify(this.state, null, 2)}\n`);
  }

  private query(extra: Record<string, string> = {}): string {
    const params = new URLSearchParams(extra);
    if (this.options.mode !== undefined) params.set('mode', this.options.mode);
    const text = params.toString();
    return text === '' ? '' : `?${text}`;
  }

  async run(): Promise<void> {
    log(`mirroring ${this.options.api} into ${this.options.folder}${this.state.position ? `, from ${this.state.position}` : ''}`);
    while (!this.stopping) {
      const outcome = await this.followStream();
      if (this.stopping) break;
      if (outcome === 'ended') continue;
      // No stream: the listing, from the same position, until it has nothing new; then the stream again.
      await this.followListing();
      if (!this.stopping) await this.pause(this.options.pollMs);
    }
    log(`stopped at ${this.state.position ?? 'the start of the feed'}; ${this.written} files written`);
  }

  private async pause(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (!this.stopping && Date.now() < until) await sleep(Math.min(100, until - Date.now()));
  }

  /**
   * Follows the stream until it ends ('ended': reconnect) or cannot be had ('unavailable': use the listing).
   * Repeats on 412 and backs off on 429 itself.
   */
  private async followStream(): Promise<'ended' | 'unavailable'> {
    let backoff = 1000;
    let preconditions = 0;
    for (;;) {
      if (this.stopping) return 'ended';
      const headers = this.registry.headers({ accept: 'text/event-stream' });
      if (this.state.position !== undefined) headers['last-event-id'] = this.state.position;
      let res: Dispatcher.ResponseData;
      try {
        res = await request(`${this.options.api}/assets/changes${this.query()}`, {
          method: 'GET',
          headers,
          dispatcher: this.registry.streams,
        });
      } catch (error) {
        log(`stream unavailable (${(error as Error).message})`);
        return 'unavailable';
      }
      this.registry.keepCookie(res.headers);
      if (res.statusCode === 412 && ++preconditions <= MAX_PRECONDITION_REPEATS) {
        await res.body.dump();
        continue;
      }
      if (res.statusCode === 429) {
        await res.body.dump();
        const wait = Math.max(retryAfterMs(res.headers) ?? 0, backoff);
        log(`stream answered 429; again in ${Math.round(wait / 1000)} s`);
        await this.pause(wait);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        log(`stream unavailable (${res.statusCode}); following the listing`);
        return 'unavailable';
      }
      log(`stream open${this.state.position ? ` after ${this.state.position}` : ''}`);
      const parser = new EventParser();
      await this.consume(res.body, parser);
      // Ended by the registry (a restart, a dropped slow client) or broken: reconnect as it asked.
      await this.pause(parser.retryMs ?? 1000);
      return 'ended';
    }
  }

  /** Reads the stream, writing the assets of its events in batches (the position moves after each batch). */
  private async consume(body: Dispatcher.ResponseData['body'], parser: EventParser): Promise<void> {
    body.setEncoding('utf8');
    const pending: Change[] = [];
    let working: Promise<void> = Promise.resolve();
    let busy = false;
    let failure: unknown;
    const work = (): void => {
      if (busy || pending.length === 0 || failure !== undefined) return;
      busy = true;
      const batch = pending.splice(0);
      working = this.apply(batch)
        .catch((error: unknown) => {
          // A file could not be written: stop here, the position stays before this batch.
          failure = error;
          body.destroy();
        })
        .finally(() => {
          busy = false;
          work();
        });
    };
    const ended = new Promise<void>((resolve) => {
      body.on('data', (chunk: string) => {
        for (const event of parser.push(chunk)) {
          const id = (JSON.parse(event.data) as { id?: unknown }).id;
          if (typeof id === 'string' && event.id !== undefined) pending.push({ id, position: event.id });
        }
        work();
        if (this.stopping) body.destroy();
      });
      body.on('end', () => resolve());
      body.on('error', () => resolve());
      body.on('close', () => resolve());
    });
    const stopWatch = setInterval(() => {
      if (this.stopping) body.destroy();
    }, 100);
    await ended;
    clearInterval(stopWatch);
    // What arrived before the end is still written.
    while (failure === undefined && (busy || pending.length > 0)) {
      await working;
      work();
    }
    if (failure !== undefined) throw failure;
  }

  /** Follows the listing from the position until a page comes back empty. */
  private async followListing(): Promise<void> {
    for (;;) {
      if (this.stopping) return;
      const page = await this.registry.getText(
        `/assets${this.query({ limit: '1000', ...(this.state.position ? { offset: this.state.position } : {}) })}`,
      );
      if (page.status !== 200) throw new Error(`the listing answered ${page.status}: ${page.text.slice(0, 300)}`);
      const data = (JSON.parse(page.text) as { data: { id: string; dateModified: string }[] }).data;
      if (data.length === 0) return;
      await this.apply(data.map((entry) => ({ id: entry.id, position: entry.dateModified })));
    }
  }

  /** Writes the latest JSON of the batch's assets (each once), then moves the position past the batch. */
  private async apply(batch: Change[]): Promise<void> {
    const ids = [...new Set(batch.map((change) => change.id))];
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const asset = await this.registry.getText(`/assets/${id}`);
        if (asset.status !== 200) {
          log(`asset ${id} answered ${asset.status}; skipped`);
          continue;
        }
        writeAtomically(join(this.options.folder, `${id}.json`), asset.text);
        this.written++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, ids.length) }, worker));
    this.saveState(batch[batch.length - 1]!.position);
  }
}

/** Written beside, then renamed over: a reader (or a crash) never sees half a file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

async function main(): Promise<void> {
  const mirror = new Mirror(parseOptions(process.argv.slice(2)));
  process.on('SIGINT', () => mirror.stop());
  process.on('SIGTERM', () => mirror.stop());
  await mirror.run();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
