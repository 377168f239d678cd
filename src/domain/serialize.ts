/**
 * The JSON writer of every response. It is JSON.stringify with one difference the wire format needs: a number
 * under a key named `amount` is written as a float (`100` → `100.0`), as the original's responses show
 * (decisions.md §4). Pretty output is indented by 4 with `": "`, which is also what Python's json writes.
 *
 * One recursive pass builds the text directly; strings are escaped by JSON.stringify itself, so escaping is
 * exactly the standard one.
 */

/** The media type of every JSON answer: UTF-8, said explicitly. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export interface JsonWriteOptions {
  pretty?: boolean;
}

const PRETTY_INDENT = '    ';

/** Characters JSON.stringify escapes: a string without them can be quoted as is. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Like JSON.stringify(value) (or JSON.stringify(value, null, 4) when pretty), with `amount` numbers as floats.
 * Where JSON.stringify would return undefined (undefined, a function, a symbol), this writes `null`.
 */
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
        return out + ']';
      }
      let out = '{';
      let first = true;
      const object = value as Record<string, unknown>;
      for (const name of Object.keys(object)) {
        const text = writeCompact(object[name], name);
        if (text === undefined) continue;
        out += (first ? '' : ',') + quote(name) + ':' + text;
        first = false;
      }
      return out + '}';
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
    return out + '\n' + indent + ']';
  }
  let out = '';
  const object = value as Record<string, unknown>;
  for (const name of Object.keys(object)) {
    const text = writePretty(object[name], name, inner);
    if (text === undefined) continue;
    out += (out === '' ? '{\n' : ',\n') + inner + quote(name) + ': ' + text;
  }
  return out === '' ? '{}' : out + '\n' + indent + '}';
}

/** What JSON.stringify would serialise in place of `value`: the result of its toJSON (dates), else itself. */
function toPlain(value: object, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"';
}

function writeNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/**
 * A float's text as Python writes it: integers get `.0`; from 1e16 on, exponent notation (`1e+16`), which is
 * also a float in every JSON reader. Fractions are written as usual.
 */
function writeAmount(value: number): string {
  if (!Number.isInteger(value)) return writeNumber(value);
  if (Math.abs(value) >= 1e16) return value.toExponential();
  return String(value) + '.0';
}
