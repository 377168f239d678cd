/**
 * The transparency log's storage interface, the same on both engines (docs/decisions/0066-log-order-and-integration.md).
 * Writes put their revisions in the log's order as they commit; the integrator (services/log/) appends them to the
 * tree, one node at a time; everything here is read by any node.
 */
import type { TileWrite } from '../domain/log/merkle.js';

/** What the log has published: its latest checkpoint (a signed note) and the verifier key the log was started with. */
export interface LogHead {
  size: number;
  /** The RFC 6962 root at `size`; absent before the first checkpoint. */
  root?: Buffer;
  checkpoint?: string;
  /** The verifier key of the node that started the log (`<origin>+<id>+<key>`): every checkpoint is signed with it. */
  vkey?: string;
}

/** Entries committed but not yet in the tree, from index `size` on, in the log's order. */
export interface LogBatch {
  size: number;
  entries: Buffer[];
  /**
   * Stores the tiles and publishes the checkpoint at `size + entries.length`, atomically where the store can; false
   * (nothing published) when the log is no longer at `size` (another node integrated first).
   */
  append(tiles: readonly TileWrite[], root: Buffer, checkpoint: string): Promise<boolean>;
}

/**
 * Where another thread opens the same log again (`openLogSource`): on SQLite the integrator runs in a thread of its
 * own (docs/decisions/0079-the-integrator-runs-in-a-thread-of-its-own.md).
 */
export interface LogSource {
  engine: 'sqlite';
  file: string;
}

export interface LogStore {
  head(): Promise<LogHead>;
  /** Sets the log's verifier key if it has none; answers the key the log has. */
  claimKey(vkey: string): Promise<string>;
  /** Publishes the first checkpoint (the empty tree); false when the log already has one. */
  start(root: Buffer, checkpoint: string): Promise<boolean>;
  /**
   * Holds or renews the integrator's lease for `holder` until `ms` from now; false while another holder's lease runs.
   * The lease only spares work: `append` is what keeps two integrators from publishing different trees.
   */
  lead(holder: string, ms: number): Promise<boolean>;
  /** At most `max` entries after the head; `undefined` when none is waiting. */
  next(max: number): Promise<LogBatch | undefined>;
  /** The hashes stored in tile `index` of `level` (up to 256 of 32 bytes; more than a checkpoint may cover). */
  tile(level: number, index: number): Promise<Buffer | undefined>;
  /** The entries `from` … `to` - 1, those integrated only. */
  entries(from: number, to: number): Promise<Buffer[]>;
  /** The log index of each revision `after` < rev ≤ `upTo` of an asset whose entry is integrated. */
  indexes(asset: string, after: number, upTo: number): Promise<Map<number, number>>;
}
