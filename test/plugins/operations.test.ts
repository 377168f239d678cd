/** The operations come from the document: one handler per operationId, 405 from its paths, parameters checked. */
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import errors from '../../src/plugins/errors.js';
import operations from '../../src/plugins/operations.js';
import { API_PREFIX, OPERATIONS, allowedMethods } from '../../src/contract/document.js';
import { operationHandlers } from '../../src/routes/index.js';
import { createServices } from '../../src/services/index.js';
import { logIdentity } from '../../src/services/log/identity.js';
import { ensureSigningKey } from '../../src/services/signing.js';
import type { AssetStore } from '../../src/store/types.js';
import { useServer } from '../helpers/server.js';

const server = useServer();
const { admin, anonymous, broker } = server;

describe('the operation map', () => {
  const settings = {
    timeZone: 'Europe/Kyiv',
    assetIdPrefix: 'UA-AR-DGF',
    historyPageBytes: 4_194_304,
    streams: { maxClients: 10, maxPerClient: 10, maxUnread: 1_048_576, unreadTimeout: 30_000, heartbeat: 15_000 },
  };
  /** The document service's settings, with the test server's key. */
  const files = () => ({
    maxBytes: 1024,
    apiPrefix: API_PREFIX,
    signingKey: ensureSigningKey(join(server.dataDir, 'ds-key.pem')).key,
    external: undefined,
  });
  const silent = { info: () => undefined, warn: () => undefined };
  const handlers = (store: AssetStore) =>
    operationHandlers(
      createServices(
        store,
        {
          ...settings,
          files: files(),
          log: logIdentity(ensureSigningKey(join(server.dataDir, 'log.key')).key, {
            origin: undefined,
            publicUrl: undefined,
          }),
        },
        silent,
      ),
      () => undefined,
    );

  it('has exactly one handler for every operation of the document', () => {
    expect(Object.keys(handlers(server.store)).sort()).toEqual(
      OPERATIONS.map((operation) => operation.operationId).sort(),
    );
  });

  it('the API prefix is the document servers URL', () => {
    expect(API_PREFIX).toBe('/api/0.1');
    expect(OPERATIONS.every((operation) => operation.url.startsWith(`${API_PREFIX}/`))).toBe(true);
  });

  it.each([
    [
      'a missing handler',
      (all: Record<string, unknown>) => Object.fromEntries(Object.entries(all).filter(([id]) => id !== 'getAsset')),
      /no handler for \[getAsset\]/,
    ],
    [
      'a handler of no operation',
      (all: Record<string, unknown>) => ({ ...all, deleteAsset: async () => ({}) }),
      /no operation for \[deleteAsset\]/,
    ],
  ])('refuses to start with %s', async (_case, change, message) => {
    const app = Fastify({ logger: false });
    await app.register(errors);
    await expect(
      app
        .register(operations, {
          handlers: change(handlers(server.store)) as Parameters<typeof operations>[1]['handlers'],
        })
        .ready(),
    ).rejects.toThrow(message);
    await app.close();
  });
});

describe('405 from the document paths', () => {
  const paths = [...new Set(OPERATIONS.map((operation) => operation.path))];

  it.each(paths)('%s: methods the document lacks are 405 with Allow listing the documented ones', async (path) => {
    const allow = allowedMethods(path);
    const url = `${API_PREFIX}${path.replace(/\{[^}]+\}/g, '0123456789abcdef0123456789abcdef')}`;
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST'].filter((m) => !allow.includes(m))) {
      const response = await anonymous.request(method, url, { json: { data: {} } });
      expect(response.status, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow.join(', '));
    }
  });
});

/** Every query, header and path parameter of the document with a length limit, per operation. */
const LIMITED = OPERATIONS.flatMap((operation) =>
  operation.parameters
    .filter((parameter) => parameter.in !== 'cookie' && typeof parameter.schema?.maxLength === 'number')
    .map((parameter) => ({ operation, parameter, maxLength: parameter.schema?.maxLength as number })),
);

describe("every length limit the document declares on a parameter is the server's", () => {
  it('the document declares limits in every place: query, header and path', () => {
    expect(new Set(LIMITED.map(({ parameter }) => parameter.in))).toEqual(new Set(['query', 'header', 'path']));
  });

  it.each(
    LIMITED.map(
      (entry) => [`${entry.operation.operationId} ${entry.parameter.in} ${entry.parameter.name}`, entry] as const,
    ),
  )(
    '%s: one character over the limit is 400 at its place and name',
    async (_name, { operation, parameter, maxLength }) => {
      const tooLong = 'a'.repeat(maxLength + 1);
      const id = '0123456789abcdef0123456789abcdef';
      // The other path parameters as the document exemplifies them (a `rev` is a number), else an id.
      const example = (name: string) =>
        operation.parameters.find((p) => p.in === 'path' && p.name === name)?.example as string | undefined;
      const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
        name === parameter.name ? tooLong : (example(name) ?? id),
      );
      const query = parameter.in === 'query' ? `?${parameter.name}=${tooLong}` : '';
      const headers = parameter.in === 'header' ? { [parameter.name.toLowerCase()]: tooLong } : {};
      const json = operation.requestTypes.includes('application/json') ? { data: {} } : undefined;
      const response = await admin.request(operation.method, `${API_PREFIX}${path}${query}`, { headers, json });
      // A tile path tlog-tiles would not write is no path at all (decisions.md §17): 404 as any unknown URL.
      if (operation.parameters.some((p) => p['x-rest-of-path'] === true) && parameter.in === 'path') {
        expect(response.status).toBe(404);
        expect(response.json).toMatchObject({ status: 'error', errors: [{ location: 'url', name: 'path' }] });
        return;
      }
      expect(response.status).toBe(400);
      const place = { query: 'querystring', header: 'header', path: 'url' }[
        parameter.in as 'query' | 'header' | 'path'
      ];
      const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
      expect(response.json).toMatchObject({ status: 'error', errors: [{ location: place, name }] });
    },
  );
});

describe('parameters checked by the route schemas from the document', () => {
  it('a query parameter over its declared length is 400 at its place and name', async () => {
    const response = await anonymous.get(`${API_PREFIX}/assets?opt_fields=${'a'.repeat(1001)}`);
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({ location: 'querystring', name: 'opt_fields' });
  });

  it('a path parameter over its declared length is 400 on the url', async () => {
    const response = await anonymous.get(`${API_PREFIX}/assets/${'a'.repeat(201)}`);
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({ location: 'url', name: 'asset_id' });
  });

  it('a header over its declared length is 400 on the header', async () => {
    const response = await broker.patch(
      `${API_PREFIX}/assets/0123456789abcdef0123456789abcdef`,
      { data: {} },
      {
        headers: { 'x-access-token': 't'.repeat(201) },
      },
    );
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({ location: 'header', name: 'x-access-token' });
  });
});
