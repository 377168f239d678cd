/**
 * The change stream's latency: with N streams connected to one registry node, how long from the answer
 * to a PATCH until its event has arrived on each stream (p50/p99/max over every stream and event), and the node's
 * RSS while they are connected. Streams are plain `node:http` requests, one socket each; they start at the head of
 * the feed (`offset` = its last entry), so only the measured changes are sent.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';

export interface StreamMeasure {
  streams: number;
  events: number;
  /** Pause between two changes. */
  intervalMs: number;
  /** (stream, event) pairs that arrived, of `streams × events`. */
  delivered: number;
  /** Milliseconds from the PATCH's answer to the event's arrival. */
  p50: number;
  p99: number;
  max: number;
  /** The registry process's RSS with the streams connected, MB. */
  rssMB: number;
}

export interface StreamBenchOptions {
  /** The registry's origin, e.g. http://127.0.0.1:6543. */
  url: string;
  pid: number;
  /** `SERVER_ID=…` as the registry handed it out. */
  cookie: string;
  /** Basic authorization of a broker that owns `patchIds` with `ownerToken`. */
  authorization: string;
  ownerToken: string;
  patchIds: string[];
  streamCounts: number[];
  /** Changes per stream count, one every `intervalMs`. */
  events: number;
  intervalMs: number;
  log: (text: string) => void;
}

const API = '/api/0.1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 10) / 10;

interface OpenStream {
  request: ClientRequest;
  /** Arrival time (performance.now()) of each event id. */
  arrivals: Map<string, number>;
}

function openStream(url: string, path: string, cookie: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    const request = httpRequest(
      url + path,
      { agent: false, headers: { cookie, accept: 'text/event-stream' } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id !== undefined) arrivals.set(id, at);
          }
        });
        res.on('error', () => undefined);
        resolve({ request, arrivals });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url + path, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function rssMB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

async function measureOne(options: StreamBenchOptions, count: number): Promise<StreamMeasure> {
  const { url, cookie } = options;
  const head = await send(url, 'GET', `${API}/assets?descending=1&limit=1`, { cookie });
  const offset = (JSON.parse(head.text) as { data: { dateModified: string }[] }).data[0]?.dateModified ?? '';
  const path = `${API}/assets/changes?offset=${encodeURIComponent(offset)}`;
  const streams: OpenStream[] = [];
  for (let i = 0; i < count; i += 50) {
    streams.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => openStream(url, path, cookie)))),
    );
  }
  // Every stream reads its first (empty) page and joins the node's shared reader.
  await sleep(500);

  const answered = new Map<string, number>();
  const writeHeaders = { cookie, authorization: options.authorization, 'content-type': 'application/json' };
  for (let n = 0; n < options.events; n++) {
    const id = options.patchIds[n % options.patchIds.length]!;
    const body = JSON.stringify({ data: { title: `Права вимоги за кредитним договором, подія ${n} (${count})` } });
    const res = await send(url, 'PATCH', `${API}/assets/${id}?acc_token=${options.ownerToken}`, writeHeaders, body);
    const at = performance.now();
    if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${res.text}`);
    answered.set((JSON.parse(res.text) as { data: { dateModified: string } }).data.dateModified, at);
    await sleep(options.intervalMs);
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && streams.some((stream) => stream.arrivals.size < options.events)) await sleep(20);
  const rss = rssMB(options.pid);

  const latencies: number[] = [];
  for (const stream of streams) {
    for (const [id, at] of answered) {
      const arrived = stream.arrivals.get(id);
      if (arrived !== undefined) latencies.push(arrived - at);
    }
  }
  latencies.sort((a, b) => a - b);
  for (const stream of streams) stream.request.destroy();
  // Let the node notice the closed streams before the next count.
  await sleep(500);
  return {
    streams: count,
    events: options.events,
    intervalMs: options.intervalMs,
    delivered: latencies.length,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? NaN),
    rssMB: rss,
  };
}

export async function measureStreams(options: StreamBenchOptions): Promise<StreamMeasure[]> {
  const results: StreamMeasure[] = [];
  for (const count of options.streamCounts) {
    const m = await measureOne(options, count);
    const missing = m.streams * m.events - m.delivered;
    options.log(
      `  ${`change stream, ${count} connected`.padEnd(26)} p50 ${m.p50} ms   p99 ${m.p99} ms   max ${m.max} ms   RSS ${m.rssMB} MB` +
        (missing > 0 ? `  (!! ${missing} events never arrived)` : ''),
    );
    results.push(m);
  }
  return results;
}
