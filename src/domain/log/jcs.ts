/**
 * RFC 8785 (JCS) as the `canonicalize` package writes it, byte for byte, in a fraction of its time on the JSON a
 * registry stores (docs/decisions/0072-jcs-by-sorted-copy.md): a copy of the value with every object's keys in JCS
 * order, written by one `JSON.stringify`, which writes strings and numbers as JCS does. Whatever the copy cannot carry
 * exactly (a key V8 would reorder, a value that is not plain JSON data) is left to `canonicalize` itself.
 */
import canonicalize from 'canonicalize';

/** Thrown inside the copy: the value is `canonicalize`'s to write (or to refuse). */
const NOT_PLAIN = new Error('not plain JSON data');

/** Keys V8 keeps first, in numeric order, whatever the order they are set in; `__proto__` would set the prototype. */
function reordered(key: string): boolean {
  const first = key.charCodeAt(0);
  return (first >= 48 && first <= 57) || key === '__proto__';
}

/** The value with its objects' keys sorted as JCS sorts them (UTF-16 code units); the value itself where they are. */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      return value;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      // A hole or `undefined` is written `null`, as `canonicalize` writes it.
      const sorted = item === undefined ? null : sortedCopy(item);
      if (copy === undefined && sorted !== item) copy = value.slice(0, i);
      copy?.push(sorted);
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) throw NOT_PLAIN;
  const object = value as Record<string, unknown>;
  // for-in rather than Object.keys: V8 reads each member through the object's enum cache, not by a keyed lookup.
  let previous: string | undefined;
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    if (reordered(key)) throw NOT_PLAIN;
    if (previous !== undefined && previous > key) return sortedByKey(object);
    previous = key;
    const item = object[key];
    const member = item === undefined ? undefined : sortedCopy(item);
    // Copied only when a member is.
    if (copy === undefined && member !== item) {
      copy = {};
      for (const earlier in object) {
        if (earlier === key) break;
        copy[earlier] = object[earlier];
      }
    }
    if (copy !== undefined) copy[key] = member;
  }
  return copy ?? value;
}

/** A copy of an object whose keys are out of JCS order, with its keys sorted. */
function sortedByKey(object: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(object);
  for (const key of keys) if (reordered(key)) throw NOT_PLAIN;
  keys.sort();
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    const item = object[key];
    // `undefined` is left out, as `canonicalize` leaves it out.
    if (item !== undefined) copy[key] = sortedCopy(item);
  }
  return copy;
}

/**
 * JSON.stringify writes a lone surrogate, which JCS refuses, as an escape `\udxxx`: a text without `\ud` has none,
 * and is checked once rather than string by string. A text with it (perhaps only a backslash written before `ud`)
 * is `canonicalize`'s to write or refuse.
 */
const MAYBE_LONE_SURROGATE = '\\ud';

/**
 * The JCS of `value`, equal to `canonicalize(value)` (which throws for what JCS cannot write). `written`, where the
 * caller has it, is `JSON.stringify(value)`, as text or as its UTF-8 bytes: a value already in JCS order is not
 * written again, and is answered as `written` (docs/decisions/0084-new-objects-in-jcs-key-order.md).
 */
export function jcs(value: unknown, written?: string): string;
export function jcs(value: unknown, written: Buffer | undefined): string | Buffer;
export function jcs(value: unknown, written?: string | Buffer): string | Buffer {
  let text: string | Buffer | undefined;
  try {
    const sorted = sortedCopy(value);
    text = sorted === value && written !== undefined ? written : JSON.stringify(sorted);
  } catch {
    text = undefined;
  }
  if (text === undefined || text.includes(MAYBE_LONE_SURROGATE)) text = canonicalize(value);
  if (text === undefined) throw new Error('a value JCS cannot write');
  return text;
}
