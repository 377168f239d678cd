/**
 * `claimrights-registry mirror --from <registry> --to <folder>`: keeps a folder with the latest JSON of every listed asset of
 * a registry, `<folder>/<id>.json` as `GET /api/0.1/assets/{id}` answers it, within a second of each change.
 *
 * It follows the change stream (docs/decisions/0034-change-stream-is-the-feed-pushed.md) and, for every event, reads
 * the asset and writes its file; its position is written after the files of the events before it, so a mirror that
 * stops or crashes resumes there: an asset may be read twice, none is missed. Without the stream (a registry without
 * it, 503, a broken connection) it follows the listing from the same position, the event ids and the listing's
 * offsets being the same values, and tries the stream again whenever the listing has nothing new.
 *
 * With --log-vkey KEY (the registry's transparency log verifier key, obtained out of band) it verifies the log's
 * checkpoint at start, with every batch it writes and every --poll-ms: its signature, and its consistency with the
 * last checkpoint verified (kept in its state); a log that fails either is a rewritten or rolled-back history, and
 * the mirror stops with exit 3 (docs/decisions/0069-mirrors-verify-the-log.md).
 *
 * Options: --from URL (the registry, or its API URL ending in /api/0.1), --to DIR, --mode test|_all_ (default: real
 * assets, as the listing), --concurrency N (assets read at once, 8), --poll-ms N (pause at the listing's end, 10000),
 * --log-vkey KEY.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { splitArgs, UsageError } from './args.js';
import { EventParser } from './mirror/events.js';
import { LogRefusal, verifierOf, verifyLog } from './mirror/log.js';
import type { Verifier } from '../domain/log/note.js';
import { MirrorFolder, type MirrorState } from './mirror/folder.js';
import { MAX_BACKOFF_MS, MAX_PRECONDITION_REPEATS, Registry, retryAfterMs } from './mirror/registry.js';

interface Options {
  api: string;
  folder: string;
  mode: string | undefined;
  concurrency: number;
  pollMs: number;
  logVkey: string | undefined;
}

/** A change: the asset and the feed position after it. */
interface Change {
  id: string;
  position: string;
}

const API_PATH = '/api/0.1';

const log = (text: string): void => void process.stderr.write(`[mirror] ${new Date().toISOString()} ${text}\n`);

const USAGE =
  'usage: claimrights-registry mirror --from <registry url> --to <folder> [--mode test|_all_] [--concurrency N] [--poll-ms N] [--log-vkey KEY]';

const HELP = `${USAGE}

Keeps <folder>/<id>.json, the latest JSON of every listed asset of a registry, within a second of each change;
stopped (SIGINT, SIGTERM) or crashed, it resumes where it was.

  --from URL         the registry, or its API URL ending in /api/0.1
  --to DIR           the folder (created when missing; its .mirror-state.json keeps the position)
  --mode MODE        test or _all_ (default: real assets, as the listing)
  --concurrency N    assets read at once (default 8)
  --poll-ms N        pause at the listing's end, and between checks of the log (default 10000)
  --log-vkey KEY     the transparency log's verifier key: verify every checkpoint; a rewritten or rolled-back log
                     stops the mirror with exit 3

Exit 0: stopped by a signal; 1: failed; 2: called wrongly; 3: the log failed a check.
`;

const OWN_FLAGS = ['from', 'to', 'mode', 'concurrency', 'poll-ms', 'log-vkey'];

