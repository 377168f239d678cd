/**
 * docs/decisions/0043-hosts-and-public-url.md: the registry answers only to its own hosts, and writes absolute URLs
 * on PUBLIC_URL or the (allowed) origin the request came in by, never on a host a client chose.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../helpers/server.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { expectOneError } from '../helpers/expect.js';
import type { Client, Response } from '../helpers/client.js';
import { rawConnection, lastJsonBody } from '../helpers/raw.js';
import { uploadFile, sendForm } from '../helpers/uploads.js';

const FOREIGN = 'The registry does not answer to this host';

/** Every absolute URL in an answer's headers and body. */
function urlsIn(res: Response): string[] {
  const text = `${Object.values(res.headers).join('\n')}\n${res.text}`;
  return text.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"',)]+/gi) ?? [];
}

/** Requests with a given Host header, by inject (the app sees exactly that header). */
function withHost(client: Client, host: string) {
  return {
    get: (path: string) => client.get(path, { headers: { host } }),
    post: (path: string, json: unknown, token?: string) => client.post(path, json, { headers: { host }, token }),
  };
}

describe('without PUBLIC_URL', () => {
  const server = useServer({ ALLOWED_HOSTS: 'registry.example.org, Node1.Internal' });
  const { anonymous, broker } = server;

  it.each([
    'evil.example',
    'evil.example:80',
    'localhost.evil.example',
    '127.0.0.2',
    'registry.example.org.evil',
    'local host',
    'localhost:http',
    'a@localhost',
  ])('refuses Host %j with 400 header/Host, on every path', async (host) => {
    for (const path of ['/api/0.1/assets', '/api/0.1/health', '/api/0.1/nothing', '/api/0.1/openapi.json']) {
      expectOneError(await anonymous.get(path, { headers: { host } }), 400, 'header', 'Host', FOREIGN);
    }
    const created = await broker.post('/api/0.1/assets', { data: validAsset() }, { headers: { host } });
    expectOneError(created, 400, 'header', 'Host', FOREIGN);
  });

  it.each([
    'localhost',
    'LOCALHOST:<port>',
    '127.0.0.1',
    '127.0.0.1:<port>',
    '[::1]',
    '[::1]:<port>',
    'registry.example.org',
    'node1.internal:<port>',
  ])('answers to Host %j, and writes its URLs there', async (pattern) => {
    const host = pattern.replace('<port>', new URL(server.url).port);
    const page = await anonymous.get('/api/0.1/assets', { headers: { host } });
    expect(page.status).toBe(200);
    expect(page.json.next_page.uri).toBe(
      `http://${host.toLowerCase()}/api/0.1/assets?offset=${encodeURIComponent(page.json.next_page.offset)}`,
    );
  });

  it('refuses, over HTTP, a Host whose port is not the one the registry listens on (record 0062)', async () => {
    const port = Number(new URL(server.url).port);
    const other = port === 65535 ? port - 1 : port + 1;
    for (const host of [`localhost:${other}`, `127.0.0.1:1`, `[::1]:65535`, `registry.example.org:${other}`]) {
      if (host.endsWith(`:${port}`)) continue;
      const connection = await rawConnection(server.url);
      connection.write(`GET /api/0.1/assets HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      await connection.closed;
      expect(connection.received(), host).toMatch(/^HTTP\/1\.1 400 /);
      expect(connection.received(), host).not.toContain(`:${other}/`);
      expect(lastJsonBody(connection.received())).toMatchObject({
        status: 'error',
        errors: [{ location: 'header', name: 'Host', description: 'The registry does not listen on this port' }],
      });
    }
    for (const host of [`localhost:${port}`, 'localhost', `Registry.Example.org:${port}`]) {
      const connection = await rawConnection(server.url);
      connection.write(`GET /api/0.1/assets HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      await connection.closed;
      expect(connection.received(), host).toMatch(/^HTTP\/1\.1 200 /);
      expect(lastJsonBody(connection.received())).toMatchObject({
        next_page: {
          uri: expect.stringMatching(new RegExp(`^http://${host.toLowerCase().replace(/[.[\]]/g, '\\$&')}/`)),
        },
      });
    }
  });

  it('refuses a missing, an empty and a repeated Host with 400 header/Host, on the socket', async () => {
    const requests = [
      'GET /api/0.1/assets HTTP/1.1\r\nConnection: close\r\n\r\n',
      'GET /api/0.1/assets HTTP/1.0\r\n\r\n',
      'GET /api/0.1/assets HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n',
      `GET /api/0.1/assets HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      `GET /api/0.1/assets HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nHost: ${new URL(server.url).host}\r\nConnection: close\r\n\r\n`,
    ];
    for (const request of requests) {
      const connection = await rawConnection(server.url);
      connection.write(request);
      await connection.closed;
      expect(connection.received(), request).toMatch(/^HTTP\/1\.[01] 400 /);
      expect(lastJsonBody(connection.received())).toMatchObject({
        status: 'error',
        errors: [{ location: 'header', name: 'Host' }],
      });
    }
  });

  it('an upload sent to a foreign host stores nothing and hands out no URL there', async () => {
    const res = await sendForm(
      broker,
      [{ name: 'file', filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }],
      {
        headers: { host: 'evil.example' },
      },
    );
    expectOneError(res, 400, 'header', 'Host', FOREIGN);
    expect(res.text).not.toContain('evil.example');
  });

  it("a document's URL is the service's only on the origin of the request that attaches it", async () => {
    const { id, token } = await createAsset(broker);
    const file = await uploadFile(broker);
    expect(file.url.startsWith(`${server.url}/api/0.1/ds/get/`)).toBe(true);
    const document = { ...file, documentType: 'notice' };
    // Another of the registry's own names is another origin: the URL is not this request's service.
    const elsewhere = await broker.post(
      `/api/0.1/assets/${id}/documents`,
      { data: document },
      { token, headers: { host: 'registry.example.org' } },
    );
    expectOneError(elsewhere, 403, 'body', 'url', 'Can add document only from document service.');
    const here = await broker.post(`/api/0.1/assets/${id}/documents`, { data: document }, { token });
    expect(here.status).toBe(201);
  });

  it('no URL it writes names a host other than the one the request came in by', async () => {
    const host = `Registry.Example.org:${new URL(server.url).port}`;
    const origin = `http://registry.example.org:${new URL(server.url).port}`;
    const as = withHost(broker, host);
    const answers: Response[] = [];
    const created = await as.post('/api/0.1/assets', { data: validAsset() });
    answers.push(created);
    const { id } = created.json.data;
    const token = created.json.access.token;
    answers.push(
      await broker.patch(`/api/0.1/assets/${id}`, { data: { status: 'pending' } }, { token, headers: { host } }),
    );
    const file = await sendForm(
      broker,
      [{ name: 'file', filename: 'n.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF') }],
      { headers: { host } },
    );
    answers.push(file);
    const document = await as.post(
      `/api/0.1/assets/${id}/documents`,
      { data: { ...file.json.data, documentType: 'notice' } },
      token,
    );
    answers.push(document);
    answers.push(await as.get(`/api/0.1/assets/${id}/documents`));
    answers.push(await as.get(`/api/0.1/assets/${id}`));
    answers.push(await as.get('/api/0.1/assets'));
    answers.push(await as.get('/api/0.1/assets?descending=1'));
    answers.push(await as.post('/api/0.1/transfers', { data: {} }));
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(300);
    // The URLs the registry wrote itself, not the ones the asset was sent with.
    const sent = JSON.stringify(validAsset());
    const urls = answers.flatMap(urlsIn).filter((url) => !sent.includes(url));
    expect(urls.length).toBeGreaterThan(8);
    for (const url of urls) expect(url.startsWith(`${origin}/`), url).toBe(true);
  });
});

describe('with PUBLIC_URL', () => {
  const PUBLIC = 'https://registry.example.org';
  const server = useServer({ PUBLIC_URL: `${PUBLIC}/` });
  const { anonymous, broker } = server;

  it('writes every absolute URL on PUBLIC_URL, whatever allowed Host the request came by', async () => {
    const page = await anonymous.get('/api/0.1/assets');
    expect(page.json.next_page.uri.startsWith(`${PUBLIC}/api/0.1/assets?offset=`)).toBe(true);
    const created = await broker.post('/api/0.1/assets', { data: validAsset() }, { headers: { host: 'localhost:9' } });
    expect(created.headers.location).toBe(`${PUBLIC}/api/0.1/assets/${created.json.data.id}`);
    const transfer = await broker.post('/api/0.1/transfers', { data: {} });
    expect(transfer.headers.location).toBe(`${PUBLIC}/api/0.1/transfers/${transfer.json.data.id}`);
    const file = await uploadFile(broker);
    expect(file.url.startsWith(`${PUBLIC}/api/0.1/ds/get/`)).toBe(true);
  });

  it("answers to PUBLIC_URL's host and the loopback names only", async () => {
    expect((await anonymous.get('/api/0.1/health', { headers: { host: 'REGISTRY.example.org' } })).status).toBe(200);
    expect((await anonymous.get('/api/0.1/health', { headers: { host: 'localhost' } })).status).toBe(200);
    expectOneError(
      await anonymous.get('/api/0.1/health', { headers: { host: 'evil.example' } }),
      400,
      'header',
      'Host',
      FOREIGN,
    );
  });

  it('accepts a document only with a URL on PUBLIC_URL', async () => {
    const { id, token } = await createAsset(broker);
    await toPending(broker, id, token);
    const file = await uploadFile(broker);
    const res = await broker.post(
      `/api/0.1/assets/${id}/documents`,
      { data: { ...file, documentType: 'notice' } },
      { token },
    );
    expect(res.status).toBe(201);
    const local = file.url.replace(PUBLIC, server.url);
    const refused = await broker.post(
      `/api/0.1/assets/${id}/documents`,
      { data: { ...file, url: local, documentType: 'notice' } },
      { token },
    );
    expectOneError(refused, 403, 'body', 'url', 'Can add document only from document service.');
  });
});

describe('behind a trusted proxy', () => {
  const server = useServer({ TRUST_PROXY: 'true', ALLOWED_HOSTS: 'registry.example.org' });
  const { anonymous } = server;

  it("a forwarded host must be the registry's too; a forwarded scheme is http or https", async () => {
    const foreign = await anonymous.get('/api/0.1/assets', { headers: { 'x-forwarded-host': 'evil.example' } });
    expectOneError(foreign, 400, 'header', 'Host', FOREIGN);
    const page = await anonymous.get('/api/0.1/assets', {
      headers: { 'x-forwarded-host': 'registry.example.org', 'x-forwarded-proto': 'https' },
    });
    expect(page.json.next_page.uri.startsWith('https://registry.example.org/api/0.1/assets?')).toBe(true);
    const odd = await anonymous.get('/api/0.1/assets', { headers: { 'x-forwarded-proto': 'javascript' } });
    expect(odd.json.next_page.uri.startsWith(`${server.url}/api/0.1/assets?`)).toBe(true);
  });

  it('an API key does not change any of it', async () => {
    const foreign = await anonymous.get('/api/0.1/assets', { key: KEYS.broker, headers: { host: 'evil.example' } });
    expectOneError(foreign, 400, 'header', 'Host', FOREIGN);
  });
});
