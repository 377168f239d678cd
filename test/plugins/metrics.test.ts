/**
 * Metrics (METRICS_PORT): scraped over HTTP from the metrics listener of a real registry while it serves a load
 * of known requests; every counter must have moved by exactly what was sent. The text is read with a parser written
 * here from the Prometheus text format, not with the metrics client library.
 */
import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { KEYS, serverForThisTest, useServer, type TestServer } from '../helpers/server.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { openChanges } from '../helpers/sse.js';
import { micros } from '../helpers/dates.js';
import { NO_OPERATION } from '../../src/plugins/metrics.js';
import { lastJsonBody, rawConnection } from '../helpers/raw.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

/** The samples of a scrape in the Prometheus text format; throws on a line that is none of it. */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) typed.add(type[1]!);
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? '';
    let read = 0;
    LABEL.lastIndex = 0;
    for (let label = LABEL.exec(labelText); label; label = LABEL.exec(labelText)) {
      labels[label[1]!] = label[2]!;
      read = LABEL.lastIndex;
    }
    if (read !== labelText.length) throw new Error(`labels not understood: ${line}`);
    const name = match[1]!;
    if (![name, name.replace(/_(bucket|sum|count)$/, '')].some((family) => typed.has(family)))
      throw new Error(`no TYPE for ${name}`);
    samples.push({ name, labels, value: Number(match[3]) });
  }
  return samples;
}

interface Scrape {
  text: string;
  /** The sum of the samples of `name` whose labels include `labels` (0 when there are none). */
  value(name: string, labels?: Record<string, string>): number;
  has(name: string): boolean;
}

function metricsUrl(server: TestServer): string {
  const listener = server.app.metricsServer;
  if (!listener) throw new Error('the server has no metrics listener');
  const { address, port } = listener.server.address() as AddressInfo;
  return `http://${address}:${port}/metrics`;
}

async function scrape(server: TestServer): Promise<Scrape> {
  const res = await request(metricsUrl(server));
  const text = await res.body.text();
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = parseSamples(text);
  return {
    text,
    value: (name, labels = {}) =>
      samples
        .filter(
          (sample) =>
            sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
        )
        .reduce((sum, sample) => sum + sample.value, 0),
    has: (name) => samples.some((sample) => sample.name === name),
  };
}

const ASSETS = '/api/0.1/assets';
const TRANSFERS = '/api/0.1/transfers';
const REQUESTS = 'http_request_duration_seconds_count';
const STORE_CALLS = 'registry_store_operation_duration_seconds_count';

