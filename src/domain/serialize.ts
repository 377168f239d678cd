/**
 * JSON.stringify, but a number under a key named `amount` is written as a float (`100.0`), as the original's
 * responses show (docs/decisions/0011-amounts-written-as-floats.md). Pretty output is indented as Python's.
 */

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface JsonWriteOptions {
  pretty?: boolean;
}

const PRETTY_INDENT = '    ';

/** Characters JSON.stringify escapes: a string without them can be quoted as is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Where JSON.stringify would return undefined, this writes `null`. */
export function toJson(value: unknown, options: JsonWriteOptions = {}): string {
  return (options.pretty ? writePretty(value, '', '') : writeCompact(value, '')) ?? 'null';
}

function writeCompact(value: unknown, key: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return key === 'amount' ? writeAmount(value) : writeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (value === null) return 'null';
      const plain = toPlain(value, key);
      if (plain !== value) return writeCompact(plain, key);
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index++) {
          if (index > 0) out += ',';
          out += writeCompact(value[index], '') ?? 'null';
        }
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      const object = value as Record<string, unknown>;
      for (const name of Object.keys(object)) {
        const text = writeCompact(object[name], name);
        if (text === undefined) continue;
        out += `${first ? '' : ','}${quote(name)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

function writePretty(value: unknown, key: string, indent: string): string | undefined {
  if (typeof value !== 'object' || value === null) return writeCompact(value, key);
  const plain = toPlain(value, key);
  if (plain !== value) return writePretty(plain, key, indent);
  const inner = indent + PRETTY_INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let out = '[';
    for (let index = 0; index < value.length; index++) {
      out += (index > 0 ? ',\n' : '\n') + inner + (writePretty(value[index], '', inner) ?? 'null');
    }
    return `${out}\n${indent}]`;
  }
  let out = '';
  const object = value as Record<string, unknown>;
  for (const name of Object.keys(object)) {
    const text = writePretty(object[name], name, inner);
    if (text === undefined) continue;
    out += `${out === '' ? '{\n' : ',\n'}${inner}${quote(name)}: ${text}`;
  }
  return out === '' ? '{}' : `${out}\n${indent}}`;
}

/** What JSON.stringify would serialise in place of `value` (toJSON). */
function toPlain(value: object, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function writeNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** As Python writes a float: `.0` on integers, exponent notation from 1e16. */
function writeAmount(value: number): string {
  if (!Number.isInteger(value)) return writeNumber(value);
  if (Math.abs(value) >= 1e16) return value.toExponential();
  return `${value}.0`;
}
