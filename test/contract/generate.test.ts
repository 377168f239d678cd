import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ajvDefinitions,
  REGISTRY_FORMATS,
  toAjvSchema,
  withBooleanExclusiveBounds,
  withRules,
  withSettingsTable,
} from '../../scripts/generate.js';
import { settingsTable } from '../../src/config/help.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('scripts/generate.ts', () => {
  it('--check passes: src/contract/generated matches openapi/openapi.yaml', async () => {
    const { stdout } = await run(`${ROOT}node_modules/.bin/tsx`, ['scripts/generate.ts', '--check'], { cwd: ROOT });
    expect(stdout).toContain('up to date');
  }, 120_000);

  it('marks every generated file as generated', async () => {
    const types = await readFile(`${ROOT}src/contract/generated/openapi.d.ts`, 'utf8');
    const schemas = JSON.parse(await readFile(`${ROOT}src/contract/generated/schemas.json`, 'utf8')) as {
      $comment: string;
    };
    const settingsPage = await readFile(`${ROOT}docs/settings.md`, 'utf8');
    expect(types.split('\n')[0]).toMatch(/^\/\/ generated .* do not edit/);
    expect(schemas.$comment).toMatch(/^generated .* do not edit/);
    expect(settingsPage).toMatch(/<!-- settings:start \(written by npm run generate .* do not edit\) -->/);
  });

  it('withSettingsTable rewrites only what lies between the settings markers', () => {
    const page = 'before\n<!-- settings:start (generated) -->\nold table\n<!-- settings:end -->\nafter\n';
    expect(withSettingsTable(page)).toBe(
      `before\n<!-- settings:start (generated) -->\n${settingsTable()}\n<!-- settings:end -->\nafter\n`,
    );
    expect(() => withSettingsTable('no markers')).toThrow('markers');
  });

  it('toAjvSchema points component refs into $defs and drops x-* extensions, not properties named x-*', () => {
    const schema = {
      type: 'object',
      'x-internal': true,
      properties: {
        'x-name': { type: 'string', 'x-order': 1 },
        value: { $ref: '#/components/schemas/Value' },
        title: { $ref: '#/components/schemas/AssetFields/properties/title' },
      },
      examples: [{ 'x-name': 'kept', $ref: 'data, not a reference' }],
    };
    expect(toAjvSchema(schema)).toEqual({
      type: 'object',
      properties: {
        'x-name': { type: 'string' },
        value: { $ref: '#/$defs/Value' },
        title: { $ref: '#/$defs/AssetFields/properties/title' },
      },
      examples: [{ 'x-name': 'kept', $ref: 'data, not a reference' }],
    });
  });

  it("ajvDefinitions gives the registry's validators its own formats where the document has standard patterns", () => {
    const shaped = { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 3, description: 'A currency code.' };
    const schemas = Object.fromEntries(Object.keys(REGISTRY_FORMATS).map((name) => [name, shaped]));
    const definitions = ajvDefinitions({ ...schemas, Other: shaped });
    expect(definitions.CurrencyCode).toEqual({ type: 'string', description: 'A currency code.', format: 'iso4217' });
    expect(definitions.Md5Hash).toMatchObject({ format: 'md5-hash' });
    expect(definitions.Other).toEqual(shaped);
    expect(() => ajvDefinitions({ Other: shaped })).toThrow(/names CavCode/);
  });

  it("withRules adds a rule's keywords to its component, and refuses to replace one or to name a missing component", () => {
    const definitions = { ContactPoint: { type: 'object', properties: { email: { type: 'string' } } } };
    const rule = { component: 'ContactPoint', says: 'email', schema: { required: ['email'] } };
    expect(withRules(definitions, { 'needs-email': rule })).toEqual({
      ContactPoint: { ...definitions.ContactPoint, required: ['email'] },
    });
    expect(definitions.ContactPoint).not.toHaveProperty('required');
    expect(() => withRules(definitions, { clash: { ...rule, schema: { type: 'string' } } })).toThrow(
      /replace ContactPoint's own type/,
    );
    expect(() => withRules(definitions, { lost: { ...rule, component: 'Gone' } })).toThrow(/names Gone/);
  });

  it('withBooleanExclusiveBounds writes numeric exclusive bounds as OpenAPI 3.0 does, and leaves examples alone', () => {
    const schema = {
      type: 'object',
      properties: { amount: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 } },
      examples: [{ exclusiveMinimum: 1 }],
    };
    expect(withBooleanExclusiveBounds(schema)).toEqual({
      type: 'object',
      properties: {
        amount: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
      },
      examples: [{ exclusiveMinimum: 1 }],
    });
  });
});