function parseOptions(argv: readonly string[]): Options | undefined {
  const args = splitArgs(argv, OWN_FLAGS);
  if (args.help) return undefined;
  if (args.settings.length > 0) throw new UsageError(`unknown flag ${args.settings[0]} (see --help)`);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (see --help)`);
  const { from, to: folder } = args.own;
  if (from === undefined || folder === undefined) throw new UsageError(USAGE);
  const base = from.replace(/\/+$/, '');
  return {
    api: base.endsWith(API_PATH) ? base : base + API_PATH,
    folder,
    mode: args.own.mode,
    concurrency: Math.max(1, Number(args.own.concurrency ?? 8)),
    pollMs: Math.max(10, Number(args.own['poll-ms'] ?? 10_000)),
    logVkey: args.own['log-vkey'],
  };
}

class Mirror {
  private readonly registry: Registry;
  private readonly folder: MirrorFolder;
  private state: MirrorState;
  private stopping = false;
  private written = 0;
  private readonly verifier: Verifier | undefined;
  /** Set when the log failed a check: the mirror stops and exits 3. */
  refusal: LogRefusal | undefined;
  private checkingLog: Promise<void> = Promise.resolve();

  constructor(private readonly options: Options) {
    this.registry = new Registry(options.api, log);
    this.folder = new MirrorFolder(options.folder);
    this.state = this.folder.readState({ from: options.api, mode: options.mode ?? null });
    this.verifier = options.logVkey === undefined ? undefined : verifierOf(options.logVkey);
  }

  /** One check at a time; a refusal stops the mirror before its position moves past what it verified. */
  private checkLog(): Promise<void> {
    const verifier = this.verifier;
    if (verifier === undefined || this.refusal !== undefined) return Promise.resolve();
    this.checkingLog = this.checkingLog.then(async () => {
      try {
        this.state.log = await verifyLog(this.registry, verifier, this.state.log);
        this.folder.saveState(this.state);
      } catch (error) {
        if (!(error instanceof LogRefusal)) throw error;
        this.refusal = error;
        this.stop();
      }
    });
    return this.checkingLog;
  }

  stop(): void {
    this.stopping = true;
  }

  private saveState(position: string): void {
    this.state.position = position;
    this.folder.saveState(this.state);
  }

  private query(extra: Record<string, string> = {}): string {
    const params = new URLSearchParams(extra);
    if (this.options.mode !== undefined) params.set('mode', this.options.mode);
    const text = params.toString();
    return text === '' ? '' : `?${text}`;
  }

  async run(): Promise<void> {
    log(
      `mirroring ${this.options.api} into ${this.options.folder}${this.state.position ? `, from ${this.state.position}` : ''}`,
    );
    await this.checkLog();
    const logTimer = setInterval(() => void this.checkLog().catch(() => undefined), this.options.pollMs);
    try {
      await this.follow();
    } finally {
      clearInterval(logTimer);
    }
    log(`stopped at ${this.state.position ?? 'the start of the feed'}; ${this.written} files written`);
  }

  private async follow(): Promise<void> {
    while (!this.stopping) {
      const outcome = await this.followStream();
      if (this.stopping) break;
      if (outcome === 'ended') continue;
      // No stream: the listing, from the same position, until it has nothing new; then the stream again.
      await this.followListing();
      if (!this.stopping) await this.pause(this.options.pollMs);
    }
  }

  private async pause(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (!this.stopping && Date.now() < until) await sleep(Math.min(100, until - Date.now()));
  }

  /** Until the stream ends ('ended': reconnect) or cannot be had ('unavailable': use the listing). */
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
    // Nothing of a log that fails its check is written.
    await this.checkLog();
    if (this.refusal !== undefined) return;
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
        this.folder.writeAsset(id, asset.text);
        this.written++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, ids.length) }, worker));
    this.saveState(batch[batch.length - 1]!.position);
  }
}

export async function mirrorCommand(argv: readonly string[]): Promise<number> {
  let options: Options | undefined;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mirror: ${error.message}\n`);
    return 2;
  }
  if (options === undefined) {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    const mirror = new Mirror(options);
    process.on('SIGINT', () => mirror.stop());
    process.on('SIGTERM', () => mirror.stop());
    await mirror.run();
    if (mirror.refusal === undefined) return 0;
    log(`refused: ${mirror.refusal.message}`);
    return 3;
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
