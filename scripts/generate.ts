/**
 * openapi/openapi.yaml → src/contract/generated/:
 *   openapi.d.ts   TypeScript types of paths and components (openapi-typescript)
 *   schemas.json   the component schemas as one JSON Schema 2020-12 document for Ajv (refs → #/$defs/X, no x-*),
 *                  with the rules of openapi/rules.yaml added (the published document states them in words only)
 *   openapi.json   the document itself as JSON: served as is, and read at start-up to wire the operations
 *   openapi-3.0.json  the same document as OpenAPI 3.0.3, for tools that read 3.0 only (served beside it)
 * and the settings of src/config/settings.ts → docs/settings.md's table (between its `settings` markers).
 *
 * `npm run generate` writes them; `npm run generate -- --check` writes nothing and exits 1 when any is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Converter } from '@apiture/openapi-down-convert';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import { parse } from 'yaml';
import { settingsTable } from '../src/config/help.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'openapi', 'openapi.yaml');
const RULES = join(ROOT, 'openapi', 'rules.yaml');
const SETTINGS_PAGE = join(ROOT, 'docs', 'settings.md');
const NOTE = 'generated from openapi/openapi.yaml by scripts/generate.ts — do not edit; run `npm run generate`';

/** Keywords whose value maps names to schemas (so an `x-` key there is a name, not an extension). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Copies a schema, dropping `x-*` extensions and pointing component refs into the document's own `$defs`. */
export function toAjvSchema(node: unknown, inNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((item) => toAjvSchema(item));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inNameMap && key.startsWith('x-')) continue;
    if (!inNameMap && key === '$ref' && typeof value === 'string') {
      out[key] = value.replace(/^#\/components\/schemas\//, '#/$defs/');
      continue;
    }
    // `examples` and `default` hold data, not schemas: copied as they are.
    if (!inNameMap && (key === 'examples' || key === 'default' || key === 'const' || key === 'enum')) {
      out[key] = value;
      continue;
    }
    out[key] = toAjvSchema(value, !inNameMap && SCHEMA_MAPS.has(key));
  }
  return out;
}

/**
 * Component schemas the document gives a standard `pattern` (the values' shape, which any validator understands)
 * and the registry checks with a format of its own from src/contract/formats.ts: membership of a code list, and the
 * original's messages and order of checks for hashes. In schemas.json the format takes the place of `pattern`
 * and `maxLength` (a value the format accepts has the shape and the length).
 */
export const REGISTRY_FORMATS: Readonly<Record<string, string>> = {
  CavCode: 'cav-code',
  UnitCode: 'rec20-unit',
  CurrencyCode: 'iso4217',
  RegistrationAgencyCode: 'ora-scheme',
  Md5: 'md5',
  DocumentId: 'md5',
  Md5Hash: 'md5-hash',
  LocalDateTime: 'iso-date-time',
};

/** The component schemas for Ajv, with the registry's formats in place of the patterns of REGISTRY_FORMATS. */
export function ajvDefinitions(schemas: Record<string, unknown>): Record<string, unknown> {
  const definitions = toAjvSchema(schemas, true) as Record<string, Record<string, unknown>>;
  for (const [name, format] of Object.entries(REGISTRY_FORMATS)) {
    const schema = definitions[name];
    if (schema === undefined) throw new Error(`REGISTRY_FORMATS names ${name}, which the document does not have`);
    const { pattern: _pattern, maxLength: _maxLength, ...rest } = schema;
    definitions[name] = { ...rest, format };
  }
  return definitions;
}

/** A rule of openapi/rules.yaml: stated in words in its component's description, enforced through `schema`. */
export interface Rule {
  component: string;
  says: string;
  schema: Record<string, unknown>;
}

/** The rules of openapi/rules.yaml, by name. */
export async function readRules(): Promise<Record<string, Rule>> {
  return parse(await readFile(RULES, 'utf8')) as Record<string, Rule>;
}

/**
 * The definitions with each rule's keywords added to its component. A rule may not replace a keyword the component
 * has: the published schema stays what it says, the rule only adds to it.
 */
