/**
 * docs/decisions/0045-bounded-answers.md: no body, however deeply nested within BODY_LIMIT, makes any operation
 * answer 500 (the nesting placed wherever a handler might walk it); a 422 lists a bounded number of field errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { useServer } from '../helpers/server.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { uploadFile } from '../helpers/uploads.js';
import { OPERATIONS } from '../../src/contract/document.js';
import { rawConnection } from '../helpers/raw.js';

const BODY_LIMIT = 1_048_576;

/** `depth` levels of one kind of nesting around `leaf`, as JSON text (built as text: no stack needed). */
function nested(kind: 'array' | 'object' | 'mixed', depth: number, leaf: string): string {
  const open = { array: '[', object: '{"a":', mixed: '[{"a":' }[kind];
  const close = { array: ']', object: '}', mixed: '}]' }[kind];
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
}

/** Where the nesting goes: a body is `{…}` with the nesting at one of these paths (or the whole body). */
const PLACES = [
  [],
  ['data'],
  ['data', 'title'],
  ['data', 'unknownField'],
  ['data', 'assetCustodian'],
  ['data', 'assetCustodian', 'address'],
  ['data', 'items'],
  ['data', 'documents'],
  ['data', 'id'],
  ['data', 'transfer'],
  ['data', 'url'],
  ['data', 'hash'],
  ['access'],
  ['access', 'token'],
  ['options'],
  ['elsewhere'],
] as const;

function bodyAt(place: readonly string[], value: string): string {
  let text = value;
  for (let i = place.length - 1; i >= 0; i--) text = `{${JSON.stringify(place[i])}:${text}}`;
  return text;
}

/** The status of a GET of the change stream sent with `body`, read off the socket (the stream itself is left). */
async function streamStatus(url: string, target: string, body: string): Promise<number> {
  const connection = await rawConnection(url);
  connection.write(
    `GET ${target} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await connection.waitFor((text) => /^HTTP\/1\.1 \d{3} /.test(text), 10_000);
  connection.destroy();
  return Number(connection.received().slice(9, 12));
}

describe('deeply nested bodies', () => {
  const server = useServer({ BODY_LIMIT: String(BODY_LIMIT) });
  const { admin, broker } = server;

  it('never make an operation answer 500', async () => {
    const { id, token } = await createAsset(broker);
    const file = await uploadFile(broker);
    const document = await broker.post(
      `/api/0.1/assets/${id}/documents`,
      { data: { ...file, documentType: 'notice' } },
      { token },
    );
    expect(document.status).toBe(201);
    const transfer = await broker.post('/api/0.1/transfers', { data: {} });
    const key = new URL(file.url).pathname.split('/').pop()!;
    const values: Record<string, string> = {
      asset_id: id,
      document_id: document.json.data.id,
      transfer_id: transfer.json.data.id,
      key,
    };
    const operations = OPERATIONS.filter((operation) => operation.method !== 'HEAD');

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.constantFrom(...PLACES),
        fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
        // From shallow to as deep as the body limit allows (a mixed level is 8 bytes).
        fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 200, max: 120_000 })),
        fc.constantFrom('null', '1', '"x"', '{}', '[]'),
        fc.constantFrom('admin', 'broker'),
        async (operation, place, kind, depth, leaf, who) => {
          const path = operation.url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? name);
          const body = bodyAt(place, nested(kind, depth, leaf));
          const what = `${operation.operationId} ${place.join('.')} ${kind}×${depth}`;
          if (operation.operationId === 'streamAssetChanges') {
            // A stream never ends: its status line is all there is to judge.
            expect(await streamStatus(server.url, `${path}?acc_token=${token}`, body), what).toBeLessThan(500);
            return;
          }
          const client = who === 'admin' ? admin : broker;
          const res = await client.request(operation.method, `${path}?acc_token=${token}`, {
            body,
            headers: { 'content-type': 'application/json' },
          });
          expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  }, 600_000);

  it.each(PLACES.map((place) => [place.join('.') || '(the body)', place] as const))(
    'nested 100,000 deep at %s: every write answers below 500',
    async (_name, place) => {
      const { id, token } = await createAsset(broker);
      const transfer = await broker.post('/api/0.1/transfers', { data: {} });
      const writes: [string, string][] = [
        ['POST', '/api/0.1/assets'],
        ['PATCH', `/api/0.1/assets/${id}`],
        ['POST', `/api/0.1/assets/${id}/ownership`],
        ['POST', '/api/0.1/transfers'],
        ['POST', `/api/0.1/assets/${id}/documents`],
      ];
      expect(transfer.status).toBe(201);
      for (const kind of ['array', 'object'] as const) {
        const body = bodyAt(place, nested(kind, 100_000, 'null'));
        for (const [method, path] of writes) {
          const res = await broker.request(method, `${path}?acc_token=${token}`, {
            body,
            headers: { 'content-type': 'application/json' },
          });
          expect(res.status, `${method} ${path} ${kind}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        }
      }
    },
    120_000,
  );
});

describe('422 answers', () => {
  const server = useServer();
  const { broker } = server;

  it('list at most 100 field errors, then how many were left out', async () => {
    const data: Record<string, unknown> = validAsset();
    for (let i = 0; i < 40_000; i++) data[`unknown${i}`] = i;
    const res = await broker.post('/api/0.1/assets', { data });
    expect(res.status).toBe(422);
    const errors = res.json.errors as { location: string; name: string; description: unknown }[];
    expect(errors).toHaveLength(101);
    expect(errors.slice(0, 100).every((entry) => entry.description === 'Rogue field')).toBe(true);
    expect(errors[100]).toEqual({ location: 'body', name: 'data', description: '39900 more errors left out' });
    expect(res.raw.length).toBeLessThan(20_000);
  });

  it('count errors inside one field too', async () => {
    const address: Record<string, unknown> = { countryName: 'Україна' };
    for (let i = 0; i < 40_000; i++) address[`unknown${i}`] = i;
    const data = validAsset();
    data.assetCustodian.address = address;
    const res = await broker.post('/api/0.1/assets', { data });
    expect(res.status).toBe(422);
    expect(res.raw.length).toBeLessThan(20_000);
    expect(res.json.errors.at(-1)).toEqual({
      location: 'body',
      name: 'data',
      description: '39900 more errors left out',
    });
  });

  it('a hundred errors are listed whole, with no extra entry', async () => {
    const data: Record<string, unknown> = validAsset();
    for (let i = 0; i < 100; i++) data[`unknown${i}`] = i;
    const res = await broker.post('/api/0.1/assets', { data });
    expect(res.status).toBe(422);
    expect(res.json.errors).toHaveLength(100);
  });
});
