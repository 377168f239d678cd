/**
 * Large field values as bytes shared by every group and stream that holds them
 * (docs/decisions/0061-one-copy-of-an-event.md): a value read for many `opt_fields` is held, and written, once.
 */
import type { EventRow } from '../../domain/changes.js';
import type { ListedRow } from '../../domain/listing.js';

/** Smaller values are cheaper copied than looked up (and would share Node's buffer pool). */
const SHARED_FROM = 4096;

export class SharedValues {
  /** By row version and field: a version's value never changes. Weak: held as long as someone sends or keeps it. */
  private readonly kept = new Map<string, WeakRef<Buffer>>();
  private readonly collected = new FinalizationRegistry<string>((key) => {
    if (this.kept.get(key)?.deref() === undefined) this.kept.delete(key);
  });

  rows(rows: readonly ListedRow[], fields: readonly string[]): EventRow[] {
    return rows.map((row) => {
      const event: EventRow = { id: row.id, modified: row.modified, dateModified: row.dateModified };
      if (row.fields !== undefined) {
        event.values = row.fields.map((text, i) =>
          text === undefined || text.length < SHARED_FROM
            ? text
            : this.bytes(`${row.modified}/${row.id}/${fields[i]}`, text),
        );
      }
      return event;
    });
  }

  private bytes(key: string, text: string): Buffer {
    const kept = this.kept.get(key)?.deref();
    if (kept !== undefined) return kept;
    const bytes = Buffer.from(text);
    this.kept.set(key, new WeakRef(bytes));
    this.collected.register(bytes, key);
    return bytes;
  }
}

/** Bytes a row takes, roughly: what a page of them is weighed by. */
export function rowBytes(row: EventRow): number {
  let bytes = 100;
  for (const value of row.values ?? []) bytes += value?.length ?? 0;
  return bytes;
}
