/**
 * CORS in the real registry (plugins/cors.ts): public reads answer any origin; preflights and writes only the
 * origins of CORS_ORIGINS; no origin is trusted by default. Every answer is checked against the document, which
 * declares these headers on every answer.
 */
import { describe, expect, it } from 'vitest';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };
import { CORS_EXPOSED_HEADERS } from '../../src/plugins/cors.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import { useServer } from '../helpers/server.js';

const TRUSTED = 'https://broker.example.org';
const OTHER = 'https://elsewhere.example.net';

function preflight(method: string, origin: string): { headers: Record<string, string> } {
  return {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  };
}

describe('with CORS_ORIGINS set', () => {
  const server = useServer({ CORS_ORIGINS: `${TRUSTED}, https://second.example.org` });
  const { anonymous, broker } = server;

  it('answers a public read from any origin with *, its headers exposed, no credentials', async () => {
    const { id } = await createAsset(broker);
    const response = await anonymous.get(`/api/0.1/assets/${id}`, { headers: { origin: OTHER } });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-expose-headers']).toBe(CORS_EXPOSED_HEADERS.join(', '));
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.headers.vary).toContain('Origin');
  });

  it("answers a trusted origin's preflight 204 before any check, with the methods and headers a page may send", async () => {
    const response = await anonymous.request('OPTIONS', '/api/0.1/assets', {
      ...preflight('POST', TRUSTED),
      autoCookie: false,
    });
    expect(response.status).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': TRUSTED,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH',
      'access-control-max-age': '600',
    });
    expect(response.headers['access-control-allow-headers']).toContain('Authorization');
    expect(response.headers['access-control-allow-headers']).toContain('X-Access-Token');
    expect(response.text).toBe('');
  });

  it("answers another origin's preflight without CORS headers: a plain OPTIONS, 405", async () => {
    const response = await anonymous.request('OPTIONS', '/api/0.1/assets', preflight('POST', OTHER));
    expect(response.status).toBe(405);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
    expect(response.json.status).toBe('error');
  });

  it('lets a trusted origin write, with credentials, and read its error answers too', async () => {
    const created = await broker.post('/api/0.1/assets', { data: validAsset() }, { headers: { origin: TRUSTED } });
    expect(created.status).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(TRUSTED);
    expect(created.headers['access-control-allow-credentials']).toBe('true');
    const refused = await anonymous.post('/api/0.1/assets', { data: validAsset() }, { headers: { origin: TRUSTED } });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(TRUSTED);
  });

  it('gives a write from another origin no CORS headers (the browser keeps the answer from the page)', async () => {
    const response = await broker.post('/api/0.1/assets', { data: validAsset() }, { headers: { origin: OTHER } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('by default (no CORS_ORIGINS)', () => {
  const { anonymous, broker } = useServer();

  it('trusts no origin: every preflight is a plain OPTIONS (405), reads still answer *', async () => {
    for (const origin of [TRUSTED, 'http://127.0.0.1:6543']) {
      const response = await anonymous.request('OPTIONS', '/api/0.1/assets', preflight('PATCH', origin));
      expect(response.status).toBe(405);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
    const read = await anonymous.get('/api/0.1/assets', { headers: { origin: TRUSTED } });
    expect(read.headers['access-control-allow-origin']).toBe('*');
    const write = await broker.post('/api/0.1/assets', { data: validAsset() }, { headers: { origin: TRUSTED } });
    expect(write.status).toBe(201);
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers to a request without Origin (not from a page)', async () => {
    const read = await anonymous.get('/api/0.1/assets');
    expect(read.status).toBe(200);
    expect(Object.keys(read.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

it('the document declares the CORS headers on every answer of every operation', () => {
  const answers: [string, Record<string, unknown>][] = [];
  const resolve = (node: any): any =>
    typeof node.$ref === 'string'
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, key: string) => at[key], served)
      : node;
  for (const [path, item] of Object.entries<any>(served.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (method === 'parameters') continue;
      for (const [status, response] of Object.entries<any>(operation.responses))
        answers.push([`${method} ${path} ${status}`, resolve(response)]);
    }
  }
  expect(answers.length).toBeGreaterThan(100);
  const missing = answers
    .filter(
      ([, response]) =>
        ![
          'Access-Control-Allow-Origin',
          'Access-Control-Allow-Credentials',
          'Access-Control-Expose-Headers',
          'Vary',
        ].every((name) => name in ((response.headers as object | undefined) ?? {})),
    )
    .map(([where]) => where);
  expect(missing).toEqual([]);
});
