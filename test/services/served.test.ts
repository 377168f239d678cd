/** The one typed boundary between stored JSON and the contract's types (src/services/served.ts). */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };
import { servedAsset, servedDocument, StoredValueError } from '../../src/services/served.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const asset = served.components.schemas.Asset.examples[0]!;
const document = served.components.schemas.Document.examples[0]!;

describe('stored values become contract types only through the contract', () => {
  it('passes a stored asset and document that the contract describes, as they are', () => {
    expect(servedAsset(asset)).toBe(asset);
    expect(servedDocument(document)).toBe(document);
  });

  it('refuses a stored value the contract does not describe, naming what is wrong', () => {
    const { id: _id, ...withoutId } = asset;
    expect(() => servedAsset(withoutId)).toThrow(StoredValueError);
    expect(() => servedAsset(withoutId)).toThrow(
      /asset does not match the contract: \/ must have required property 'id'/,
    );
    expect(() => servedDocument({ ...document, hash: 42 })).toThrow(/\/hash must be string/);
  });

  it('leaves no double cast (`as unknown as`) in src/', async () => {
    const files = (await readdir(SRC, { recursive: true })).filter(
      (name) => name.endsWith('.ts') && !name.startsWith('generated'),
    );
    const casts: string[] = [];
    for (const name of files) {
      const text = await readFile(join(SRC, name), 'utf8');
      text.split('\n').forEach((line, index) => {
        if (line.includes('as unknown as')) casts.push(`src/${name}:${index + 1}`);
      });
    }
    expect(files.length).toBeGreaterThan(50);
    expect(casts).toEqual([]);
  });
});
