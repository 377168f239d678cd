/** The contract, its page and the health probe, served by the real registry. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServer, type TestServer } from '../helpers/server.js';
import { Client } from '../helpers/client.js';
import { DOCS_PAGE } from '../../src/plugins/docs-page.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: TestServer;
let anonymous: Client;

beforeAll(async () => {
  server = await startServer();
  anonymous = new Client(server.url);
});
afterAll(() => server.close());

describe('service operations', () => {
  it('serves the document as JSON, the same as openapi/openapi.yaml', async () => {
    const response = await anonymous.get('/api/0.1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual(parse(readFileSync(`${ROOT}openapi/openapi.yaml`, 'utf8')));
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
    expect(response.json).toEqual({ status: 'ok' });
  });
});
