/**
 * A contract tester on live traffic: `prism proxy` in front of a real registry checks every answer against the
 * served document, and none may come back with a violation. Prism does not resolve the relative `servers` URL, so
 * the proxy stands for `<registry>/api/0.1` and the clients drop that prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useServer } from '../helpers/server.js';
import { Client, httpTransport, type Transport } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { uploadFile } from '../helpers/uploads.js';
import { servedDocumentFile, startPrism, type RunningPrism } from '../helpers/prism.js';
const API = '/api/0.1';
const UNKNOWN = '0123456789abcdef0123456789abcdef';

/** One request through Prism and what Prism said of its answer. */
interface Exchange {
  request: string;
  status: number;
  violations: unknown[];
}

const server = useServer({}, { via: 'http' });
let prism: RunningPrism | undefined;
const exchanges: Exchange[] = [];
let broker: Client;
let broker2: Client;
let concierge: Client;
let anonymous: Client;

/** Real HTTP to Prism, the API prefix dropped; records Prism's verdict on every answer. */
function throughPrism(prismUrl: string): Transport {
  const http = httpTransport(prismUrl);
  return {
    baseUrl: prismUrl,
    async send(request) {
      const path = request.path.startsWith(`${API}/`) ? request.path.slice(API.length) : request.path;
      const response = await http.send({ ...request, path });
      const header = response.headers['sl-violations'];
      exchanges.push({
        request: `${request.method} ${request.path}`,
        status: response.status,
        violations: header === undefined ? [] : (JSON.parse(String(header)) as unknown[]),
      });
      return response;
    },
  };
}

beforeAll(async () => {
  prism = await startPrism([
    'proxy',
    await servedDocumentFile(`${server.url}${API}/openapi.json`),
    `${server.url}${API}`,
    '--validate-request',
    'false',
    '--errors',
    'false',
  ]);
  const transport = throughPrism(prism.url);
  broker = new Client(transport, { key: KEYS.broker });
  broker2 = new Client(transport, { key: KEYS.broker2 });
  concierge = new Client(transport, { key: KEYS.concierge });
  anonymous = new Client(transport);
  // Each client's cluster cookie first, so that no test's writes begin with the client's own GET for it.
  for (const client of [broker, broker2, concierge, anonymous]) await client.get(`${API}/health`);
  statusesConforming();
}, 120_000);

afterAll(async () => {
  await prism?.stop();
});

interface Violation {
  location: string[];
  message: string;
}

/**
 * What Prism says of a request the test sends wrong on purpose, by the status it is refused with: a request
 * without the key (401), a method the path does not have (405: no operation to check the answer against).
 * Nothing Prism says of an answer is ever expected.
 */
const DELIBERATE: Record<number, string> = {
  401: 'Invalid security scheme used',
  405: 'Selected route not found',
};

/**
 * JSONP answers (`opt_jsonp`) are declared on that parameter (`x-jsonp`), not as a media type of the answer, so
 * that generated clients get JSON types; Prism, which reads media types only, calls their type and their text
 * wrong. The registry's own reply check (VALIDATE_REPLIES) unwraps them and checks the JSON inside.
 */
const JSONP_AS_PRISM_READS_IT = [
  /^The received media type "application\/javascript; charset=utf-8" does not match/,
  /^Response body must be object$/,
];

const deliberate = (request: string, status: number, violation: Violation): boolean =>
  (violation.location[0] === 'request' && violation.message === DELIBERATE[status]) ||
  (/[?&]opt_jsonp=/.test(request) && JSONP_AS_PRISM_READS_IT.some((message) => message.test(violation.message)));

/** The exchanges since the last call: their statuses, after checking that Prism found no violation in any. */
function statusesConforming(): number[] {
  const seen = exchanges.splice(0);
  const violating = seen
    .map(({ request, status, violations }) => ({
      request,
      status,
      violations: (violations as Violation[]).filter((violation) => !deliberate(request, status, violation)),
    }))
    .filter((exchange) => exchange.violations.length > 0);
  expect(violating).toEqual([]);
  return seen.map((exchange) => exchange.status);
}

