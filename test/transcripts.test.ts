/**
 * Replays the original registry's claimRights tutorial transcripts (reference/openregistry-examples/claimrights)
 * against a fresh server, in the order they were recorded, substituting the ids and tokens handed out here for the
 * recorded ones and the Rec 20 code H87 for the CAV codes the original used as unit codes
 * (docs/decisions/0015-the-originals-quirks.md). Asserts the status and the stable fields (everything but ids,
 * tokens and dates), the listing counts and offsets.
 *
 * Skipped (behaviour §10.2, §11): create-asset.http and asset-post-attempt-json-data.http are stale 2017 basic-asset
 * transcripts. pending-second-asset.http PATCHes the *first* asset (a doc-script bug); it is replayed literally,
 * which is why listing-with-some-assets.http shows one entry while the second asset stays a draft. The lot views
 * (attached/detached/complete) GET assets that the tutorial drove through the concierge off-camera; they are created
 * here and moved by the concierge key to the recorded status and relatedLot first.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KEYS, useServer } from './helpers/server.js';
import type { Client, Response } from './helpers/client.js';

/** The project root, found from this file; the shared reference material sits beside it, in `../shared`. */
const ROOT = new URL('../', import.meta.url);
const DIR = fileURLToPath(new URL('../shared/reference/openregistry-examples/claimrights', ROOT));

const ORDER = [
  'initial-asset-listing.http',
  'asset-post-attempt.http',
  'asset-post-attempt-json.http',
  'asset-post-2pc.http',
  'asset-listing.http',
  'asset-patch-2pc.http',
  'asset-listing-after-patch.http',
  'pending-first-asset.http',
  'create-second-asset.http',
  'pending-second-asset.http',
  'listing-with-some-assets.http',
  'blank-asset-view.http',
  'patch-asset.http',
  'delete-asset.http',
  'attached-to-lot-asset-view.http',
  'detached-from-lot-asset-view.http',
  'complete-asset-view.http',
  'attached-to-lot-asset-view-second.http',
  'deattached-from-lot-asset-view.http',
];
const STALE = ['create-asset.http', 'asset-post-attempt-json-data.http'];

interface Transcript {
  file: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  response: any;
}

/** Request line, headers, body (after `DATA:` or a blank line), `Response: <code>`, headers, JSON body. */
function parseTranscript(file: string, text: string): Transcript {
  const [requestPart, responsePart] = text.split(/^Response: /m);
  if (!requestPart || responsePart === undefined) throw new Error(`${file}: no Response line`);
  const lines = requestPart.split('\n');
  const [method, path] = lines[0]!.split(' ');
  const headers: Record<string, string> = {};
  let i = 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === 'DATA:' || line.trim() === '') break;
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = lines
    .slice(i + 1)
    .join('\n')
    .trim();
  const status = Number(/^(\d{3})/.exec(responsePart)![1]);
  const brace = responsePart.indexOf('{');
  const response = brace === -1 ? undefined : JSON.parse(responsePart.slice(brace));
  return { file, method: method!, path: path!, headers, body: rest === '' ? undefined : rest, status, response };
}

const CAV_RE = /^\d{8}-\d$/;

/** Replaces CAV codes used as unit codes by H87, anywhere in a document. */
function rec20Units(value: any): any {
  if (Array.isArray(value)) return value.map(rec20Units);
  if (value && typeof value === 'object') {
    const out: Record<string, any> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'unit' && v && typeof v === 'object' && CAV_RE.test(String((v as any).code)))
        out[k] = { ...(v as any), code: 'H87' };
      else out[k] = rec20Units(v);
    }
    return out;
  }
  return value;
}

const VOLATILE = new Set(['id', 'date', 'dateModified', 'assetID']);

/** The stable part of an asset: no ids, dates or assetID; item ids dropped. */
function stable(asset: any): any {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(asset)) {
    if (VOLATILE.has(k)) continue;
    out[k] = k === 'items' ? (v as any[]).map(({ id: _id, ...item }) => item) : v;
  }
  return rec20Units(out);
}

const USERS: Record<string, string> = { broker: KEYS.broker, concierge: KEYS.concierge, administrator: KEYS.admin };

const server = useServer();
const ids = new Map<string, string>(); // recorded id → id here
const tokens = new Map<string, string>(); // recorded token → token here
const clients = new Map<string, Client>();

function clientFor(t: Transcript): Client {
  const auth = t.headers.authorization;
  const user = auth
    ? Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')[0]!
    : '';
  const key = USERS[user];
  if (auth && !key) throw new Error(`${t.file}: unknown transcript user ${user}`);
  if (!clients.has(user)) clients.set(user, server.client(key ? { key } : {}));
  return clients.get(user)!;
}

function substitute(text: string): string {
  let out = text;
  for (const [from, to] of [...ids, ...tokens]) out = out.split(from).join(to);
  return out;
}

