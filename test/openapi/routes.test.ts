import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import docsPage, { DOCS_PAGE } from '../../src/plugins/docs-page.js';
import openapiRoutes from '../../src/routes/openapi.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const app = Fastify();

beforeAll(async () => {
  await app.register(docsPage, { prefix: '/api/0.1' });
  await app.register(openapiRoutes);
  await app.ready();
});
afterAll(() => app.close());

describe('routes/openapi.ts', () => {
  it('serves the document as JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/0.1/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual(parse(readFileSync(`${ROOT}openapi/openapi.yaml`, 'utf8')));
  });

  it('serves the documentation page', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/0.1/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe(DOCS_PAGE);
    expect(response.body).toContain('Claim-right asset registry');
  });
});