describe('Prism (proxy) checks live answers against the served document', () => {
  it('finds violations at all: an answer to a path the document does not have is one', async () => {
    await anonymous.get(`${API}/no-such-path`);
    const seen = exchanges.splice(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.violations).not.toEqual([]);
  });

  it('assets: create, read, edit, publish, with opt_pretty and opt_jsonp', async () => {
    const created = await broker.post(`${API}/assets?opt_pretty=1`, { data: validAsset() });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json.data;
    const token: string = created.json.access.token;
    const jsonp = await broker.post(`${API}/assets?opt_jsonp=made`, { data: validAsset() });
    expect(jsonp.text).toMatch(/^\/\*\*\/made\(/);
    await anonymous.get(`${API}/assets/${id}`);
    await anonymous.get(`${API}/assets/${id}?opt_pretty=1`);
    await anonymous.get(`${API}/assets/${id}?opt_jsonp=read`);
    await broker.patch(`${API}/assets/${id}`, { data: { title: 'Права вимоги (змінено)' } }, { token });
    await broker.patch(`${API}/assets/${id}?opt_jsonp=patched`, { data: { status: 'pending' } }, { token });
    await concierge.patch(`${API}/assets/${id}`, { data: { status: 'verification' } });
    expect(statusesConforming()).toEqual([201, 201, 200, 200, 200, 200, 200, 200]);
  });

  it('the listing: opt_fields, opt_pretty, opt_jsonp, descending, limit, and next_page followed', async () => {
    for (let n = 0; n < 2; n++) {
      const { id, token } = await createAsset(broker);
      await toPending(broker, id, token);
    }
    statusesConforming();
    const first = await anonymous.get(`${API}/assets?limit=1&opt_fields=title,status,assetID`);
    await anonymous.get(first.json.next_page.path);
    await anonymous.get(`${API}/assets?opt_pretty=1&descending=1`);
    await anonymous.get(`${API}/assets?opt_jsonp=feed&opt_fields=status`);
    await anonymous.get(`${API}/assets?offset=${encodeURIComponent(first.json.next_page.offset)}&mode=_all_`);
    expect(statusesConforming()).toEqual([200, 200, 200, 200, 200]);
  });

  it('refusals: 400, 401, 403, 404, 405, 412, 413, 415, 422', async () => {
    const { id, token } = await createAsset(broker);
    statusesConforming();
    await anonymous.get(`${API}/assets?limit=0`);
    await anonymous.post(`${API}/assets`, { data: validAsset() });
    await concierge.post(`${API}/assets`, { data: validAsset() });
    await broker.patch(`${API}/assets/${id}`, { data: { title: 'no' } }, { token: UNKNOWN });
    await anonymous.get(`${API}/assets/${UNKNOWN}`);
    await anonymous.request('DELETE', `${API}/assets/${id}`);
    await broker.as(KEYS.broker).post(`${API}/assets`, { data: validAsset() }, { autoCookie: false });
    await broker.post(`${API}/assets`, { data: { ...validAsset(), description: 'x'.repeat(1_100_000) } });
    await broker.post(`${API}/assets`, undefined, { body: 'title', headers: { 'content-type': 'text/plain' } });
    await broker.post(`${API}/assets`, { data: validAsset({ title: undefined }) });
    await broker.patch(`${API}/assets/${id}`, { data: { status: 'active' } }, { token });
    expect(statusesConforming()).toEqual([400, 401, 403, 403, 404, 405, 412, 413, 415, 422, 403]);
  });

  it('transfers: create, read, apply, and the refusals of a used or unknown transfer', async () => {
    const { id, transfer } = await createAsset(broker);
    statusesConforming();
    const created = await broker2.post(`${API}/transfers`, { data: {} });
    const transferId: string = created.json.data.id;
    await broker2.get(`${API}/transfers/${transferId}`);
    await broker2.post(`${API}/assets/${id}/ownership`, { data: { id: transferId, transfer } });
    await broker2.post(`${API}/assets/${id}/ownership`, { data: { id: transferId, transfer } });
    await broker2.get(`${API}/transfers/${UNKNOWN}`);
    await anonymous.get(`${API}/transfers/${transferId}`);
    expect(statusesConforming()).toEqual([201, 200, 200, 403, 404, 401]);
  });

  it('documents and the document service: upload, attach, list, read, new version, edit, download', async () => {
    const { id, token } = await createAsset(broker);
    statusesConforming();
    const file = await uploadFile(broker);
    const attached = await broker.post(
      `${API}/assets/${id}/documents`,
      { data: { ...file, documentType: 'notice' } },
      { token },
    );
    const documentId: string = attached.json.data.id;
    await anonymous.get(`${API}/assets/${id}/documents`);
    await anonymous.get(`${API}/assets/${id}/documents?all=1`);
    await anonymous.get(`${API}/assets/${id}/documents/${documentId}`);
    const next = await uploadFile(broker);
    await broker.request('PUT', `${API}/assets/${id}/documents/${documentId}`, { json: { data: next }, token });
    await broker.patch(`${API}/assets/${id}/documents/${documentId}`, { data: { title: 'Повідомлення' } }, { token });
    await broker.post(`${API}/assets/${id}/documents`, { data: { title: 'no file' } }, { token });
    const download = new URL(next.url);
    await anonymous.get(`${download.pathname}${download.search}`);
    await anonymous.get(`${download.pathname}?KeyID=00000000&Signature=AAAA`);
    expect(statusesConforming()).toEqual([201, 201, 200, 200, 200, 201, 200, 200, 422, 200, 403]);
  });

  it('the service: the document, its page and the health probe', async () => {
    await anonymous.get(`${API}/openapi.json`);
    await anonymous.get(`${API}/docs`);
    await anonymous.get(`${API}/health`);
    expect(statusesConforming()).toEqual([200, 200, 200]);
  });
});
