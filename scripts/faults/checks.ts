/**
 * What §19 asks after every fault and its repair, checked over HTTP against what the writers were told: every
 * acknowledged write readable with its revision (and its log entry: `checkLogEntry`), the feed listing every asset
 * once and in order, every change stream complete, no 500, every refusal a 503 with Retry-After (or a 408) in the
 * error envelope, and every refused write not applied or applied whole.
 */
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { request } from 'undici';
import { tileIndexPath } from '../../src/domain/log/tile-paths.js';
import { toMicros } from '../../test/reliability/fixtures/common.js';
import type { FollowerResult, StreamFollower } from '../../test/reliability/fixtures/stream-follower.js';
import type { Asset, Attempt, Load } from './load.js';
import { API, sleep } from './nodes.js';

interface Change {
  op: string;
  path: string;
  value?: unknown;
}

interface Revision {
  rev: number;
  date: string;
  author: string;
  changes: Change[];
  /** The index of its entry in the transparency log, once integrated. */
  logIndex?: number;
}

export interface Verdict {
  acknowledged: number;
  lost: number;
  refused: number;
  /** Every broken rule, one line each (empty: the scenario passed). */
  violations: string[];
}

async function get(url: string): Promise<{ status: number; bytes: Buffer }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await request(url, { headersTimeout: 30_000, bodyTimeout: 30_000 });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      // The store may refuse for a moment after a repair: read again (a read changes nothing).
      if (res.statusCode === 503 && attempt < 30) {
        await sleep(1000);
        continue;
      }
      return { status: res.statusCode, bytes };
    } catch (error) {
      if (attempt >= 30) throw error;
      await sleep(1000);
    }
  }
}

async function getJson(url: string): Promise<{ status: number; json: any }> {
  const { status, bytes } = await get(url);
  return { status, json: bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined };
}

/**
 * The log of one scenario's registry as its checks read it: the tiles and entry bundles read so far (a full tile
 * never changes, a partial one is named by its width) and the size of the latest checkpoint read. One per check:
 * each scenario starts a new registry with a log of its own.
 */
class LogView {
  private readonly tiles = new Map<string, Promise<Buffer>>();
  size = 0;
  /** Revisions found without `logIndex`: looked at again after the streams' wait (`checkUnlogged`). */
  readonly unlogged: { asset: string; rev: number }[] = [];

  constructor(readonly base: string) {}

  /** Tile `index` of `kind` (`0` or `entries`) as the latest checkpoint read covers it. */
  tile(kind: string, index: number): Promise<Buffer> {
    const width = Math.min(256, this.size - index * 256);
    const path = `${API}/log/tile/${kind}/${tileIndexPath(index)}${width === 256 ? '' : `.p/${width}`}`;
    let tile = this.tiles.get(path);
    if (tile === undefined) {
      tile = get(this.base + path).then(({ status, bytes }) => {
        if (status !== 200) throw new Error(`${path}: ${status}`);
        return bytes;
      });
      this.tiles.set(path, tile);
    }
    return tile;
  }

  /** Reads the latest checkpoint's size. */
  async refresh(): Promise<void> {
    const checkpoint = await get(`${this.base}${API}/log/checkpoint`);
    this.size = Number(checkpoint.bytes.toString('utf8').split('\n')[1]);
  }
}

/** The entry at `position` of an entry bundle (each entry after its length in two bytes). */
function bundleEntry(bundle: Buffer, position: number): Buffer | undefined {
  let at = 0;
  for (let i = 0; at + 2 <= bundle.length; i++) {
    const length = bundle.readUInt16BE(at);
    if (i === position) return bundle.subarray(at + 2, at + 2 + length);
    at += 2 + length;
  }
  return undefined;
}

/**
 * The transparency log's entry of an acknowledged write (§17): once integrated, the revision carries `logIndex`, the
 * entry bundle holds at that index the JCS entry rebuilt here from the revision as served, and the level-0 hash tile
 * holds its leaf hash. Rebuilt with the `canonicalize` package, not the registry's code. Called for every
 * acknowledged write with the asset and the revision it made.
 */
