/**
 * The integrator (docs/decisions/0066-log-order-and-integration.md): on the node holding the log's lease, every
 * INTERVAL_MS, it takes the entries committed since the last checkpoint, appends their hashes to the tiles, and signs
 * and publishes the next checkpoint. None of it runs on a write's path: a write only stores its revision's place
 * (on SQLite with its entry: docs/decisions/0071-sqlite-writes-carry-their-log-entry.md). On SQLite it runs in a thread
 * of its own (integrator-thread.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  appendLeaves,
  EMPTY_ROOT,
  leafHash,
  levelCount,
  rootFromEdge,
  splitHashes,
  TILE_WIDTH,
  type TreeEdge,
} from '../../domain/log/merkle.js';
import { checkpointText, signNote } from '../../domain/log/note.js';
import type { LogStore } from '../../store/log.js';
import type { LogIdentity } from './identity.js';

/** Well inside the 2 s within which a revision must be in a checkpoint. */
const INTERVAL_MS = 100;
/** Short: a node that dies holding it delays the next checkpoint by at most this much. */
const LEASE_MS = 1_500;
/** Entries per checkpoint at most: a backlog (a first start on a large store) is integrated in steps. */
const BATCH = 4096;
/** Leaf hashes per slice, with a turn of the event loop between slices. */
const HASH_SLICE = 512;

export interface IntegratorLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** The last tile of each level with hashes, as much of it as a tree of `size` holds. */
async function readEdge(store: LogStore, size: number): Promise<TreeEdge> {
  const edge: TreeEdge = [];
  for (let level = 0; levelCount(level, size) > 0; level++) {
    const count = levelCount(level, size) % TILE_WIDTH;
    const index = Math.floor(levelCount(level, size) / TILE_WIDTH);
    const stored = count === 0 ? Buffer.alloc(0) : await store.tile(level, index);
    if (stored === undefined || stored.length < count * 32)
      throw new Error(`the log's tile ${level}/${index} misses hashes`);
    edge.push(splitHashes(stored.subarray(0, count * 32)));
  }
  return edge;
}

export class LogIntegrator {
  private readonly holder = `${randomBytes(8).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** `undefined` until the log's key is known; false on a node whose key is not the log's. */
  private signs: boolean | undefined;
  /** The failed passes since the last that went through, and the kinds of failure logged meanwhile. */
  private failures = 0;
  private readonly failureKinds = new Set<string>();
  /** The tree this integrator last published: extended from memory while the log is still there. */
  private published: { size: number; root: Buffer; edge: TreeEdge } | undefined;

  constructor(
    private readonly store: LogStore,
    private readonly identity: LogIdentity,
    private readonly log: IntegratorLog,
  ) {}

  /** Resolves after the first pass: a node that starts a log serves its first checkpoint at once. */
  async start(): Promise<void> {
    this.running = this.passLogged().then((more) => this.schedule(more ? 0 : INTERVAL_MS));
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.passLogged().then((more) => this.schedule(more ? 0 : INTERVAL_MS));
    }, ms);
  }

  private passLogged(): Promise<boolean> {
    return this.pass().then(
      (more) => {
        if (this.failures > 0) {
          this.log.info({ failedPasses: this.failures }, 'the transparency log is integrated again');
        }
        this.failures = 0;
        this.failureKinds.clear();
        return more;
      },
      (error: unknown) => {
        // Each kind of failure once per spell of them: the store may be away for a while.
        const kind = error instanceof Error ? error.message : String(error);
        if (!this.failureKinds.has(kind))
          this.log.error({ err: error }, 'the transparency log could not be integrated');
        this.failureKinds.add(kind);
        this.failures++;
        return false;
      },
    );
  }

  /** True when entries are still waiting (a batch was full). */
  private async pass(): Promise<boolean> {
    if (this.signs === undefined) {
      const logKey = await this.store.claimKey(this.identity.vkey);
      this.signs = logKey === this.identity.vkey;
      if (!this.signs) {
        this.log.error(
          { logKey, nodeKey: this.identity.vkey },
          "this node's transparency log key is not the log's: it does not sign, and serves the log as the nodes with the log's key sign it",
        );
      }
    }
    if (!this.signs || !(await this.store.lead(this.holder, LEASE_MS))) return false;
    const head = await this.store.head();
    if (head.checkpoint === undefined) {
      if (head.size === 0) await this.store.start(EMPTY_ROOT, this.sign(0, EMPTY_ROOT));
      return false;
    }
    const batch = await this.store.next(BATCH);
    if (batch === undefined || batch.size !== head.size) return false;
    const edge = await this.edgeOf(batch.size, head.root);
    const size = batch.size + batch.entries.length;
    const leaves: Buffer[] = [];
    for (const [i, entry] of batch.entries.entries()) {
      if (i > 0 && i % HASH_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      leaves.push(leafHash(entry));
    }
    const appended = appendLeaves(edge, batch.size, leaves);
    const root = rootFromEdge(appended.edge, size);
    const published = await batch.append(appended.tiles, root, this.sign(size, root));
    this.published = published ? { size, root, edge: appended.edge } : undefined;
    return published && batch.entries.length === BATCH;
  }

  /** The right edge of the published tree: from memory if this integrator published it, else from the tiles. */
  private async edgeOf(size: number, root: Buffer | undefined): Promise<TreeEdge> {
    const { published } = this;
    if (published?.size === size && root?.equals(published.root)) return published.edge;
    const edge = await readEdge(this.store, size);
    // The tiles must give the published root: never extend a tree that is not the one signed.
    if (root === undefined || !rootFromEdge(edge, size).equals(root)) {
      throw new Error(`the log's tiles do not give the root of its checkpoint at size ${size}`);
    }
    return edge;
  }

  private sign(size: number, root: Buffer): string {
    const { origin, privateKey } = this.identity;
    return signNote(checkpointText({ origin, size, root }), origin, privateKey);
  }
}
