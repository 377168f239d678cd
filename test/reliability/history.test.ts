/**
 * Histories under load (docs/decisions/0035-history-kept-beside-the-record.md,
 * docs/decisions/0036-revisions-are-json-patches.md): random writes, concurrent writers on one asset and a SIGKILL
 * mid-write all leave histories that fold into the asset as served, with every acknowledged write once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Client, type Response } from '../helpers/client.js';
import { createAsset, toPending, validAsset } from '../helpers/fixtures.js';
import { expectWellFormed, readHistory } from '../helpers/history.js';
import { KEYS, useScratch, useServer } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';
import { bound, reportFigures, sleep } from './fixtures/common.js';
import { prepareStore, startChild, useChildServers } from './fixtures/child-server.js';

const API = '/api/0.1';
const assetPath = (id: string) => `${API}/assets/${id}`;
const LOT = 'b5ca6aa850694154b6a5f6db4e65f5da';
/** Actions per randomised run, and runs. */
const ACTIONS = bound('RELIABILITY_HISTORY_ACTIONS', 40);
const RUNS = bound('RELIABILITY_HISTORY_RUNS', 3);

type Role = 'owner' | 'broker2' | 'concierge' | 'admin';

const action = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('create' as const), by: fc.constantFrom('broker', 'broker2') }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      asset: fc.nat(),
      by: fc.constantFrom<Role>('owner', 'owner', 'broker2', 'concierge', 'admin'),
      data: fc.oneof(
        fc.record({ title: fc.string({ minLength: 1, maxLength: 20 }) }),
        fc.record({ description: fc.string({ maxLength: 30 }) }),
        fc.record({
          value: fc.record({ amount: fc.integer({ min: 1, max: 1_000_000 }), currency: fc.constant('UAH') }),
        }),
        fc.record({ quantity: fc.integer({ min: 1, max: 9 }) }),
        fc.constantFrom<Record<string, unknown>>(
          { status: 'pending' },
          { status: 'verification' },
          { status: 'active', relatedLot: LOT },
          { status: 'pending' },
          { status: 'complete' },
          { status: 'deleted' },
          { mode: 'test' },
          { items: [{ quantity: 2 }] },
        ),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('document' as const),
      asset: fc.nat(),
      op: fc.constantFrom('add', 'replace', 'describe'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      asset: fc.nat(),
      by: fc.constantFrom('broker', 'broker2', 'admin'),
    }),
  },
);

describe('history under a randomised run of every kind of write', () => {
  const server = useServer();
  const clients: Record<string, Client> = {
    broker: server.broker,
    broker2: server.broker2,
    concierge: server.concierge,
    admin: server.admin,
  };

  /** What the run knows of one asset: its owner's client and tokens, and its documents. */
  interface Known {
    id: string;
    owner: string;
    token: string;
    transfer: string;
    documents: string[];
  }

  it('every asset folds into what it serves, after creates, PATCHes by all roles, document writes and transfers', async () => {
    const tally = { runs: 0, actions: 0, accepted: 0, assets: 0, revisions: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: ACTIONS, maxLength: ACTIONS }), async (actions) => {
        const known: Known[] = [];
        const pick = (index: number): Known | undefined =>
          known.length === 0 ? undefined : known[index % known.length];
        for (const step of actions) {
          tally.actions++;
          let res: Response | undefined;
          if (step.kind === 'create') {
            const created = await createAsset(clients[step.by]!);
            known.push({
              id: created.id,
              owner: step.by,
              token: created.token,
              transfer: created.transfer,
              documents: [],
            });
            tally.accepted++;
            continue;
          }
          const asset = pick(step.asset);
          if (asset === undefined) continue;
          if (step.kind === 'patch') {
            const client = step.by === 'owner' ? clients[asset.owner]! : clients[step.by]!;
            res = await client.patch(
              assetPath(asset.id),
              { data: step.data },
              step.by === 'owner' ? { token: asset.token } : {},
            );
          } else if (step.kind === 'document') {
            const owner = clients[asset.owner]!;
            const documentId = asset.documents[step.asset % Math.max(asset.documents.length, 1)];
            if (step.op === 'add' || documentId === undefined) {
              res = await owner.post(
                `${assetPath(asset.id)}/documents`,
                { data: await uploadFile(owner) },
                { token: asset.token },
              );
              if (res.status === 201) asset.documents.push(res.json.data.id as string);
            } else if (step.op === 'replace') {
              const json = { data: await uploadFile(owner) };
              res = await owner.request('PUT', `${assetPath(asset.id)}/documents/${documentId}`, {
                json,
                token: asset.token,
              });
            } else {
              res = await owner.patch(
                `${assetPath(asset.id)}/documents/${documentId}`,
                { data: { description: `опис ${step.asset}` } },
                { token: asset.token },
              );
            }
          } else {
            const receiver = step.by === 'admin' ? 'broker2' : step.by;
            const made = await clients[receiver]!.post(`${API}/transfers`, { data: {} });
            expect(made.status, made.text).toBe(201);
            res = await clients[step.by]!.post(`${assetPath(asset.id)}/ownership`, {
              data: { id: made.json.data.id, transfer: asset.transfer },
            });
            if (res.status === 200)
              Object.assign(asset, {
                owner: receiver,
                token: made.json.access.token,
                transfer: made.json.access.transfer,
              });
          }
          // A refusal is part of the run (a role or status that may not write); a server error never is.
          expect(res.status, res.text).toBeLessThan(500);
          if (res.status < 300) tally.accepted++;
        }
        for (const asset of known) {
          const served = await server.anonymous.get(assetPath(asset.id));
          const revisions = await readHistory(server.anonymous, asset.id, 7);
          expectWellFormed(revisions, served.json.data);
          tally.assets++;
          tally.revisions += revisions.length;
        }
        tally.runs++;
      }),
      { numRuns: RUNS, seed: 1812 },
    );
    reportFigures('history randomised', tally);
  }, 240_000);

  it('16 writers at once on one asset: contiguous revisions, one per acknowledged change', async () => {
    const { id, token } = await createAsset(server.broker);
    await toPending(server.broker, id, token);
    let acknowledged = 0;
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          server.broker.patch(assetPath(id), { data: { title: `round ${round} writer ${i}` } }, { token }),
        ),
      );
      for (const res of results) {
        expect([200, 409], res.text).toContain(res.status);
        if (res.status === 200) acknowledged++;
      }
    }
    const revisions = await readHistory(server.anonymous, id, 10);
    expect(revisions).toHaveLength(2 + acknowledged);
    expectWellFormed(revisions, (await server.anonymous.get(assetPath(id))).json.data);
    reportFigures('history 16 writers', { writes: 48, acknowledged, revisions: revisions.length });
  });
});