async function checkLogEntry(
  log: LogView,
  asset: Asset,
  served: Revision,
  deadline: number,
  write: string,
): Promise<string | undefined> {
  let revision = served;
  while (revision.logIndex === undefined && Date.now() < deadline) {
    await sleep(250);
    revision = (await history(log.base, asset.id)).find((r) => r.rev === served.rev) ?? revision;
  }
  const where = `revision ${served.rev} of ${asset.id}`;
  const index = revision.logIndex;
  if (index === undefined) {
    await log.refresh();
    log.unlogged.push({ asset: asset.id, rev: served.rev });
    return `log: ${where} has no logIndex when the checks' wait for the log ended (checkpoint size ${log.size}; ${write})`;
  }
  if (index >= log.size) {
    await log.refresh();
    if (index >= log.size) return `log: ${where} has logIndex ${index}, past the checkpoint's size ${log.size}`;
  }
  const { rev, date, author, changes } = revision;
  const digest = hash('sha256', canonicalize(changes)!, 'hex');
  const entry = Buffer.from(canonicalize({ asset: asset.id, rev, date, author, changes: digest })!, 'utf8');
  const tile = Math.floor(index / 256);
  const logged = bundleEntry(await log.tile('entries', tile), index % 256);
  if (logged === undefined || !logged.equals(entry)) {
    return `log: entry ${index} is ${logged?.toString('utf8')}, ${where} makes ${entry.toString('utf8')}`;
  }
  const leaf = hash('sha256', Buffer.concat([Buffer.from([0]), entry]), 'buffer');
  const hashes = await log.tile('0', tile);
  const stored = hashes.subarray((index % 256) * 32, (index % 256) * 32 + 32);
  return stored.equals(leaf) ? undefined : `log: the leaf hash of entry ${index} (${where}) is not the entry's`;
}

/**
 * Which write made an asset's version, and when (s since the load began): for a version found missing. An edit
 * refused but applied whole is found by the value it set.
 */
function writeOf(load: Load, id: string, version: Revision | string | undefined): string {
  const start = load.attempts[0]?.sentAt ?? 0;
  const date = typeof version === 'object' ? version.date : version;
  const marker = typeof version === 'object' ? setValues(version).title : undefined;
  const write =
    load.attempts.find((a) => a.id === id && a.dateModified === date) ??
    load.attempts.find((a) => a.id === id && a.kind === 'edit' && a.marker === marker);
  if (write === undefined) return `${date} made by no write of the load`;
  const at = (ms: number) => `+${((ms - start) / 1000).toFixed(1)}s`;
  return `${date}: ${write.kind} ${write.marker} on ${write.node}, sent ${at(write.sentAt)}, answered ${write.status} ${at(write.answeredAt)}`;
}

/** The revisions found without `logIndex`, once more after the streams' wait: late, or never logged. */
async function checkUnlogged(log: LogView, violations: string[]): Promise<void> {
  for (const { asset, rev } of log.unlogged) {
    const revision = (await history(log.base, asset)).find((r) => r.rev === rev);
    violations.push(
      revision?.logIndex === undefined
        ? `log: revision ${rev} of ${asset} has still no logIndex after the streams' wait`
        : `log: revision ${rev} of ${asset} has logIndex ${revision.logIndex} after the streams' wait: integrated late`,
    );
  }
}

async function history(base: string, id: string): Promise<Revision[]> {
  const revisions: Revision[] = [];
  let path = `${API}/assets/${id}/revisions?limit=1000`;
  for (;;) {
    const { status, json } = await getJson(base + path);
    if (status !== 200) throw new Error(`history of ${id}: ${status}`);
    revisions.push(...(json.data as Revision[]));
    if (json.data.length === 0) return revisions;
    path = json.next_page.path;
  }
}

/** The values a revision set `/title` and `/description` to. */
function setValues(revision: Revision): { title?: unknown; description?: unknown } {
  const out: { title?: unknown; description?: unknown } = {};
  for (const change of revision.changes) {
    if (change.path === '/title' && change.op !== 'remove') out.title = change.value;
    if (change.path === '/description' && change.op !== 'remove') out.description = change.value;
  }
  return out;
}

const ok = (attempt: Attempt) => attempt.status >= 200 && attempt.status < 300;

