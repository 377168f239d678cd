/**
 * X-Request-ID over HTTP (docs/decisions/0062-smaller-rules-of-round-two.md): a client's id is the log id only in
 * the shape `^[A-Za-z0-9._:-]{1,64}$`, and every answer's X-Request-ID is the id its log lines carry.
 */
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.js';
import { rawConnection } from '../helpers/raw.js';

const ASSETS = '/api/0.1/assets';

/** The `reqId` of every log line of the request that asked for `url`. */
function loggedIds(lines: readonly string[], marker: string): Set<string> {
  const ids = new Set<string>();
  for (const line of lines) {
    const entry = JSON.parse(line) as { reqId?: string; req?: { url?: string } };
    if (entry.req?.url?.includes(marker) && entry.reqId !== undefined) ids.add(entry.reqId);
  }
  return ids;
}

describe('X-Request-ID (record 0062)', () => {
  const server = useServer({}, { via: 'http' });
  const { anonymous } = server;

  it('keeps a client id of 1 to 64 letters, digits, ".", "_", ":" or "-" as the log id', async () => {
    const ids = ['a', 'req-abc.123_x:y', 'A'.repeat(64), '0f8fad5b-d9cb-469f-a165-70867728950e'];
    for (const [index, id] of ids.entries()) {
      const marker = `kept${index}`;
      const res = await anonymous.get(`${ASSETS}?${marker}=1`, { headers: { 'x-request-id': id } });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe(id);
      expect(loggedIds(server.logLines(), marker)).toEqual(new Set([id]));
    }
  });

  it('makes a new one for any other value, and answers with the id it logged', async () => {
    const refused = ['A'.repeat(65), 'a/b', 'a@b', 'a+b=', 'a b', 'line\tbreak', '{"json":1}', 'ü', '../../etc/passwd'];
    const seen = new Set<string>();
    for (const [index, id] of refused.entries()) {
      const marker = `new${index}`;
      const res = await anonymous.get(`${ASSETS}?${marker}=1`, { headers: { 'x-request-id': id } });
      expect(res.status).toBe(200);
      const answered = res.headers['x-request-id']!;
      expect(answered, id).not.toBe(id);
      expect(answered).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
      expect(loggedIds(server.logLines(), marker)).toEqual(new Set([answered]));
      seen.add(answered);
    }
    expect(seen.size).toBe(refused.length);
  });

  it('answers an error with the id it logged', async () => {
    const res = await anonymous.get(`${ASSETS}/nothing-here?errmark=1`, {
      headers: { 'x-request-id': 'x'.repeat(70) },
    });
    expect(res.status).toBe(404);
    expect(loggedIds(server.logLines(), 'errmark')).toEqual(new Set([res.headers['x-request-id']]));
  });
});

describe('X-Request-ID of answers written on the socket (record 0062)', () => {
  const server = useServer({ REQUEST_TIMEOUT: '600' }, { via: 'http' });

  const answeredId = (text: string): string => /\r\nx-request-id: ([^\r]+)\r\n/i.exec(text)?.[1] ?? '';
  const logged = (id: string) =>
    server.logLines().some((line) => (JSON.parse(line) as { reqId?: string }).reqId === id);

  it('a request that is no HTTP: 400 with an id, and a log line under it', async () => {
    const connection = await rawConnection(server.url);
    connection.write('NOT HTTP AT ALL\r\n\r\n');
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 400 /);
    const id = answeredId(connection.received());
    expect(id).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
    await expect.poll(() => logged(id)).toBe(true);
  });

  it('a body that stops arriving: 408 with the id the request was logged under', async () => {
    const connection = await rawConnection(server.url);
    const host = new URL(server.url).host;
    connection.write(
      `POST /api/0.1/nothing HTTP/1.1\r\nHost: ${host}\r\nX-Request-ID: stalled-body-1\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"data":',
    );
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(answeredId(connection.received())).toBe('stalled-body-1');
    expect(logged('stalled-body-1')).toBe(true);
  });
});
