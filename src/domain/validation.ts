/**
 * Field validation, compiled from the OpenAPI component schemas (src/generated/schemas.json), with errors in the
 * original registry's shapes and wording (schematics 1.1):
 *
 * - `location: "body"`, `name` the top-level field, one entry per top-level field;
 * - `description` a list of messages for a plain field, an object keyed by sub-field for a nested object, and for
 *   a list of objects a list with one object per failing element (no index);
 * - an unknown key is the bare string `Rogue field` (at the top level, or under its key in a nested object);
 * - two stages, as in the original: "conversion" happens when the data is read (unknown keys, types, numbers
 *   below their minimum, unparseable dates, malformed hashes), and a conversion error in a list element aborts
 *   the list, so the list's description is that element's error alone; "validation" runs on the resulting asset
 *   only when conversion found nothing (required fields, choices, code lists, e-mail and URL formats, lengths and
 *   patterns, the rules between fields).
 *
 * `null` means "not sent" (the original drops fields equal to their default): a null field is neither checked nor
 * present, except that an unknown key is refused whatever its value.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import schemas from '../generated/schemas.json' with { type: 'json' };
import { addRegistryFormats, CODE_FORMATS, md5HashProblem } from './codes.js';
import type { CodeFormat } from './codes.js';
import type { ErrorDescription, ErrorEntry, ErrorFieldDescriptions } from './errors.js';
import { isJsonObject } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { checkedFields } from './workflow.js';

const ajv = addRegistryFormats(new Ajv2020({ allErrors: true, verbose: true, strict: true }));
ajv.addSchema(schemas);
/** The same schemas for what is stored: code lists are a rule of writes, not of what a store may hold (§14). */
const storedAjv = addRegistryFormats(new Ajv2020({ allErrors: true, strict: true }), { codeLists: false });
storedAjv.addSchema(schemas);

const SCHEMA_ID = schemas.$id;

/** The compiled validator of one component schema (e.g. `Asset`, `ListingPage`, `Error`), for response checks. */
export function responseValidator<T = unknown>(schemaName: string): ValidateFunction<T> {
  const validate = ajv.getSchema<T>(`${SCHEMA_ID}#/$defs/${schemaName}`);
  if (validate === undefined) throw new Error(`No schema named ${schemaName} in the OpenAPI document`);
  return validate;
}

/**
 * The same schemas once more, removing what they do not describe (Ajv's `removeAdditional`, safe here: no schema
 * composes others with `oneOf` or `anyOf`): of an original's asset the import keeps every field the registry
 * serves and only those (§14), at any depth (an item's `schema_properties`).
 */
const servedOnlyAjv = addRegistryFormats(new Ajv2020({ allErrors: true, strict: true, removeAdditional: true }), { codeLists: false });
servedOnlyAjv.addSchema(schemas);

/** The value without the members schema `schemaName` does not describe, and the JSON Pointers of those dropped. */
export function withoutUnservedMembers(schemaName: 'Asset' | 'Document', value: JsonObject): { value: JsonObject; dropped: string[] } {
  const keep = servedOnlyAjv.getSchema(`${SCHEMA_ID}#/$defs/${schemaName}`);
  if (keep === undefined) throw new Error(`No schema named ${schemaName} in the OpenAPI document`);
  const kept = structuredClone(value);
  keep(kept);
  return { value: kept, dropped: membersGone(value, kept, '') };
}

