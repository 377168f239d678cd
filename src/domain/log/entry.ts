/**
 * A log entry: the UTF-8 bytes of the JCS (RFC 8785) serialisation of a revision with its changes by digest
 * (docs/decisions/0065-transparency-log-entries-and-tree.md). JCS is the `canonicalize` package, by the RFC's author,
 * through a faster path that writes the same bytes (docs/decisions/0072-jcs-by-sorted-copy.md).
 */
import { hash } from 'node:crypto';
import type { Revision } from '../history.js';
import { jcs } from './jcs.js';

/** Hex SHA-256 of the JCS serialisation of a revision's changes; `written` as `jcs` takes it. */
function changesDigest(changes: Revision['changes'], written: Buffer | undefined): string {
  return hash('sha256', jcs(changes, written), 'hex');
}

/** An entry bundle holds each entry after its length in two bytes: no entry may be longer. */
const MAX_ENTRY_BYTES = 0xffff;

/** Entries per slice of `logEntries`: a few milliseconds of work. */
const SLICE = 256;

/**
 * The entries of many revisions, a slice at a time with a turn of the event loop between slices: a backlog (the
 * first start on a large store, an import) is written into the log without stalling the requests a node serves.
 */
export async function logEntries(revisions: readonly { asset: string; revision: Revision }[]): Promise<Buffer[]> {
  const entries: Buffer[] = [];
  for (const [i, { asset, revision }] of revisions.entries()) {
    if (i > 0 && i % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    entries.push(logEntry(asset, revision));
  }
  return entries;
}

/** `changesText`, where the caller has it, is the UTF-8 of `JSON.stringify(revision.changes)`. */
export function logEntry(asset: string, revision: Revision, changesText?: Buffer): Buffer {
  const { rev, date, author, changes } = revision;
  // Its members in JCS order: the entry is written, not copied first.
  const entry = Buffer.from(jcs({ asset, author, changes: changesDigest(changes, changesText), date, rev }), 'utf8');
  if (entry.length > MAX_ENTRY_BYTES) throw new Error(`revision ${rev} of ${asset} makes a log entry over 64 KiB`);
  return entry;
}