describe('history across kill -9', () => {
  const scratch = useScratch();
  const children = useChildServers();

  it('keeps every acknowledged write once and nothing half-done, for every asset', async () => {
    const store = await prepareStore(scratch);
    let child = await startChild(store);
    children.push(child);
    const owner = new Client(child.url, { key: KEYS.broker });
    const assets: { id: string; token: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await createAsset(owner, validAsset());
      await toPending(owner, created.id, created.token);
      assets.push(created);
    }
    /** Per asset: the `dateModified` of every acknowledged PATCH. */
    const acknowledged = new Map<string, string[]>(assets.map((asset) => [asset.id, []]));
    let writes = 0;
    for (let kill = 0; kill < 2; kill++) {
      let running = true;
      // Three writers per asset, so that writes also race for the same revision.
      const workers = assets.flatMap((asset) =>
        [0, 1, 2].map(async (worker) => {
          const client = new Client(child.url, { key: KEYS.broker });
          for (let i = 0; running; i++) {
            try {
              const res = await client.patch(
                assetPath(asset.id),
                { data: { title: `kill ${kill} worker ${worker} write ${i}` } },
                { token: asset.token },
              );
              writes++;
              if (res.status === 200) acknowledged.get(asset.id)!.push(res.json.data.dateModified as string);
            } catch {
              return; // the server is gone
            }
          }
        }),
      );
      // Each burst runs until some writes were acknowledged (a slower store takes longer), then a little more.
      const before = [...acknowledged.values()].flat().length;
      const deadline = Date.now() + 20_000;
      while ([...acknowledged.values()].flat().length < before + 12 && Date.now() < deadline) await sleep(20);
      await sleep(100 + kill * 150);
      await child.kill9();
      running = false;
      await Promise.all(workers);
      child = await startChild(store);
      children.push(child);
    }
    const reader = new Client(child.url);
    let revisions = 0;
    for (const asset of assets) {
      const history = await readHistory(reader, asset.id, 50);
      expectWellFormed(history, (await reader.get(assetPath(asset.id))).json.data);
      const dates = history.map((revision) => revision.date);
      // Every acknowledged write is there, once; at most the writes in flight at each kill were added unacknowledged.
      for (const date of acknowledged.get(asset.id)!)
        expect(
          dates.filter((d) => d === date),
          date,
        ).toHaveLength(1);
      expect(history.length - 2 - acknowledged.get(asset.id)!.length).toBeLessThanOrEqual(2 * 3);
      revisions += history.length;
    }
    reportFigures('history kill -9', {
      kills: 2,
      writes,
      acknowledged: [...acknowledged.values()].flat().length,
      revisions,
    });
  }, 180_000);
});
