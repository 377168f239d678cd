/** The original registry's wording (schematics 1.1) of a failed check: types in Python 2's names, values cut short. */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CODE_FORMATS, md5HashProblem, type CodeFormat } from '../contract/formats.js';

/** Python 2's name of a JSON value's type, as schematics prints it. */
function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'unicode';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

const SHOWN_LENGTH = 100;

/** The offending value as messages quote it, cut short: values may be huge or nested thousands deep. */
function shown(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value !== 'object' || value === null) text = String(value);
  else text = Array.isArray(value) ? `[list of ${value.length}]` : '{mapping}';
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
}

/** `['a', 'b']`: Python's repr of a list of strings, as the original's choices messages print it. */
function pythonList(values: readonly unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}]`;
}

function formatMessage(format: string, value: unknown): string {
  switch (format) {
    case 'date-time':
    case 'iso-date-time':
      return `Could not parse ${shown(value)}. Should be ISO8601.`;
    case 'email':
      return 'Not a well formed email address.';
    case 'uri':
      return 'Not a well formed URL.';
    case 'md5':
      return typeof value === 'string' && value.length !== 32
        ? 'Hash value is wrong length.'
        : 'Hash value is not hexadecimal.';
    case 'md5-hash':
      return (typeof value === 'string' && md5HashProblem(value)) || 'Hash type is not supported.';
    default:
      return format in CODE_FORMATS
        ? CODE_FORMATS[format as CodeFormat].message
        : `Value must be in the ${format} format.`;
  }
}

function typeMessage(error: ErrorObject): string {
  const value: unknown = error.data;
  switch (error.params.type) {
    case 'object': {
      const model = (error.parentSchema as { title?: string } | undefined)?.title ?? 'Model';
      return `Please use a mapping for this field or ${model} instance instead of ${pythonType(value)}.`;
    }
    case 'array':
      return 'Could not interpret the value as a list';
    case 'string':
      return `Couldn't interpret '${shown(value)}' as string.`;
    case 'integer':
      return `Value '${shown(value)}' is not int.`;
    case 'number':
      return `Number '${shown(value)}' failed to convert to a decimal.`;
    case 'boolean':
      return 'Must be either true or false.';
    default:
      return error.message ?? 'Wrong type.';
  }
}

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

/** The original's message for a failed keyword (not `required` or unknown keys, which are placed differently). */
export function keywordMessage(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return typeMessage(error);
    case 'enum':
      return `Value must be one of ${pythonList(p.allowedValues as unknown[])}.`;
    case 'const':
      return `Value must be one of ${pythonList([p.allowedValue])}.`;
    case 'format':
      return formatMessage(String(p.format), error.data);
    case 'minimum':
    case 'exclusiveMinimum':
      return `Value should be greater than ${String(p.limit)}.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `Value should be less than ${String(p.limit)}.`;
    case 'maxLength':
      return 'String value is too long.';
    case 'minLength':
      return 'String value is too short.';
    case 'pattern':
      return 'String value did not match validation regex.';
    case 'maxItems':
      return `Please provide no more than ${items(Number(p.limit))}.`;
    case 'minItems':
      return `Please provide at least ${items(Number(p.limit))}.`;
    default:
      return error.message ?? 'Invalid value.';
  }
}