export function withRules(definitions: Record<string, unknown>, rules: Record<string, Rule>): Record<string, unknown> {
  const out = { ...definitions };
  for (const [name, rule] of Object.entries(rules)) {
    const target = out[rule.component] as Record<string, unknown> | undefined;
    if (target === undefined) throw new Error(`rule ${name} names ${rule.component}, which the document does not have`);
    const clash = Object.keys(rule.schema).find((key) => key in target);
    if (clash !== undefined) throw new Error(`rule ${name} would replace ${rule.component}'s own ${clash}`);
    out[rule.component] = { ...target, ...(toAjvSchema(rule.schema) as Record<string, unknown>) };
  }
  return out;
}

export function schemasDocument(document: OpenAPI3, rules: Record<string, Rule>): string {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const json = {
    $comment: NOTE,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'registry',
    $defs: withRules(ajvDefinitions(schemas), rules),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * Numeric `exclusiveMinimum`/`exclusiveMaximum` (3.1, JSON Schema 2020-12) as OpenAPI 3.0 writes them: the bound
 * in `minimum`/`maximum` and a boolean beside it. The converter leaves them as they are, which 3.0 readers take
 * for an invalid boolean.
 */
export function withBooleanExclusiveBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withBooleanExclusiveBounds);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const bound = { exclusiveMinimum: 'minimum', exclusiveMaximum: 'maximum' }[key];
    if (bound !== undefined && typeof value === 'number') {
      out[bound] = value;
      out[key] = true;
    } else out[key] = key === 'examples' || key === 'example' ? value : withBooleanExclusiveBounds(value);
  }
  return out;
}

/**
 * The document as OpenAPI 3.0.3, by @apiture/openapi-down-convert (examples, const, type arrays, unsupported
 * keywords), plus what it leaves to do: exclusive bounds as booleans, and no `info.summary` (3.1 only).
 */
export function openApi30(document: OpenAPI3): Record<string, unknown> {
  const converted = new Converter(structuredClone(document), { allOfTransform: true }).convert() as {
    info: Record<string, unknown>;
  };
  const { summary: _summary, ...info } = converted.info;
  return withBooleanExclusiveBounds({ ...converted, info }) as Record<string, unknown>;
}

async function typesFile(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: false });
  return `// ${NOTE}\n${astToString(ast)}`;
}

/** A page with the settings table between `<!-- settings:start ... -->` and `<!-- settings:end -->` rewritten. */
export function withSettingsTable(page: string): string {
  const section = /(<!-- settings:start[^>]*-->\n)[\s\S]*?(<!-- settings:end -->)/;
  if (!section.test(page))
    throw new Error('docs/settings.md has no <!-- settings:start --> ... <!-- settings:end --> markers');
  return page.replace(section, (_match, start: string, end: string) => `${start}${settingsTable()}\n${end}`);
}

/** Every generated file, by path inside the checkout, with its content. */
export async function generate(): Promise<Map<string, string>> {
  const document = parse(await readFile(SOURCE, 'utf8')) as OpenAPI3;
  return new Map([
    ['src/contract/generated/openapi.d.ts', await typesFile(document)],
    ['src/contract/generated/schemas.json', schemasDocument(document, await readRules())],
    ['src/contract/generated/openapi.json', `${JSON.stringify(document)}\n`],
    ['src/contract/generated/openapi-3.0.json', `${JSON.stringify(openApi30(document))}\n`],
    ['docs/settings.md', withSettingsTable(await readFile(SETTINGS_PAGE, 'utf8'))],
  ]);
}

async function main(check: boolean): Promise<number> {
  const stale: string[] = [];
  for (const [name, content] of await generate()) {
    const path = join(ROOT, name);
    const current = await readFile(path, 'utf8').catch(() => undefined);
    if (current === content) continue;
    if (check) stale.push(name);
    else await writeFile(path, content);
  }
  if (check && stale.length > 0) {
    console.error(`Generated files are stale (${stale.join(', ')}): run \`npm run generate\` and commit the result.`);
    return 1;
  }
  if (check) console.log('Generated files are up to date.');
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.includes('--check'));
}
