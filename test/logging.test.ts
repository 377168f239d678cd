/**
 * docs/decisions/0044-secrets-out-of-logs.md: requests carrying every kind of secret, on a server logging at
 * `trace`, leave none in any line, the libraries' lines included.
 */
import { describe, expect, it } from 'vitest';
import { COOKIE_SECRET, KEYS, useServer } from './helpers/server.js';
import { createAsset, toPending, validAsset } from './helpers/fixtures.js';
import { leaksIn } from './helpers/logs.js';
import { sendForm } from './helpers/uploads.js';
import { pino } from 'pino';
import { loggerOptions, redactUrl, requestLoggerFactory } from '../src/logging.js';

describe('the log', () => {
  const server = useServer({}, { via: 'http' });
  const { broker, broker2 } = server;

  it('holds no key, token, credentials or cookie, at any level', async () => {
    const { id, token, transfer } = await createAsset(broker);
    const basic = `Basic ${Buffer.from(`${KEYS.broker}:secret-password`).toString('base64')}`;
    const bearer = `Bearer ${KEYS.broker}`;
    // The owner token by query, header and body; the key by Basic (with a password) and Bearer; cookies.
    await broker.patch(`/api/0.1/assets/${id}`, { data: { title: 'by query' } }, { token });
    await broker.patch(
      `/api/0.1/assets/${id}`,
      { data: { title: 'by header' } },
      { headers: { 'x-access-token': token } },
    );
    await broker.patch(`/api/0.1/assets/${id}`, { data: { title: 'by body' }, access: { token } });
    await broker.patch(
      `/api/0.1/assets/${id}?acc_token=${token}&opt_pretty=1`,
      { data: { title: 'twice' } },
      { headers: { authorization: basic } },
    );
    await broker.get(`/api/0.1/assets/${id}?ACC_TOKEN=${token}`, {
      headers: { authorization: bearer, cookie: `other=${COOKIE_SECRET}` },
    });
    // Refusals log too: a wrong token, an unknown key, a forged cookie, a missing asset.
    await broker.patch(`/api/0.1/assets/${id}`, { data: { title: 'x' } }, { token: `${token.slice(0, -1)}0` });
    await broker.post(
      '/api/0.1/assets',
      { data: validAsset() },
      { key: 'f'.repeat(32), headers: { authorization: basic } },
    );
    await broker.post(
      '/api/0.1/assets',
      { data: validAsset() },
      { headers: { cookie: `SERVER_ID=forged.${KEYS.admin}` } },
    );
    await broker.get(`/api/0.1/assets/${'0'.repeat(32)}?acc_token=${token}`);
    // An upload (its parser logs the request's headers at trace), a transfer and its token in a body.
    await sendForm(
      broker,
      [{ name: 'file', filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }],
      {
        headers: { 'x-access-token': token },
      },
    );
    await toPending(broker, id, token);
    const created = await broker2.post('/api/0.1/transfers', { data: {} });
    expect(created.status).toBe(201);
    const moved = await broker2.post(`/api/0.1/assets/${id}/ownership`, {
      data: { id: created.json.data.id, transfer },
    });
    expect(moved.status).toBe(200);

    const lines = server.logLines();
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.some((line) => line.includes('"level":10'))).toBe(true);
    const secrets = [
      ...Object.values(KEYS),
      COOKIE_SECRET,
      token,
      transfer,
      created.json.access.token,
      created.json.access.transfer,
    ];
    expect(leaksIn(lines, secrets)).toEqual([]);
    // The request lines are still there, the token's place marked.
    expect(lines.some((line) => line.includes(`/api/0.1/assets/${id}?acc_token=[Redacted]`))).toBe(true);
  });

  it('a leak would be found: the scan is not blind', () => {
    const line = JSON.stringify({ req: { url: '/api/0.1/assets/x?acc_token=abc' } });
    expect(leaksIn([line], [])).toHaveLength(1);
    expect(leaksIn([JSON.stringify({ busboyOptions: { headers: { cookie: 'a=b' } } })], [])).toHaveLength(1);
    expect(leaksIn([`{"msg":"${Buffer.from(`${KEYS.broker}:`).toString('base64')}"}`], [KEYS.broker])).toHaveLength(1);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/a?acc_token=abc', '/a?acc_token=[Redacted]'],
    ['/a?x=1&acc_token=abc&y=2', '/a?x=1&acc_token=[Redacted]&y=2'],
    ['/a?acc_token=abc&acc_token=def', '/a?acc_token=[Redacted]&acc_token=[Redacted]'],
    ['/a?Acc_Token=abc', '/a?Acc_Token=[Redacted]'],
    ['/a?opt_pretty=1', '/a?opt_pretty=1'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("a request's logger", () => {
  /** A pino logger at `level` with the registry's options, writing into `lines`, counting the children it makes. */
  function parentAt(level: string) {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    let children = 0;
    const logger = pino({ ...loggerOptions(level), onChild: () => void children++ }, stream);
    return { logger, lines, children: () => children };
  }

  it('is made on first use only, and every line it writes carries the request id', () => {
    const { logger, lines, children } = parentAt('warn');
    const log = requestLoggerFactory(logger, { reqId: 'r-1' }, {});
    log.info('not written at warn');
    log.debug('nor this');
    expect(children()).toBe(0);
    log.warn({ detail: 1 }, 'written');
    log.error('written too');
    expect(children()).toBe(1);
    expect(lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['written', 'r-1'],
      ['written too', 'r-1'],
    ]);
    log.child({ step: 'inner' }).warn('from a grandchild');
    expect(lines[2]).toMatchObject({ msg: 'from a grandchild', reqId: 'r-1', step: 'inner' });
  });

  it("writes every level its parent writes, and a route's own level when one is given", () => {
    const info = parentAt('info');
    requestLoggerFactory(info.logger, { reqId: 'r-2' }, {}).info('at info');
    expect(info.lines).toMatchObject([{ msg: 'at info', reqId: 'r-2' }]);

    const route = parentAt('warn');
    requestLoggerFactory(route.logger, { reqId: 'r-3' }, { level: 'debug' }).debug('the route logs debug');
    expect(route.lines).toMatchObject([{ msg: 'the route logs debug', reqId: 'r-3' }]);
  });
});
