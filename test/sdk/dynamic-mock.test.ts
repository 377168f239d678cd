/**
 * The dynamic mock front-end teams fake the API with: `prism mock --dynamic`, which generates every answer from the
 * schemas (json-schema-faker) instead of serving the examples. The README's flow (list, create, read, publish) goes
 * to it several times, since every answer is drawn anew; each must come within a few seconds and be one the document
 * declares, its body valid by the registry's own reply validators. The document's root `x-json-schema-faker` keeps
 * pages short and `x-faker` keeps amounts above 0 (docs/decisions/0052-dynamic-mock-options-in-the-document.md).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, resolve } from '../../src/contract/document.js';
import { replyBodyAt } from '../../src/contract/validators.js';
import { KEYS } from '../helpers/server.js';
import { startPrism, type RunningPrism } from '../helpers/prism.js';
import { readmeCreateBody } from './sdk-project.js';

/** The rendition the README gives front-end teams: the bundled JSON the registry serves (and the repository holds). */
const SERVED = fileURLToPath(new URL('../../src/contract/generated/openapi.json', import.meta.url));
/** An answer drawn from the schemas takes well under a second; a loaded machine gets some slack. */
const QUICK_MS = 5_000;
const ROUNDS = 4;

const ID = '6aa3093c0b00447abefcacf9a11da277';
const TOKEN = '431a00c918cd47d48d6f37d62f631c37';
let mock: RunningPrism | undefined;

beforeAll(async () => {
  mock = await startPrism(['mock', '--dynamic', SERVED]);
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

/** The registry's validator of the JSON answer `operationId` declares for `status`. */
function answerValidator(operationId: string, status: number) {
  const operation = OPERATIONS.find((o) => o.operationId === operationId);
  const declared = operation?.responses[String(status)];
  if (declared === undefined) throw new Error(`${operationId}: ${status} is not declared`);
  const { pointer } = resolve({ $ref: `#${declared}` }, declared);
  return replyBodyAt(`${pointer}/content/application~1json/schema`);
}

describe('prism mock --dynamic, on the served document', () => {
  const auth = { authorization: `Basic ${btoa(`${KEYS.broker}:`)}` };

  async function call(method: string, path: string, body?: unknown) {
    const started = performance.now();
    const response = await fetch(`${mock!.url}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      json: JSON.parse(text) as unknown,
      ms: performance.now() - started,
    };
  }

  it("answers the README's flow quickly, each answer valid by the registry's reply validators", async () => {
    const create = await readmeCreateBody();
    const steps: [operationId: string, method: string, path: string, status: number, body?: unknown][] = [
      ['listAssets', 'GET', '/assets', 200],
      ['createAsset', 'POST', '/assets', 201, create],
      ['getAsset', 'GET', `/assets/${ID}`, 200],
      ['patchAsset', 'PATCH', `/assets/${ID}?acc_token=${TOKEN}`, 200, { data: { status: 'pending' } }],
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [operationId, method, path, status, body] of steps) {
        const answer = await call(method, path, body);
        const what = `${method} ${path}: ${JSON.stringify(answer.json).slice(0, 500)}`;
        expect(answer.status, what).toBe(status);
        expect(answer.type).toMatch(/^application\/json/);
        expect(answer.ms, what).toBeLessThan(QUICK_MS);
        const validate = answerValidator(operationId, status);
        expect(validate(answer.json), `${what}\n${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  }, 120_000);
});