/** The pointers of the members of `before` that `after` (the same value, members removed) no longer has. */
function membersGone(before: JsonValue, after: JsonValue | undefined, at: string): string[] {
  if (after === undefined) return [at];
  if (Array.isArray(before) && Array.isArray(after)) return before.flatMap((item, i) => membersGone(item, after[i], `${at}/${i}`));
  if (!isJsonObject(before) || !isJsonObject(after)) return [];
  return Object.entries(before).flatMap(([key, item]) =>
    membersGone(item, Object.hasOwn(after, key) ? after[key] : undefined, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/** The validator of one component schema for stored values: as `responseValidator`, without the code lists. */
export function storedValueValidator<T = unknown>(schemaName: string): ValidateFunction<T> {
  const validate = storedAjv.getSchema<T>(`${SCHEMA_ID}#/$defs/${schemaName}`);
  if (validate === undefined) throw new Error(`No schema named ${schemaName} in the OpenAPI document`);
  return validate;
}

/** POST and PATCH `data`: every field optional, read-only ones allowed (the caller drops what a role may not write). */
const validateInput = responseValidator('AssetPatch');
/** A whole asset: the creation requirements plus `relatedLot` when active. */
const validateComplete = responseValidator('AssetCreate');
/** The `data` of an ownership change: the transfer's `id` and the asset's `transfer` token. */
const validateOwnershipChange = responseValidator('OwnershipChange');
/** A document's POST, PUT and PATCH `data`: every field optional, generated ones allowed (and then dropped). */
const validateDocumentInput = responseValidator('DocumentInput');
/** A whole document version as served: the required fields, choices and formats. */
const validateDocument = responseValidator('Document');

const ROGUE = 'Rogue field';
const REQUIRED = 'This field is required.';

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
      return typeof value === 'string' && value.length !== 32 ? 'Hash value is wrong length.' : 'Hash value is not hexadecimal.';
    case 'md5-hash':
      return (typeof value === 'string' && md5HashProblem(value)) || 'Hash type is not supported.';
    default:
      return format in CODE_FORMATS ? CODE_FORMATS[format as CodeFormat].message : `Value must be in the ${format} format.`;
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
function message(error: ErrorObject): string {
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

/** Formats checked while the value is read (schematics' to_native): the rest are validators of the model. */
const CONVERSION_FORMATS = new Set(['date-time', 'iso-date-time', 'md5', 'md5-hash']);
const CONVERSION_KEYWORDS = new Set(['type', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum']);

function stageOf(error: ErrorObject): Finding['stage'] {
  if (CONVERSION_KEYWORDS.has(error.keyword)) return 'conversion';
  if (error.keyword === 'format' && CONVERSION_FORMATS.has(String(error.params.format))) return 'conversion';
  return 'validation';
}

/** One finding: where (path of keys and list indices below `data`) and what (a message or an unknown key). */
interface Finding {
  path: (string | number)[];
  message: string;
  rogue: boolean;
  stage: 'conversion' | 'validation';
}

function pathOf(instancePath: string, data: JsonValue): (string | number)[] {
  const path: (string | number)[] = [];
  let node: JsonValue | undefined = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path.push(Number(key));
      node = node[Number(key)];
    } else {
      path.push(key);
      node = isJsonObject(node) ? node[key] : undefined;
    }
  }
  return path;
}

/** `anyOf: [{required: [a]}, {required: [b]}]`: "at least one of these fields", the contact point rule. */
function oneOfFieldsRequired(error: ErrorObject): string[] | undefined {
  if (error.keyword !== 'anyOf' || !Array.isArray(error.schema)) return undefined;
  const fields: string[] = [];
  for (const branch of error.schema as unknown[]) {
    const required = (branch as { required?: unknown }).required;
    if (!Array.isArray(required) || required.length !== 1) return undefined;
    fields.push(String(required[0]));
  }
  return fields;
}

function findings(errors: readonly ErrorObject[], data: JsonValue): Finding[] {
  const out: Finding[] = [];
  for (const error of errors) {
    const path = pathOf(error.instancePath, data);
    const p = error.params as Record<string, unknown>;
    if (error.keyword === 'if') continue;
    if (error.keyword === 'required') {
      // The branches of an "at least one of" rule are reported once, by the anyOf below.
      if (/\/anyOf\/\d+\/required$/.test(error.schemaPath)) continue;
      out.push({ path: [...path, String(p.missingProperty)], message: REQUIRED, rogue: false, stage: 'validation' });
      continue;
    }
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const key = String(p.additionalProperty ?? p.unevaluatedProperty);
      out.push({ path: [...path, key], message: ROGUE, rogue: true, stage: 'conversion' });
      continue;
    }
    const alternatives = oneOfFieldsRequired(error);
    if (alternatives !== undefined) {
      const last = alternatives[alternatives.length - 1] ?? '';
      const text = `${alternatives.join(' or ')} should be present`;
      out.push({ path: [...path, last], message: text, rogue: false, stage: 'validation' });
      continue;
    }
    out.push({ path, message: message(error), rogue: false, stage: stageOf(error) });
  }
  return out;
}

/** The error tree of one field while it is being built; list elements are keyed by index. */
class Node {
  messages: string[] = [];
  rogue = false;
  readonly children = new Map<string | number, Node>();

  child(key: string | number): Node {
    let node = this.children.get(key);
    if (node === undefined) {
      node = new Node();
      this.children.set(key, node);
    }
    return node;
  }

  /** The description in the original's shape. `conversion`: a failing list reports its first failing element only. */
  describe(conversion: boolean): ErrorDescription {
    if (this.rogue) return ROGUE;
    if (this.messages.length > 0) return this.messages;
    const keys = [...this.children.keys()];
    if (keys.length > 0 && keys.every((key) => typeof key === 'number')) {
      const elements = keys.sort((a, b) => Number(a) - Number(b)).map((key) => this.children.get(key) as Node);
      if (conversion) return elements[0]?.describe(true) ?? [];
      return elements.map((element) => element.describeElement());
    }
    return this.describeChildren(conversion);
  }

  /** A failing element of a list, past conversion: its own messages, or its sub-fields' (every list holds objects). */
  private describeElement(): string[] | ErrorFieldDescriptions {
    return this.messages.length > 0 ? this.messages : this.describeChildren(false);
  }

  private describeChildren(conversion: boolean): ErrorFieldDescriptions {
    return Object.fromEntries([...this.children].map(([key, node]) => [String(key), node.describe(conversion)]));
  }
}

/** The most field errors a 422 lists; past them, one more entry says how many were left out. */
const LISTED_ERRORS = 100;

/** An unknown top-level key: the original reports these after the fields it knows. */
const unknownTopLevel = (finding: Finding): boolean => finding.rogue && finding.path.length === 1;

function toEntries(found: readonly Finding[], conversion: boolean): ErrorEntry[] {
  const fields = new Map<string, Node>();
  const ordered = [...found.filter((finding) => !unknownTopLevel(finding)), ...found.filter(unknownTopLevel)];
  let listed = 0;
  let leftOut = 0;
  for (const finding of ordered) {
    const [top, ...rest] = finding.path;
    if (top === undefined) continue;
    if (listed === LISTED_ERRORS) {
      leftOut++;
      continue;
    }
    let node = fields.get(String(top));
    if (node === undefined) {
      node = new Node();
      fields.set(String(top), node);
    }
    for (const key of rest) node = node.child(key);
    if (finding.rogue) node.rogue = true;
    else if (!node.messages.includes(finding.message)) node.messages.push(finding.message);
    listed++;
  }
  const entries: ErrorEntry[] = [...fields].map(([name, node]) => ({ location: 'body', name, description: node.describe(conversion) }));
  if (leftOut > 0) entries.push({ location: 'body', name: 'data', description: `${leftOut} more errors left out` });
  return entries;
}

// The walks below keep their own stack: a body may nest as deep as BODY_LIMIT allows (a megabyte of `[`), far
// past what the call stack holds.

/** Whether a `null` is anywhere in `value`. */
function containsNull(value: JsonValue): boolean {
  const pending: JsonValue[] = [value];
  while (pending.length > 0) {
    const next = pending.pop() as JsonValue;
    if (next === null) return true;
    if (Array.isArray(next)) for (const member of next) pending.push(member);
    else if (isJsonObject(next)) for (const member of Object.values(next)) pending.push(member);
  }
  return false;
}

/** An empty container of the same kind as `value`, or `value` itself when it is not one. */
function emptyLike(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return [];
  return isJsonObject(value) ? {} : value;
}

/** A copy without `null` object members: the original treats a field sent as null as not sent. */
function withoutNulls(value: JsonValue): JsonValue {
  const root = emptyLike(value);
  const pending: [JsonValue, JsonValue][] = root === value ? [] : [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop() as [JsonValue, JsonValue];
    const place = (member: JsonValue): JsonValue => {
      const memberCopy = emptyLike(member);
      if (memberCopy !== member) pending.push([member, memberCopy]);
      return memberCopy;
    };
    if (Array.isArray(source)) {
      for (const member of source) (copy as JsonValue[]).push(place(member));
      continue;
    }
    for (const [key, member] of Object.entries(source as JsonObject)) {
      // defineProperty keeps a `__proto__` key a key (and an unknown field), never a prototype.
      if (member !== null) Object.defineProperty(copy, key, { value: place(member), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/**
 * The findings of one schema on `data`. A `null` value counts as not sent, so its own errors (type, choices) are
 * dropped; an unknown key is unknown whatever its value.
 */
function run(validate: ValidateFunction, data: JsonValue): Finding[] {
  if (validate(data)) return [];
  return findings((validate.errors ?? []).filter((error) => error.data !== null), data);
}

/**
 * The "conversion" stage of POST and PATCH `data`, before the caller drops what the role may not write: unknown
 * keys, wrong types, amounts below their minimum, unparseable dates and malformed `relatedLot`. Nothing that
 * needs the whole asset (PATCH data is partial) and no choices or code lists: as in the original, those are
 * judged by `checkAsset` on the fields that were kept, so a bad value in a field the role may not write is
 * ignored with the field. Fields ignored whatever they hold (`documents`) are not looked at.
 */
export function checkInput(data: unknown): ErrorEntry[] {
  return conversionOnly(validateInput, isJsonObject(data) ? checkedFields(data) : data);
}

/** The conversion stage alone, on data that may be partial. */
function conversionOnly(validate: ValidateFunction, data: unknown): ErrorEntry[] {
  const conversion = run(validate, data as JsonValue).filter((finding) => finding.stage === 'conversion');
  return toEntries(conversion, true);
}

/**
 * The complete resulting asset (after defaults or the merge): the conversion checks of `checkInput`, then, when
 * they found nothing, the validation: required fields (nested ones too), `assetType` being `claimRights`,
 * choices, the CAV, Rec 20, ISO 4217 and registration agency code lists, e-mail and URL formats, lengths, a
 * contact point's email or telephone and `relatedLot` while active.
 */
export function checkAsset(asset: JsonObject): ErrorEntry[] {
  return checkWhole(validateComplete, asset);
}

/**
 * The `data` of `POST /assets/{id}/ownership`: `id` and `transfer` present (`This field is required.`) and
 * non-empty strings. Other fields are ignored, as the original ignored them.
 */
export function checkOwnershipChange(data: JsonObject): ErrorEntry[] {
  return checkWhole(validateOwnershipChange, data);
}

/**
 * The conversion stage of a document request's `data` (POST, PUT, PATCH), before the generated fields are
 * dropped: unknown keys, types, unparseable dates, malformed hashes and ids (`Hash type is not supported.`,
 * `Hash value is wrong length.`, `Hash value is not hexadecimal.`).
 */
export function checkDocumentInput(data: unknown): ErrorEntry[] {
  return conversionOnly(validateDocumentInput, data);
}

/**
 * A whole document version as it would be stored: conversion, then required fields (`title`, `format`, `url`,
 * `hash`), choices (`documentType`, `documentOf`), the `format` pattern and the URL format.
 */
export function checkDocument(document: JsonObject): ErrorEntry[] {
  return checkWhole(validateDocument, document);
}

/** Both stages on a complete object: conversion, then, when it found nothing, validation. */
function checkWhole(validate: ValidateFunction, data: JsonObject): ErrorEntry[] {
  // The usual case, a valid object without nulls, in one pass: both stages would find nothing.
  if (validate(data) && !containsNull(data)) return [];
  const conversion = run(validate, data).filter((finding) => finding.stage === 'conversion');
  if (conversion.length > 0) return toEntries(conversion, true);
  // Past conversion the data has the schema's shape (and depth); a field that is null is now a missing one.
  return toEntries(run(validate, withoutNulls(data)), false);
}