/** The answers: no 500, every refusal in the envelope, 503 with Retry-After or 408, each within the bound. */
function checkAnswers(attempts: Attempt[], limitMs: number, excused: (attempt: Attempt) => boolean): string[] {
  const violations: string[] = [];
  const count = (what: string, list: Attempt[]) => {
    if (list.length > 0) violations.push(`${list.length} ${what}, e.g. ${JSON.stringify(list[0])}`);
  };
  count(
    'answers 500 or above but 503',
    attempts.filter((a) => a.status >= 500 && a.status !== 503),
  );
  count(
    'refusals other than 503 with Retry-After or 408',
    attempts.filter((a) => a.status >= 300 && !((a.status === 503 && a.retryAfter !== undefined) || a.status === 408)),
  );
  count(
    'refusals outside the error envelope',
    attempts.filter((a) => a.status >= 400 && !a.envelope),
  );
  count(
    'requests never answered',
    attempts.filter((a) => a.status === 0 && !excused(a)),
  );
  count(
    `answers later than ${limitMs} ms`,
    attempts.filter((a) => a.status !== 0 && a.answeredAt - a.sentAt > limitMs && !excused(a)),
  );
  return violations;
}

/** Every asset's history against the writers' attempts. */
async function checkAssets(
  base: string,
  load: Load,
  violations: string[],
  logWaitMs: number,
): Promise<{ lost: number; finals: Map<string, string>; log: LogView }> {
  const logDeadline = Date.now() + logWaitMs;
  let lost = 0;
  const finals = new Map<string, string>();
  const log = new LogView(base);
  const byAsset = new Map<string, Attempt[]>();
  for (const attempt of load.attempts) {
    if (attempt.id === undefined || attempt.kind === 'create') continue;
    byAsset.set(attempt.id, [...(byAsset.get(attempt.id) ?? []), attempt]);
  }
  for (const asset of load.assets.values()) {
    const served = await getJson(`${base}${API}/assets/${asset.id}`);
    if (served.status !== 200) {
      lost++;
      violations.push(`asset ${asset.id} (created, acknowledged) answers ${served.status}`);
      continue;
    }
    const revisions = await history(base, asset.id);
    const dates = new Map(revisions.map((revision) => [revision.date, revision]));
    const last = revisions.at(-1);
    finals.set(asset.id, served.json.data.dateModified);
    if (last?.date !== served.json.data.dateModified) {
      violations.push(
        `asset ${asset.id}: last revision ${last?.date} is not its dateModified ${served.json.data.dateModified}`,
      );
    }
    const create = load.attempts.find((a) => a.kind === 'create' && a.id === asset.id);
    const acked = [...(create ? [create] : []), ...(byAsset.get(asset.id) ?? []).filter(ok)];
    for (const attempt of acked) {
      const revision = attempt.dateModified === undefined ? undefined : dates.get(attempt.dateModified);
      if (revision === undefined) {
        lost++;
        violations.push(
          `lost: ${attempt.kind} ${attempt.marker} of ${asset.id} acknowledged at ${attempt.dateModified}, no such revision`,
        );
        continue;
      }
      if (attempt.kind === 'edit') {
        const set = setValues(revision);
        if (set.title !== attempt.marker || set.description !== attempt.marker) {
          lost++;
          violations.push(`lost: edit ${attempt.marker} of ${asset.id}: its revision sets ${JSON.stringify(set)}`);
        }
      }
    }
    // Every revision, acknowledged or not (a refused write may have been applied whole): the log holds all (§17).
    for (const revision of revisions) {
      const logProblem = await checkLogEntry(log, asset, revision, logDeadline, writeOf(load, asset.id, revision));
      if (logProblem) violations.push(logProblem);
    }
    // Refused edits: not applied, or applied whole, and never twice.
    for (const attempt of (byAsset.get(asset.id) ?? []).filter((a) => a.kind === 'edit')) {
      const applied = revisions.filter((revision) => {
        const set = setValues(revision);
        return set.title === attempt.marker || set.description === attempt.marker;
      });
      if (applied.length > 1) violations.push(`edit ${attempt.marker} of ${asset.id} applied ${applied.length} times`);
      for (const revision of applied) {
        const set = setValues(revision);
        if (set.title !== attempt.marker || set.description !== attempt.marker) {
          violations.push(`edit ${attempt.marker} of ${asset.id} applied in part: ${JSON.stringify(set)}`);
        }
      }
    }
  }
  return { lost, finals, log };
}

