import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { toAjvSchema } from '../../scripts/generate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('scripts/generate.ts', () => {
  it('--check passes: src/generated matches openapi/openapi.yaml', async () => {
    const { stdout } = await run(`${ROOT}node_modules/.bin/tsx`, ['scripts/generate.ts', '--check'], { cwd: ROOT });
    expect(stdout).toContain('up to date');
  }, 120_000);

  it('marks every generated file as generated', async () => {
    const types = await readFile(`${ROOT}src/generated/openapi.d.ts`, 'utf8');
    const schemas = JSON.parse(await readFile(`${ROOT}src/generated/schemas.json`, 'utf8')) as { $comment: string };
    const docs = await readFile(`${ROOT}src/generated/docs.html`, 'utf8');
    expect(types.split('\n')[0]).toMatch(/^\/\/ generated .* do not edit/);
    expect(schemas.$comment).toMatch(/^generated .* do not edit/);
    expect(docs.split('\n')[1]).toMatch(/^<!-- generated .* do not edit/);
  });

  it('the docs page loads nothing from the network', async () => {
    const docs = await readFile(`${ROOT}src/generated/docs.html`, 'utf8');
    expect(docs).not.toMatch(/<script[^>]+src=/i);
    expect(docs).not.toMatch(/<link[^>]+href="https?:/i);
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
});