describe('metrics on their own listener', () => {
  // Without the served cache, every read reaches the store: the store calls below are then exact counts.
  const server = useServer({ METRICS_PORT: '0', CACHE_MB: '0' }, { via: 'http' });

  it('listen on loopback, apart from the API, whose /metrics is a 404 like any unknown path', async () => {
    const { address, port } = server.app.metricsServer!.server.address() as AddressInfo;
    expect(address).toBe('127.0.0.1');
    expect(server.app.hasDecorator('metrics')).toBe(true);
    expect(port).not.toBe(Number(new URL(server.url).port));
    const onApi = await server.anonymous.get('/metrics');
    expect(onApi.status).toBe(404);
    expect(onApi.json.status).toBe('error');
    expect((await request(metricsUrl(server).replace('/metrics', '/api/0.1/assets'))).statusCode).toBe(404);
  });

  it('move by exactly the requests sent, scraped while they are served', async () => {
    const broker = server.client({ key: KEYS.broker });
    const anonymous = server.client();
    // The cluster cookie first (a GET each), so that the load below is only the requests counted.
    await broker.get(ASSETS);
    await anonymous.get(ASSETS);
    const drafts = await Promise.all(Array.from({ length: 4 }, () => createAsset(broker)));
    const transfer = await broker.post(TRANSFERS, { data: {} });
    expect(transfer.status).toBe(201);
    const before = await scrape(server);

    const CREATES = 12;
    const PUBLISHES = drafts.length;
    const READS = 9;
    const MISSING = 5;
    const REFUSED_PATCHES = 3;
    const LISTINGS = 7;
    const NOT_ALLOWED = 2;
    const HEADS = 3;
    const PROBES = 2;
    const NEW_TRANSFERS = 2;
    const TRANSFER_READS = 3;
    const load = [
      ...Array.from({ length: CREATES }, () => broker.post(ASSETS, { data: validAsset() })),
      ...drafts.map((draft) =>
        broker.patch(`${ASSETS}/${draft.id}`, { data: { status: 'pending' } }, { token: draft.token }),
      ),
      ...Array.from({ length: READS }, (_, i) => anonymous.get(`${ASSETS}/${drafts[i % drafts.length]!.id}`)),
      ...Array.from({ length: MISSING }, () => anonymous.get(`${ASSETS}/${'0'.repeat(32)}`)),
      ...Array.from({ length: REFUSED_PATCHES }, () =>
        broker.patch(`${ASSETS}/${drafts[0]!.id}`, { data: { title: 'x' } }, { token: 'not-the-token' }),
      ),
      ...Array.from({ length: LISTINGS }, () => anonymous.get(ASSETS)),
      ...Array.from({ length: NOT_ALLOWED }, () => broker.request('DELETE', `${ASSETS}/${drafts[0]!.id}`)),
      ...Array.from({ length: HEADS }, () => anonymous.request('HEAD', `${ASSETS}/${drafts[1]!.id}`)),
      ...Array.from({ length: PROBES }, () => anonymous.get('/api/0.1/health')),
      ...Array.from({ length: NEW_TRANSFERS }, () => broker.post(TRANSFERS, { data: {} })),
      ...Array.from({ length: TRANSFER_READS }, () => broker.get(`${TRANSFERS}/${transfer.json.data.id}`)),
    ];
    // Scrapes while the load is served: never behind the last one, never beyond what is sent.
    const during: Scrape[] = [];
    let served = false;
    const scraping = (async () => {
      while (!served) during.push(await scrape(server));
    })();
    const statuses = (await Promise.all(load)).map((res) => res.status);
    served = true;
    await scraping;
    const after = await scrape(server);

    expect(statuses.filter((status) => status === 201)).toHaveLength(CREATES + NEW_TRANSFERS);
    expect(statuses.filter((status) => status === 404)).toHaveLength(MISSING);
    expect(statuses.filter((status) => status === 403)).toHaveLength(REFUSED_PATCHES);
    expect(statuses.filter((status) => status === 405)).toHaveLength(NOT_ALLOWED);
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    const requests = (method: string, operation: string, statusClass: string) =>
      moved(REQUESTS, { method, operation, status_class: statusClass });
    expect(requests('POST', 'createAsset', '2xx')).toBe(CREATES);
    expect(requests('PATCH', 'patchAsset', '2xx')).toBe(PUBLISHES);
    expect(requests('GET', 'getAsset', '2xx')).toBe(READS);
    expect(requests('GET', 'getAsset', '4xx')).toBe(MISSING);
    expect(requests('PATCH', 'patchAsset', '4xx')).toBe(REFUSED_PATCHES);
    expect(requests('GET', 'listAssets', '2xx')).toBe(LISTINGS);
    expect(requests('DELETE', NO_OPERATION, '4xx')).toBe(NOT_ALLOWED);
    expect(requests('HEAD', 'getAsset', '2xx')).toBe(HEADS);
    expect(requests('GET', 'getHealth', '2xx')).toBe(PROBES);
    expect(requests('POST', 'createTransfer', '2xx')).toBe(NEW_TRANSFERS);
    expect(requests('GET', 'getTransfer', '2xx')).toBe(TRANSFER_READS);
    expect(moved(REQUESTS, {})).toBe(load.length);
    // The histogram's buckets hold every request too: +Inf is the count.
    expect(moved('http_request_duration_seconds_bucket', { operation: 'createAsset', le: '+Inf' })).toBe(CREATES);

    // Store calls behind them: a create each; a read and a write per publication; a read per refused patch; the
    // served text per read (HEAD included); a feed page per listing; a ping per probe; the transfers' own.
    expect(moved(STORE_CALLS, { operation: 'create' })).toBe(CREATES);
    expect(moved(STORE_CALLS, { operation: 'update' })).toBe(PUBLISHES);
    expect(moved(STORE_CALLS, { operation: 'get' })).toBe(PUBLISHES + REFUSED_PATCHES);
    expect(moved(STORE_CALLS, { operation: 'getText' })).toBe(READS + MISSING + HEADS);
    expect(moved(STORE_CALLS, { operation: 'list' })).toBe(LISTINGS);
    expect(moved(STORE_CALLS, { operation: 'ping' })).toBe(PROBES);
    expect(moved(STORE_CALLS, { operation: 'transfers.create' })).toBe(NEW_TRANSFERS);
    expect(moved(STORE_CALLS, { operation: 'transfers.get' })).toBe(TRANSFER_READS);
    expect(moved(STORE_CALLS, {})).toBe(
      CREATES +
        2 * PUBLISHES +
        REFUSED_PATCHES +
        READS +
        MISSING +
        HEADS +
        LISTINGS +
        PROBES +
        NEW_TRANSFERS +
        TRANSFER_READS,
    );

    let last = before;
    for (const scrapeDuring of during) {
      expect(scrapeDuring.value(REQUESTS)).toBeGreaterThanOrEqual(last.value(REQUESTS));
      expect(scrapeDuring.value(REQUESTS)).toBeLessThanOrEqual(after.value(REQUESTS));
      last = scrapeDuring;
    }
    expect(during.length).toBeGreaterThan(0);
  });

  it("give the feed's newest dateModified and the change streams open", async () => {
    const broker = server.client({ key: KEYS.broker });
    const created = await createAsset(broker);
    const published = await toPending(broker, created.id, created.token);
    // A draft is not in the feed: the gauge stays on the published asset.
    await createAsset(broker);
    const newest = micros(published.data.dateModified) / 1e6;
    expect((await scrape(server)).value('registry_feed_last_modified_timestamp_seconds')).toBe(newest);

    const streams = await Promise.all([openChanges(server.url), openChanges(server.url), openChanges(server.url)]);
    try {
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
      expect((await scrape(server)).value('registry_change_streams_open')).toBe(3);
      streams[0]!.close();
      await expect.poll(async () => (await scrape(server)).value('registry_change_streams_open')).toBe(2);
    } finally {
      for (const stream of streams) stream.close();
    }
    await expect.poll(async () => (await scrape(server)).value('registry_change_streams_open')).toBe(0);
  });

  it('answer only to the hosts the API answers to, on their own port (record 0062)', async () => {
    const base = metricsUrl(server).replace('/metrics', '');
    const port = Number(new URL(base).port);
    const ask = async (hostLines: string): Promise<string> => {
      const connection = await rawConnection(base);
      connection.write(`GET /metrics HTTP/1.1\r\n${hostLines}Connection: close\r\n\r\n`);
      await connection.closed;
      return connection.received();
    };
    for (const hostLines of [
      'Host: evil.example\r\n',
      `Host: evil.example:${port}\r\n`,
      `Host: localhost:${port === 1 ? 2 : port - 1}\r\n`,
      '',
      'Host:\r\n',
      `Host: localhost:${port}\r\nHost: localhost:${port}\r\n`,
    ]) {
      const answer = await ask(hostLines);
      expect(answer, hostLines).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer, hostLines).not.toContain('process_cpu');
      expect(lastJsonBody(answer)).toMatchObject({ status: 'error', errors: [{ location: 'header', name: 'Host' }] });
    }
    for (const hostLines of [`Host: localhost:${port}\r\n`, 'Host: 127.0.0.1\r\n', `Host: [::1]:${port}\r\n`]) {
      expect(await ask(hostLines), hostLines).toMatch(/^HTTP\/1\.1 200 [\s\S]*process_cpu_user_seconds_total/);
    }
  });

  it("carry the process's own metrics", async () => {
    const metrics = await scrape(server);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(metrics.has(name), name).toBe(true);
    }
  });
});

it('count the requests refused by the rate limit', async () => {
  const server = await serverForThisTest({ METRICS_PORT: '0', RATE_LIMIT_MAX: '3' }, { via: 'http' });
  const anonymous = server.client();
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await anonymous.get(ASSETS)).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429]);
  const metrics = await scrape(server);
  expect(metrics.value('registry_rate_limit_refusals_total')).toBe(4);
  expect(metrics.value(REQUESTS, { operation: 'listAssets', status_class: '4xx' })).toBe(4);
});

it('are off by default: no listener, nothing on the API', async () => {
  const server = await serverForThisTest({}, { via: 'http' });
  expect(server.app.metricsServer).toBeUndefined();
  // fastify-metrics was not registered: no request is timed.
  expect(server.app.hasDecorator('metrics')).toBe(false);
  expect((await server.anonymous.get('/metrics')).status).toBe(404);
});