/** The whole feed, once: every listed asset exactly once, ascending, at its final dateModified. */
async function checkFeed(base: string, load: Load, finals: Map<string, string>, violations: string[]): Promise<void> {
  const seen = new Map<string, string>();
  let previous = '';
  let previousMicros = -Infinity;
  let path = `${API}/assets?limit=1000`;
  for (;;) {
    const { status, json } = await getJson(base + path);
    if (status !== 200) throw new Error(`feed: ${status}`);
    for (const entry of json.data as { id: string; dateModified: string }[]) {
      if (seen.has(entry.id)) violations.push(`feed lists ${entry.id} twice`);
      const micros = toMicros(entry.dateModified);
      if (!(micros > previousMicros)) violations.push(`feed out of order: ${entry.dateModified} after ${previous}`);
      previous = entry.dateModified;
      previousMicros = micros;
      seen.set(entry.id, entry.dateModified);
    }
    if (json.data.length === 0) break;
    path = json.next_page.path;
  }
  for (const asset of load.assets.values()) {
    if (!asset.listed) continue;
    const listed = seen.get(asset.id);
    if (listed === undefined) violations.push(`feed misses listed asset ${asset.id}`);
    else if (listed !== finals.get(asset.id)) {
      violations.push(`feed lists ${asset.id} at ${listed}, the asset is at ${finals.get(asset.id)}`);
    }
  }
}

/** Waits (up to `waitMs`) until each follower has every listed asset's final version, then checks them. */
async function checkStreams(
  followers: StreamFollower[],
  load: Load,
  finals: Map<string, string>,
  waitMs: number,
  violations: string[],
): Promise<void> {
  const listed = [...load.assets.values()].filter((asset) => asset.listed);
  const missing = (follower: StreamFollower) =>
    listed.filter((asset) => follower.lastSeen.get(asset.id) !== finals.get(asset.id));
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && followers.some((follower) => missing(follower).length > 0)) await sleep(250);
  const results: FollowerResult[] = [];
  const stillMissing = followers.map(missing);
  for (const follower of followers) results.push(await follower.stop());
  results.forEach((result, i) => {
    const misses = stillMissing[i]!;
    if (misses.length > 0) {
      const id = misses[0]!.id;
      violations.push(
        `stream ${i} missed the final version of ${misses.length} assets, e.g. ${id} (its last event ${followers[i]!.lastSeen.get(id) ?? 'none'}; final ${writeOf(load, id, finals.get(id))})`,
      );
    }
    if (result.duplicates > 0) violations.push(`stream ${i}: ${result.duplicates} duplicates`);
    if (result.outOfOrder > 0) violations.push(`stream ${i}: ${result.outOfOrder} events out of order`);
    if (result.broken.length > 0) violations.push(`stream ${i}: broken events, e.g. ${result.broken[0]}`);
  });
}

export interface CheckOptions {
  base: string;
  load: Load;
  followers: StreamFollower[];
  requestTimeoutMs: number;
  /** Requests a scenario cannot have answered in time (sent to a node while it was stopped). */
  excused?: (attempt: Attempt) => boolean;
  /**
   * How long the streams, and the log, may take to catch up after the load. Within 2 s of a write its entry is in a
   * checkpoint (§17), but after a fault that left writes' outcomes unknown the log, like the feed, waits for their
   * leases to end (docs/decisions/0074-mongodb-writes-bounded-and-sent-once.md).
   */
  streamWaitMs: number;
}

export async function checkAll(options: CheckOptions): Promise<Verdict> {
  const { base, load, followers } = options;
  const violations = checkAnswers(load.attempts, options.requestTimeoutMs, options.excused ?? (() => false));
  const { lost, finals, log } = await checkAssets(base, load, violations, options.streamWaitMs);
  // The streams first: they wait for the writes whose outcome the fault left unknown (their leases run out).
  await checkStreams(followers, load, finals, options.streamWaitMs, violations);
  await checkUnlogged(log, violations);
  await checkFeed(base, load, finals, violations);
  return {
    acknowledged: load.acknowledged(),
    lost,
    refused: load.attempts.filter((attempt) => !ok(attempt)).length,
    violations,
  };
}
