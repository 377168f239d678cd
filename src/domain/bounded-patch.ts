/**
 * The original's reverse patches applied under bounds (docs/decisions/0063-import-reads-hostile-input-safely.md): the
 * version's size is checked operation by operation as it grows, so that a `copy` which doubles the document is
 * refused before it is built, not measured after.
 */
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import type { JsonValue } from './json.js';

const { applyOperation, deepClone, getValueByPointer } = fastJsonPatch;

/** More in one revision ends its asset's rebuilding (spec §16). */
export const MAX_OPERATIONS = 1000;

/**
 * The size of `value` as JSON, in bytes (escapes left out), walked without recursion and no further than `budget`:
 * past it, Infinity.
 */
export function jsonSize(value: unknown, budget = Number.POSITIVE_INFINITY): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += Buffer.byteLength(item) + 2;
    else if (Array.isArray(item)) {
      size += item.length + 1;
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      size += keys.length + 1;
      for (const key of keys) {
        size += Buffer.byteLength(key) + 3;
        stack.push((item as Record<string, unknown>)[key]);
      }
    } else size += String(item).length;
    if (size > budget) return Number.POSITIVE_INFINITY;
  }
  return size;
}

/** The version a patch rebuilds would pass the limit. */
export class VersionTooLarge extends Error {
  constructor(limit: number) {
    super(`the version it rebuilds would be larger than ${limit} bytes`);
    this.name = 'VersionTooLarge';
  }
}

/** What an operation can add to a document, at most (a `copy`'s value counted no further than `budget`). */
function growthOf(document: JsonValue, operation: Operation, budget: number): number {
  const path = Buffer.byteLength(operation.path) + 3;
  switch (operation.op) {
    case 'add':
    case 'replace':
      return path + jsonSize(operation.value);
    case 'copy':
      return path + jsonSize(getValueByPointer(document, operation.from), budget);
    case 'move':
      return path;
    default:
      return 0;
  }
}

/**
 * `operations` applied to a copy of `version` (of `size` bytes, within `limit`): the new document and its size.
 * Throws VersionTooLarge as soon as it would pass `limit`, or fast-json-patch's error when an operation does not apply.
 */
export function applyBounded(
  version: JsonValue,
  size: number,
  operations: readonly Operation[],
  limit: number,
): { document: JsonValue; size: number } {
  let document = deepClone(version) as JsonValue;
  // An upper bound of the document's size: removals are not counted down until it is measured again.
  let bound = size;
  for (const [index, operation] of operations.entries()) {
    let growth = growthOf(document, operation, limit);
    if (bound + growth > limit) {
      bound = jsonSize(document, limit);
      if (operation.op === 'copy') growth = growthOf(document, operation, limit - bound);
      if (bound + growth > limit) throw new VersionTooLarge(limit);
    }
    document = applyOperation(document, operation, true, true, true, index).newDocument;
    bound += growth;
  }
  const exact = jsonSize(document, limit);
  if (exact > limit) throw new VersionTooLarge(limit);
  return { document, size: exact };
}
