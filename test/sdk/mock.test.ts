/**
 * A mock server from the document, as docs/clients.md starts it: `prism mock` (static: the
 * document's examples) on the document a registry serves. The README's five requests go to it, and every answer
 * must be one the document declares for that request, its body valid against the answer's schema. Prism serves
 * the document's paths without the relative `servers` prefix (`/api/0.1`): a client points at the mock's root,
 * as docs/clients.md says, and the prefixed path is 404 there.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };
import { addRegistryFormats } from '../../src/contract/formats.js';
import { KEYS, useServer } from '../helpers/server.js';
import { servedDocumentFile, startPrism, type RunningPrism } from '../helpers/prism.js';
import { readmeCreateBody } from './sdk-project.js';

const server = useServer({}, { via: 'http' });
let mock: RunningPrism | undefined;

// The document's own schemas, as a contract tester reads them (the answers' schemas by JSON pointer).
const ajv = addRegistryFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ ...served, $id: 'served' });

/** The schema the document declares for an answer of `method path` with this status, as JSON. */
function answerValidator(path: string, method: string, status: number) {
  const response = (served.paths as Record<string, any>)[path]?.[method]?.responses?.[String(status)];
  if (response === undefined) throw new Error(`${method} ${path}: ${status} is not declared`);
  const at =
    typeof response.$ref === 'string'
      ? response.$ref
      : `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}`;
  return ajv.compile({ $ref: `served${at}/content/application~1json/schema` });
}

beforeAll(async () => {
  mock = await startPrism(['mock', await servedDocumentFile(`${server.url}/api/0.1/openapi.json`)]);
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

describe('prism mock, from the served document', () => {
  const auth = { authorization: `Basic ${btoa(`${KEYS.broker}:`)}` };

  async function call(
    method: string,
    path: string,
    init: { body?: unknown; key?: boolean } = {},
  ): Promise<{ status: number; type: string; json: any }> {
    const response = await fetch(`${mock!.url}${path}`, {
      method,
      headers: {
        ...(init.key ? auth : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      json: text === '' ? undefined : JSON.parse(text),
    };
  }

  it("answers the README's five requests as the document says, at the mock's root", async () => {
    const steps: [string, string, string, number, { body?: unknown; key?: boolean }][] = [
      ['get', '/assets', '/assets', 200, {}],
      ['post', '/assets', '/assets', 201, { body: await readmeCreateBody(), key: true }],
      [
        'patch',
        '/assets/{asset_id}',
        `/assets/6aa3093c0b00447abefcacf9a11da277?acc_token=431a00c918cd47d48d6f37d62f631c37`,
        200,
        { body: { data: { status: 'pending' } }, key: true },
      ],
      ['get', '/assets', '/assets', 200, {}],
      ['get', '/assets/{asset_id}', '/assets/6aa3093c0b00447abefcacf9a11da277?opt_pretty=1', 200, {}],
    ];
    for (const [method, template, path, status, init] of steps) {
      const answer = await call(method.toUpperCase(), path, init);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.json)}\n${mock!.log()}`).toBe(status);
      expect(answer.type).toMatch(/^application\/json/);
      const validate = answerValidator(template, method, status);
      expect(validate(answer.json), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuses a write without the key as the document says (401)', async () => {
    const answer = await call('POST', '/assets', { body: await readmeCreateBody() });
    expect(answer.status).toBe(401);
  });

  it('is started as the command of docs/clients.md says', async () => {
    const page = await readFile(fileURLToPath(new URL('../../docs/clients.md', import.meta.url)), 'utf8');
    expect(page).toContain(
      'curl -s http://127.0.0.1:6543/api/0.1/openapi.json -o openapi.json && npx @stoplight/prism-cli mock openapi.json',
    );
    expect(page).toContain('point a client at `http://127.0.0.1:4010`');
  });

  it('serves no path under the relative servers prefix: docs/clients.md points clients at the root', async () => {
    expect((await call('GET', '/api/0.1/assets')).status).toBe(404);
  });
});
