/** The contract, its page and the health probe, served by the real registry. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useServer } from '../helpers/server.js';
import { DOCS_PAGE } from '../../src/plugins/docs-page.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { anonymous } = useServer();

describe('service operations', () => {
  it('serves the document as JSON, the same as openapi/openapi.yaml', async () => {
    const response = await anonymous.get('/api/0.1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual(parse(readFileSync(`${ROOT}openapi/openapi.yaml`, 'utf8')));
  });

  it('serves the same document as OpenAPI 3.0.3 beside it, the generated rendition', async () => {
    const response = await anonymous.get('/api/0.1/openapi-3.0.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual(JSON.parse(readFileSync(`${ROOT}src/contract/generated/openapi-3.0.json`, 'utf8')));
    expect(response.json).toMatchObject({ openapi: '3.0.3', paths: { '/openapi-3.0.json': {}, '/assets': {} } });
  });

  it('serves the documentation page', async () => {
    const response = await anonymous.get('/api/0.1/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toBe(DOCS_PAGE);
    expect(response.text).toContain('Claim-right asset registry');
  });

  it('answers the health probe while the store answers', async () => {
    const response = await anonymous.get('/api/0.1/health');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ok', writes: 'accepted' });
  });
});

describe('the health probe and the rate limit', () => {
  const limited = useServer({ RATE_LIMIT_MAX: '2' });

  it('is not counted (x-rate-limit: false in the document), while the other operations are', async () => {
    for (let probe = 0; probe < 5; probe++) expect((await limited.anonymous.get('/api/0.1/health')).status).toBe(200);
    const statuses = [];
    for (let read = 0; read < 3; read++) statuses.push((await limited.anonymous.get('/api/0.1/assets')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await limited.anonymous.get('/api/0.1/health')).status).toBe(200);
  });
});
