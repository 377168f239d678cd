/**
 * Field errors in the original's shapes and wording, in schematics' two stages: "conversion", then, only when it
 * found nothing, "validation" (docs/decisions/0012-field-errors-in-the-originals-shapes.md).
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import {
  assetAsSent,
  assetAsWritten,
  documentAsSent,
  documentAsWritten,
  ownershipChangeAsSent,
} from '../contract/validators.js';
import type { ErrorDescription, ErrorEntry, ErrorFieldDescriptions } from './errors.js';
import { isJsonObject } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { keywordMessage } from './validation-messages.js';
import { checkedFields } from './workflow.js';

const ROGUE = 'Rogue field';
const REQUIRED = 'This field is required.';

/** Formats checked while the value is read (schematics' to_native): the rest are validators of the model. */
const CONVERSION_FORMATS = new Set(['date-time', 'iso-date-time', 'md5', 'md5-hash']);
const CONVERSION_KEYWORDS = new Set(['type', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum']);

function stageOf(error: ErrorObject): Finding['stage'] {
  if (CONVERSION_KEYWORDS.has(error.keyword)) return 'conversion';
  if (error.keyword === 'format' && CONVERSION_FORMATS.has(String(error.params.format))) return 'conversion';
  return 'validation';
}

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
    out.push({ path, message: keywordMessage(error), rogue: false, stage: stageOf(error) });
  }
  return out;
}

/** The error tree of one field; list elements are keyed by index. */
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

  /** In conversion a failing list reports its first failing element only, as the original. */
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

  private describeElement(): string[] | ErrorFieldDescriptions {
    return this.messages.length > 0 ? this.messages : this.describeChildren(false);
  }

  private describeChildren(conversion: boolean): ErrorFieldDescriptions {
    return Object.fromEntries([...this.children].map(([key, node]) => [String(key), node.describe(conversion)]));
  }
}

/** Past this many, one more entry says how many were left out (docs/decisions/0045-bounded-answers.md). */
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
  const entries: ErrorEntry[] = [...fields].map(([name, node]) => ({
    location: 'body',
    name,
    description: node.describe(conversion),
  }));
  if (leftOut > 0) entries.push({ location: 'body', name: 'data', description: `${leftOut} more errors left out` });
  return entries;
}

// The walks below keep their own stack: a body may nest far deeper than the call stack holds.

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

function emptyLike(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return [];
  return isJsonObject(value) ? {} : value;
}

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
      if (member !== null)
        Object.defineProperty(copy, key, {
          value: place(member),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
  return root;
}

/** A `null` value counts as not sent: its own errors are dropped (an unknown key stays unknown). */
function run(validate: ValidateFunction, data: JsonValue): Finding[] {
  if (validate(data)) return [];
  return findings(
    (validate.errors ?? []).filter((error) => error.data !== null),
    data,
  );
}

/**
 * The conversion stage, before the fields the role may not write are dropped: as in the original, a bad value in
 * a dropped field is ignored with it (choices and code lists wait for `checkAsset`).
 */
export function checkInput(data: unknown): ErrorEntry[] {
  return conversionOnly(assetAsSent, isJsonObject(data) ? checkedFields(data) : data);
}

function conversionOnly(validate: ValidateFunction, data: unknown): ErrorEntry[] {
  const conversion = run(validate, data as JsonValue).filter((finding) => finding.stage === 'conversion');
  return toEntries(conversion, true);
}

/** The complete asset after defaults or the merge: both stages. */
export function checkAsset(asset: JsonObject): ErrorEntry[] {
  return checkWhole(assetAsWritten, asset);
}

/** The `data` of `POST /assets/{id}/ownership`; other fields are ignored, as the original ignored them. */
export function checkOwnershipChange(data: JsonObject): ErrorEntry[] {
  return checkWhole(ownershipChangeAsSent, data);
}

/** The conversion stage of a document request's `data`, before the generated fields are dropped. */
export function checkDocumentInput(data: unknown): ErrorEntry[] {
  return conversionOnly(documentAsSent, data);
}

/** A whole document version as it would be stored: both stages. */
export function checkDocument(document: JsonObject): ErrorEntry[] {
  return checkWhole(documentAsWritten, document);
}

function checkWhole(validate: ValidateFunction, data: JsonObject): ErrorEntry[] {
  if (validate(data) && !containsNull(data)) return [];
  const conversion = run(validate, data).filter((finding) => finding.stage === 'conversion');
  if (conversion.length > 0) return toEntries(conversion, true);
  // Past conversion the data has the schema's shape (and depth); a field that is null is now a missing one.
  return toEntries(run(validate, withoutNulls(data)), false);
}
