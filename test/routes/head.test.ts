/**
 * HEAD on every GET path (docs/decisions/0057-head-without-a-body.md): the headers GET answers, status included,
 * without building the body. Fastify sets `Content-Length` from a body it was handed: the paths whose body costs a
 * read of the store answer HEAD without one, so without that header.
 */
import { describe, expect, it } from 'vitest';
import type { Client, Response } from '../helpers/client.js';
import { createAsset } from '../helpers/fixtures.js';
import { revisionsPath } from '../helpers/history.js';
import { useServer } from '../helpers/server.js';

// Over a socket: `inject` gives every answer a Content-Length.
const server = useServer({}, { via: 'http' });
const { broker: owner, anonymous: reader } = server;
const UNKNOWN = '0123456789abcdef0123456789abcdef';

/** Headers that differ from one answer to the next whatever the method. */
// `set-cookie`: the client keeps the cookie the first of the two answers set.
const PER_ANSWER = new Set(['date', 'x-request-id', 'content-length', 'keep-alive', 'connection', 'set-cookie']);
const perAnswer = (name: string) =>
  PER_ANSWER.has(name) || name.startsWith('x-ratelimit') || name.startsWith('ratelimit');

function headersOf(res: Response): Record<string, string> {
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !perAnswer(name)));
}

async function both(client: Client, path: string): Promise<{ get: Response; head: Response }> {
  const get = await client.get(path);
  const head = await client.request('HEAD', path);
  return { get, head };
}

describe('HEAD (record 0057)', () => {
  it('answers the status and headers of GET without building the body on the paths that read the store', async () => {
    const { id } = await createAsset(owner);
    const paths = [
      '/api/0.1/assets',
      '/api/0.1/assets?descending=1&opt_fields=title&mode=all',
      '/api/0.1/assets?opt_pretty=1',
      '/api/0.1/assets?opt_jsonp=cb',
      `/api/0.1/assets/${id}`,
      `/api/0.1/assets/${id}?opt_jsonp=cb`,
      revisionsPath(id),
      `${revisionsPath(id)}?limit=1000&opt_pretty=1`,
      `${revisionsPath(id)}/1`,
      `${revisionsPath(id)}/1?opt_jsonp=cb`,
      `/api/0.1/assets/${id}/documents`,
    ];
    for (const path of paths) {
      const { get, head } = await both(reader, path);
      expect(get.status, `${path}: ${get.text}`).toBe(200);
      expect(head.status, path).toBe(200);
      expect(head.text, path).toBe('');
      expect(headersOf(head), path).toEqual(headersOf(get));
      expect(head.headers['content-length'], path).toBeUndefined();
    }
  });

  it('answers the same refusals as GET', async () => {
    const { id } = await createAsset(owner);
    for (const path of [
      `/api/0.1/assets/${UNKNOWN}`,
      `${revisionsPath(UNKNOWN)}`,
      `${revisionsPath(UNKNOWN)}/1`,
      `${revisionsPath(id)}/2`,
      `${revisionsPath(id)}?limit=0`,
      '/api/0.1/assets?limit=-1',
      `/api/0.1/assets/${UNKNOWN}/documents`,
    ]) {
      const { get, head } = await both(reader, path);
      expect(get.status, path).toBeGreaterThanOrEqual(400);
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe('');
      expect(headersOf(head), path).toEqual(headersOf(get));
    }
  });

  it('answers the headers of GET on every other GET path', async () => {
    for (const path of ['/api/0.1/health', '/api/0.1/openapi.json', '/api/0.1/docs', '/api/0.1/log/checkpoint']) {
      const { get, head } = await both(reader, path);
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe('');
      expect(headersOf(head), path).toEqual(headersOf(get));
    }
  });
});