/** Creates an asset the tutorial made off-camera and moves it with the concierge to the recorded state. */
async function driveTo(recordedId: string, expected: any): Promise<void> {
  const broker = clientFor({
    headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
  } as unknown as Transcript);
  const { concierge } = server;
  if (!ids.has(recordedId)) {
    const post = parseTranscript('asset-post-2pc.http', readFileSync(`${DIR}/asset-post-2pc.http`, 'utf8'));
    const created = await broker.post('/api/0.1/assets', rec20Units(JSON.parse(post.body!)));
    expect(created.status, created.text).toBe(201);
    ids.set(recordedId, created.json.data.id);
    const pending = await broker.patch(
      `/api/0.1/assets/${created.json.data.id}`,
      { data: { status: 'pending' } },
      { token: created.json.access.token },
    );
    expect(pending.status, pending.text).toBe(200);
  }
  const id = ids.get(recordedId)!;
  const path = `/api/0.1/assets/${id}`;
  const move = async (data: Record<string, unknown>) => {
    const res = await concierge.patch(path, { data });
    expect(res.status, `${JSON.stringify(data)}: ${res.text}`).toBe(200);
    expect(res.json.data.status).toBe(data.status);
  };
  const current = (await concierge.get(path)).json.data.status as string;
  const lot = expected.relatedLot as string | undefined;
  if (expected.status === 'active') {
    if (current === 'pending') await move({ status: 'verification', relatedLot: lot });
    await move({ status: 'active', relatedLot: lot });
  } else if (expected.status === 'pending' && current === 'active') {
    await move({ status: 'pending' });
  } else if (expected.status === 'complete') {
    if (current === 'pending') await move({ status: 'verification', relatedLot: lot });
    if (current !== 'active') await move({ status: 'active', relatedLot: lot });
    await move({ status: 'complete', relatedLot: lot });
  }
}

function checkListing(t: Transcript, res: Response): void {
  const expected = t.response;
  expect(res.json.data).toHaveLength(expected.data.length);
  const recordedIds = expected.data.map((r: any) => ids.get(r.id) ?? r.id);
  expect(res.json.data.map((r: any) => r.id)).toEqual(recordedIds);
  const last = res.json.data.at(-1);
  const offset = last ? last.dateModified : '';
  expect(res.json.next_page.offset).toBe(offset);
  expect(res.json.next_page.path).toBe(`/api/0.1/assets?offset=${encodeURIComponent(offset)}`);
  expect(res.json.next_page.uri).toBe(`${server.url}/api/0.1/assets?offset=${encodeURIComponent(offset)}`);
  expect(res.json.prev_page).toBeUndefined();
}

describe('claimRights tutorial transcripts', () => {
  it('covers every transcript file: replayed or named stale', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.http'))
      .sort();
    expect([...ORDER, ...STALE].sort()).toEqual(files);
  });

  for (const file of ORDER) {
    it(file, async () => {
      const t = parseTranscript(file, readFileSync(`${DIR}/${file}`, 'utf8'));
      const recordedId = /\/assets\/([0-9a-f]{32})/.exec(t.path)?.[1];
      if (t.method === 'GET' && recordedId) await driveTo(recordedId, t.response.data);
      const before =
        t.method === 'PATCH' && recordedId
          ? (await server.client().get(substitute(`/api/0.1/assets/${recordedId}`))).json.data
          : undefined;

      const client = clientFor(t);
      const headers: Record<string, string> = {};
      if (t.headers['content-type']) headers['content-type'] = t.headers['content-type'];
      let body: string | undefined;
      if (t.body !== undefined) body = JSON.stringify(rec20Units(JSON.parse(substitute(t.body))));
      else if (t.method === 'POST') body = 'data'; // the recorded attempts sent 4 bytes and show no body
      const res = await client.request(t.method, substitute(t.path), { headers, body });

      expect(res.status, res.text).toBe(t.status);
      if (t.status >= 400) {
        // Spec wording wins over the recorded simplejson message (docs/decisions/0015-the-originals-quirks.md).
        const expected =
          t.status === 422
            ? [{ location: 'body', name: 'data', description: 'No JSON object could be decoded' }]
            : t.response.errors;
        expect(res.json).toEqual({ status: 'error', errors: expected });
        return;
      }
      if ('next_page' in t.response) {
        checkListing(t, res);
        return;
      }
      const data = res.json.data;
      if (t.method === 'POST') {
        ids.set(t.response.data.id, data.id);
        tokens.set(t.response.access.token, res.json.access.token);
        expect(Object.keys(res.json).sort()).toEqual(['access', 'data']);
        expect(new URL(res.headers.location!).pathname).toBe(`/api/0.1/assets/${data.id}`);
      }
      expect(data.id).toBe(ids.get(t.response.data.id));
      expect(Object.keys(data).sort()).toEqual(Object.keys(t.response.data).sort());
      expect(stable(data)).toEqual(stable(t.response.data));
      // assetID keeps the recorded counter (same creation order), with today's date.
      expect(data.assetID.slice(-6)).toBe(t.response.data.assetID.slice(-6));
      expect(data.assetID).toMatch(/^UA-AR-DGF-\d{4}-\d{2}-\d{2}-\d{6}$/);
      expect(data.items.length).toBe(t.response.data.items.length);
      if (before) {
        // A PATCH that changes nothing keeps dateModified (pending-first/second-asset re-send pending); a change moves it.
        const sameStatusOnly =
          before.status === data.status && Object.keys(JSON.parse(t.body!).data).join() === 'status';
        if (sameStatusOnly) expect(data.dateModified).toBe(before.dateModified);
        else
          expect(
            data.dateModified > before.dateModified || Date.parse(data.dateModified) > Date.parse(before.dateModified),
          ).toBe(true);
        if (before.status !== data.status) expect(data.date).not.toBe(before.date);
      }
    });
  }
});
