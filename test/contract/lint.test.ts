import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { toAjvSchema } from '../../scripts/generate.js';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };
import { componentValidator } from '../../src/contract/validators.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const document: any = parse(readFileSync(`${ROOT}openapi/openapi.yaml`, 'utf8'));

type Schema = Record<string, unknown>;

/** Every schema below a component that is not a bare reference, with its location, for the documentation checks. */
function walk(schema: Schema, where: string, out: [string, Schema][]): void {
  if (typeof schema.$ref === 'string') return;
  out.push([where, schema]);
  for (const [name, child] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
    if (typeof child === 'object') walk(child, `${where}.${name}`, out);
  }
  if (typeof schema.items === 'object') walk(schema.items as Schema, `${where}[]`, out);
}

describe('openapi/openapi.yaml', () => {
  it('passes @redocly/cli lint with the rules of redocly.yaml', async () => {
    const args = ['lint', 'openapi/openapi.yaml', '--format=json'];
    const { stdout } = await run(`${ROOT}node_modules/.bin/redocly`, args, { cwd: ROOT });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('passes Spectral with the rules of .spectral.yaml (spectral:oas and the OWASP ruleset): no finding at all', async () => {
    const ruleset = parse(readFileSync(`${ROOT}.spectral.yaml`, 'utf8')) as { extends: string[] };
    expect(ruleset.extends).toEqual(['spectral:oas', '@stoplight/spectral-owasp-ruleset']);
    const args = [
      'lint',
      'openapi/openapi.yaml',
      '--ruleset',
      '.spectral.yaml',
      '--format',
      'json',
      '--quiet',
      '--fail-severity',
      'hint',
    ];
    const { stdout } = await run(`${ROOT}node_modules/.bin/spectral`, args, { cwd: ROOT }).catch(
      (error: { stdout: string }) => error,
    );
    const findings = JSON.parse(stdout) as { code: string; message: string; path: string[] }[];
    expect(findings.map(({ code, message, path }) => `${code} at ${path.join('.')}: ${message}`)).toEqual([]);
  }, 120_000);

  it('its OpenAPI 3.0.3 rendition passes Spectral (spectral:oas, which checks it against the 3.0 schema): no finding at all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spectral-3.0-'));
    try {
      await writeFile(join(dir, 'ruleset.yaml'), 'extends: [spectral:oas]\n');
      const args = [
        'lint',
        'src/contract/generated/openapi-3.0.json',
        '--ruleset',
        join(dir, 'ruleset.yaml'),
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'hint',
      ];
      const { stdout } = await run(`${ROOT}node_modules/.bin/spectral`, args, { cwd: ROOT }).catch(
        (error: { stdout: string }) => error,
      );
      const findings = JSON.parse(stdout) as { code: string; message: string; path: string[] }[];
      expect(findings.map(({ code, message, path }) => `${code} at ${path.join('.')}: ${message}`)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("compiles in a contract tester's Ajv (strict, standard formats of ajv-formats only), and each schema example validates", () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'served', $defs: toAjvSchema(served.components.schemas, true) });
    for (const [name, schema] of Object.entries<Schema>(served.components.schemas)) {
      const validate = ajv.getSchema(`served#/$defs/${name}`);
      expect(validate, name).toBeDefined();
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        expect(validate?.(example), `${name}: ${JSON.stringify(validate?.errors)}`).toBe(true);
      }
    }
  });

  it('describes every component schema and property, with an example', () => {
    const schemas: [string, Schema][] = [];
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Schema>))
      walk(schema, name, schemas);
    const undocumented = schemas.filter(([, s]) => typeof s.description !== 'string').map(([where]) => where);
    const withoutExamples = schemas.filter(([, s]) => !Array.isArray(s.examples)).map(([where]) => where);
    expect(schemas.length).toBeGreaterThan(150);
    expect(undocumented).toEqual([]);
    expect(withoutExamples).toEqual([]);
  });

  it('describes every parameter, header, response and operation, with examples', () => {
    for (const [name, parameter] of Object.entries<Schema>(document.components.parameters)) {
      expect(parameter.description, name).toEqual(expect.any(String));
      // An optional parameter's example is in its description, so a docs page does not send it (record 0051).
      if (parameter.required === true) expect(parameter.example, name).toBeDefined();
      else if (parameter.example === undefined) expect(parameter.description, name).toMatch(/Example: `[^`]+`\./);
    }
    for (const [name, response] of Object.entries<Schema>(document.components.responses)) {
      expect(response.description, name).toEqual(expect.any(String));
      expect((response.content as Record<string, Schema>)['application/json']?.example, name).toBeDefined();
    }
    for (const [path, item] of Object.entries<Record<string, Schema>>(document.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([key]) => key !== 'parameters')) {
        expect(operation.operationId, `${method} ${path}`).toEqual(expect.any(String));
        expect(operation.summary, `${method} ${path}`).toEqual(expect.any(String));
        expect(operation.description, `${method} ${path}`).toEqual(expect.any(String));
      }
    }
  });

  it('compiles every component schema in Ajv strict mode, and each schema example validates', () => {
    for (const [name, schema] of Object.entries<Schema>(document.components.schemas)) {
      const validate = componentValidator(name);
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        expect(validate(example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('closes every response object: Asset refuses a field the registry does not serve', () => {
    const asset = (document.components.schemas.Asset.examples as Schema[])[0] as Schema;
    expect(componentValidator('Asset')(asset)).toBe(true);
    expect(componentValidator('Asset')({ ...asset, rev: 3 })).toBe(false);
    expect(componentValidator('Asset')({ ...asset, value: { ...(asset.value as Schema), extra: 1 } })).toBe(false);
  });

  it('keeps the documented limits: body size, listing page size', () => {
    expect(document.info.description).toContain('1 MiB');
    expect(document.components.parameters.Limit.schema).toMatchObject({ minimum: 1, default: 100 });
    expect(document.components.schemas.ListingPage.properties.data.maxItems).toBe(1000);
  });
});
