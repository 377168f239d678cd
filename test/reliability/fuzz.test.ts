/**
 * Hostile input, property-based (fixed seeds, bounded runs and time): every answer is a 4xx in the envelope (or a
 * 2xx for input valid by chance), the server stays up, a refusal changes nothing, and no prototype is polluted.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from '../helpers/client.js';
import { useServer } from '../helpers/server.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { bound, reportFigures } from './fixtures/common.js';
import { hostileBody, hostileHeaders, hostileQuery, type BodyCase } from './fixtures/hostile.js';

const ASSETS = '/api/0.1/assets';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Per property: at most this many cases, and at most this long (whichever ends first). */
const BODY_RUNS = bound('RELIABILITY_FUZZ_BODY_RUNS', 1_500);
const QUERY_RUNS = bound('RELIABILITY_FUZZ_QUERY_RUNS', 800);
const HEADER_RUNS = bound('RELIABILITY_FUZZ_HEADER_RUNS', 600);
const PROPERTY_TIME_MS = bound('RELIABILITY_FUZZ_TIME_MS', 15_000);

const prototypeKeys = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  fn: Object.getOwnPropertyNames(Function.prototype).sort(),
});

describe('hostile input', () => {
  // Real HTTP: hostile headers and raw bytes must meet Node's HTTP parser, as they would in production.
  const server = useServer({}, { via: 'http' });
  const { broker: owner, anonymous: reader } = server;
  let known: { id: string; token: string };
  /** The known asset and the whole feed as served: compared after every refused request. */
  let snapshot: { asset: string; feed: string };
  const cleanPrototypes = prototypeKeys();
  const cases = { body: 0, query: 0, header: 0, raw: 0 };
  /**
   * Failures by class (`method kind → status`), one example each. Every case runs even after a failure, so one
   * run shows every class of problem; the test fails at the end when there is any.
   */
  const failures = new Map<string, string>();

  async function record(
    kind: string,
    what: string,
    send: () => Promise<Response>,
    verify: (res: Response) => Promise<void>,
  ): Promise<void> {
    let status = 'no answer';
    try {
      const res = await send();
      status = String(res.status);
      await verify(res);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
      const key = `${kind} → ${status}`;
      if (!failures.has(key)) failures.set(key, `${what.slice(0, 200)} :: ${message.slice(0, 1500)}`);
    }
  }
  const statuses = new Map<number, number>();

  async function takeSnapshot(): Promise<{ asset: string; feed: string }> {
    const asset = await reader.get(`${ASSETS}/${known.id}`);
    const feed = await reader.get(`${ASSETS}?mode=_all_&limit=1000`);
    expect(asset.status, 'the server still answers').toBe(200);
    expect(feed.status, 'the server still answers').toBe(200);
    return { asset: asset.text, feed: JSON.stringify(feed.json.data) };
  }

  /** The entries only one of two feed snapshots holds, so that a failure says what changed. */
  function feedDifference(before: string, after: string): string {
    const entries = (feed: string) => (JSON.parse(feed) as unknown[]).map((entry) => JSON.stringify(entry));
    const [was, is] = [entries(before), entries(after)];
    const gone = was.filter((entry) => !is.includes(entry));
    const added = is.filter((entry) => !was.includes(entry));
    return `${was.length} entries before, ${is.length} after; gone ${gone.join(' ')}; new ${added.join(' ')}`;
  }

  /** A fresh listed asset to aim PATCHes at (after a PATCH valid by chance moved the old one on). */
  async function newTarget(): Promise<void> {
    known = await createAsset(owner);
    await toPending(owner, known.id, known.token);
    snapshot = await takeSnapshot();
  }

  /** What must hold after any answer. `changed` tells whether the request was allowed to change the store. */
  async function checkAfter(res: Response, what: string): Promise<void> {
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
    expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    if (res.status >= 400) {
      expect(res.headers['content-type'], what).toBe(JSON_TYPE);
      expect(res.json?.status, `${what}: ${res.text.slice(0, 300)}`).toBe('error');
      expect(Array.isArray(res.json?.errors) && res.json.errors.length > 0, what).toBe(true);
    }
    expect(prototypeKeys(), `prototypes polluted after ${what}`).toEqual(cleanPrototypes);
    expect(({} as any).polluted, `Object.prototype polluted after ${what}`).toBeUndefined();
    const now = await takeSnapshot();
    if (res.status >= 300) {
      expect(now.asset, `the known asset changed after a refused ${what}`).toBe(snapshot.asset);
      expect(now.feed, `the feed changed after a refused ${what}: ${feedDifference(snapshot.feed, now.feed)}`).toBe(
        snapshot.feed,
      );
    } else if (now.asset !== snapshot.asset) {
      // A PATCH valid by chance: the feed may differ only in the known asset's entry.
      const withoutKnown = (feed: string) => JSON.stringify(JSON.parse(feed).filter((e: any) => e.id !== known.id));
      expect(withoutKnown(now.feed), `another asset changed after ${what}`).toBe(withoutKnown(snapshot.feed));
      const asset = JSON.parse(now.asset).data;
      if (asset.status !== 'pending') await newTarget();
      else snapshot = now;
    } else {
      expect(now.feed, `the feed changed after ${what}: ${feedDifference(snapshot.feed, now.feed)}`).toBe(
        snapshot.feed,
      );
    }
  }

  beforeAll(async () => {
    await owner.get(ASSETS); // the cluster cookie
    // A few listed assets besides the target, so the feed has something to lose.
    for (let i = 0; i < 3; i++) {
      const other = await createAsset(owner);
      await toPending(owner, other.id, other.token);
    }
    await newTarget();
  });

  afterAll(async () => {
    reportFigures('fuzz', {
      cases: cases.body + cases.query + cases.header + cases.raw,
      ...cases,
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      failureClasses: [...failures.keys()],
    });
  });

  /** Fails with every failure class whose key mentions `part`, one example each. */
  function expectNoFailures(part: string): void {
    const mine = [...failures].filter(([key]) => key.includes(part)).map(([key, example]) => `${key}: ${example}`);
    expect(mine, 'failure classes (one example each)').toEqual([]);
  }

  /** The exact answer where it is certain; any JSON 4xx (or 2xx) elsewhere. */
  function expectedStatuses(body: BodyCase, method: 'POST' | 'PATCH'): number[] | undefined {
    switch (body.kind) {
      case 'truncated':
      case 'not-utf8':
      case 'not-an-object':
        return [422];
      case 'oversized':
        return [413];
      case 'proto':
        // A prototype-ish key inside `data` is no asset field: Rogue field (422), even with a null value (unknown
        // keys are refused whatever their value). Beside `data` it is ignored.
        if (body.label.startsWith('["data"')) return [422];
        return method === 'POST' ? [201, 400, 413, 422] : [200, 400, 403, 413, 422];
      case 'mutated':
      case 'raw-value':
      case 'json':
        return method === 'POST' ? [201, 400, 413, 422] : [200, 400, 403, 413, 422];
    }
  }

  it('bodies: wrong types, deep nesting, prototype keys, huge values, not UTF-8, truncated', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBody, fc.constantFrom<'POST' | 'PATCH'>('POST', 'PATCH'), async (body, method) => {
        cases.body++;
        const what = `${method} ${body.kind} ${body.label}`;
        const path = method === 'POST' ? ASSETS : `${ASSETS}/${known.id}`;
        await record(
          `${method} body ${body.kind}`,
          what,
          () =>
            owner.request(method, path, {
              body: body.bytes,
              headers: { 'content-type': 'application/json' },
              token: method === 'PATCH' ? known.token : undefined,
            }),
          async (res) => {
            expect(expectedStatuses(body, method), `${what}: ${res.status} ${res.text.slice(0, 300)}`).toContain(
              res.status,
            );
            await checkAfter(res, what);
          },
        );
      }),
      {
        seed: 20_260_505,
        numRuns: BODY_RUNS,
        interruptAfterTimeLimit: PROPERTY_TIME_MS,
        markInterruptAsFailure: false,
      },
    );
    expectNoFailures('body');
  }, 120_000);

  it('query strings: any bytes, repeated and bracketed names, prototype names, absurd values', async () => {
    await fc.assert(
      fc.asyncProperty(hostileQuery, fc.constantFrom('list', 'item'), async (query, target) => {
        cases.query++;
        const path = target === 'list' ? `${ASSETS}?${query}` : `${ASSETS}/${known.id}?${query}`;
        await record(
          `GET ${target} query`,
          `GET ${path}`,
          () => reader.get(path),
          async (res) => {
            expect([200, 400], `GET ${path}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
            await checkAfter(res, `GET ${path.slice(0, 200)}`);
          },
        );
      }),
      {
        seed: 20_260_506,
        numRuns: QUERY_RUNS,
        interruptAfterTimeLimit: PROPERTY_TIME_MS,
        markInterruptAsFailure: false,
      },
    );
    expectNoFailures('GET');
  }, 120_000);

  it('headers: content types, credentials, tokens, request ids, cookies', async () => {
    await fc.assert(
      fc.asyncProperty(hostileHeaders, fc.constantFrom<'POST' | 'PATCH'>('POST', 'PATCH'), async (headers, method) => {
        cases.header++;
        const path = method === 'POST' ? ASSETS : `${ASSETS}/${known.id}`;
        // A valid body: only the headers are hostile. The PATCH changes nothing (same title), so it is 200 or refused.
        const data = method === 'POST' ? validAsset() : { title: JSON.parse(snapshot.asset).data.title };
        const what = `${method} with headers ${JSON.stringify(headers).slice(0, 300)}`;
        await record(
          `${method} headers`,
          what,
          () =>
            owner.request(method, path, {
              body: JSON.stringify({ data }),
              headers: { 'content-type': 'application/json', ...headers },
              token: method === 'PATCH' ? known.token : undefined,
            }),
          async (res) => {
            expect([200, 201, 401, 403, 412, 415, 422], `${what}: ${res.status} ${res.text.slice(0, 300)}`).toContain(
              res.status,
            );
            const requestId = res.headers['x-request-id'] ?? '';
            expect(requestId, 'X-Request-ID of 1 to 64 safe characters').toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
            expect(requestId.length).toBeGreaterThan(0);
            await checkAfter(res, what);
          },
        );
      }),
      {
        seed: 20_260_507,
        numRuns: HEADER_RUNS,
        interruptAfterTimeLimit: PROPERTY_TIME_MS,
        markInterruptAsFailure: false,
      },
    );
    expectNoFailures('headers');
  }, 120_000);

  /** Sends raw bytes on a socket and returns what came back (status line, headers, body) or '' if nothing. */
  function rawExchange(bytes: Buffer): Promise<string> {
    const url = new URL(server.url);
    return new Promise((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => socket.destroy(), 5_000);
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('latin1'));
      });
      socket.write(bytes, () => socket.end());
    });
  }

  it('protocol-level garbage is answered in the envelope too, and the server stays up', async () => {
    const host = new URL(server.url).host;
    const requests: [string, Buffer][] = [
      [
        'a header over 16 KiB',
        Buffer.from(
          `GET ${ASSETS} HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
        ),
      ],
      ['a request line that is not HTTP', Buffer.from('HELLO THERE\r\n\r\n')],
      [
        'bytes that are not UTF-8 in the path',
        Buffer.concat([
          Buffer.from('GET /api/0.1/assets/'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
        ]),
      ],
      [
        'a control character in a header value',
        Buffer.from(`GET ${ASSETS} HTTP/1.1\r\nHost: ${host}\r\nX-A: a\u0001b\r\nConnection: close\r\n\r\n`),
      ],
    ];
    const failures: string[] = [];
    for (const [what, bytes] of requests) {
      cases.raw++;
      const answer = await rawExchange(bytes);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      const headers = head.toLowerCase();
      const ok =
        status >= 400 &&
        status < 500 &&
        headers.includes(`content-type: ${JSON_TYPE}`) &&
        headers.includes('x-content-type-options: nosniff') &&
        /"status"\s*:\s*"error"/.test(body);
      if (!ok) failures.push(`${what}: ${head.split('\r\n').join(' | ')} || ${body.slice(0, 200)}`);
      // Whatever the answer, the server still serves and nothing changed.
      const now = await takeSnapshot();
      expect(now.feed).toBe(snapshot.feed);
      expect(now.asset).toBe(snapshot.asset);
    }
    expect(failures, 'protocol errors answered outside the JSON envelope').toEqual([]);
  }, 60_000);
});
