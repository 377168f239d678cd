/**
 * No lost update: PATCHes of one asset sent at once all land or get 409 and leave nothing, also with two servers on
 * one store, as the compare-and-set is the store's, not a lock in one process.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, serverForThisTest, useScratch } from '../helpers/server.js';
import { prepareStore, startChild, useChildServers } from './fixtures/child-server.js';
import { Client } from '../helpers/client.js';
import { createAsset, validAsset } from '../helpers/fixtures.js';
import type { AssetStore } from '../../src/store/types.js';
import { bound, reportFigures, toMicros } from './fixtures/common.js';

/** One change per request: the body's `data`, and where to find the value afterwards. */
interface Change {
  name: string;
  data: (round: number) => Record<string, unknown>;
  read: (asset: any) => unknown;
  expected: (round: number) => unknown;
}

const text = (field: string) => (round: number) => `${field} round ${round}`;

function topLevel(field: string): Change {
  return { name: field, data: (r) => ({ [field]: text(field)(r) }), read: (a) => a[field], expected: text(field) };
}

function nested(path: string[]): Change {
  const name = path.join('.');
  return {
    name,
    data: (r) =>
      path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), text(name)(r)) as Record<string, unknown>,
    read: (a) => path.reduce((node, key) => node?.[key], a),
    expected: text(name),
  };
}

/** Twenty distinct fields of the asset, top-level and nested (a PATCH deep-merges objects). */
const CHANGES: Change[] = [
  topLevel('title'),
  topLevel('title_en'),
  topLevel('title_ru'),
  topLevel('description'),
  topLevel('description_en'),
  topLevel('description_ru'),
  topLevel('decription_en'),
  topLevel('decription_ru'),
  {
    name: 'quantity',
    data: (r) => ({ quantity: 100 + r }),
    read: (a) => a.quantity,
    expected: (r) => 100 + r,
  },
  {
    name: 'value.amount',
    data: (r) => ({ value: { amount: 1000 + r } }),
    read: (a) => a.value?.amount,
    expected: (r) => 1000 + r,
  },
  nested(['unit', 'name']),
  nested(['address', 'locality']),
  nested(['address', 'region']),
  nested(['address', 'streetAddress']),
  nested(['debt', 'agreementNumber']),
  {
    name: 'debt.value.amount',
    data: (r) => ({ debt: { value: { amount: 2000 + r } } }),
    read: (a) => a.debt?.value?.amount,
    expected: (r) => 2000 + r,
  },
  nested(['assetCustodian', 'name']),
  nested(['assetCustodian', 'contactPoint', 'name']),
  nested(['assetCustodian', 'address', 'locality']),
  nested(['classification', 'description']),
];

const ROUNDS = bound('RELIABILITY_LOST_UPDATE_ROUNDS', 10);
const TIME_LIMIT_MS = 20_000;

interface Tally {
  rounds: number;
  requests: number;
  applied: number;
  conflicts: number;
  lost: number;
  leftBehindBy409: number;
  /** Store writes that lost the compare-and-set (the server re-read and re-applied them, or answered 409). */
  racesLost?: number;
}

/**
 * Counts the store's 'conflict' answers: proof that the requests really raced. The real store still does the
 * work; only the count is added.
 */
function countConflicts(store: AssetStore, tally: Tally): void {
  const update = store.update.bind(store);
  tally.racesLost ??= 0;
  store.update = async (id, expectedRev, build) => {
    const result = await update(id, expectedRev, build);
    if (result === 'conflict') tally.racesLost = (tally.racesLost ?? 0) + 1;
    return result;
  };
}

/**
 * Runs rounds of 20 simultaneous PATCHes on one draft asset; `clients[i % n]` sends change i. Checks each round
 * and returns the tally.
 */
async function hammer(clients: Client[], id: string, token: string, tally: Tally): Promise<void> {
  const started = Date.now();
  for (let round = 1; round <= ROUNDS && Date.now() - started < TIME_LIMIT_MS; round++) {
    const responses = await Promise.all(
      CHANGES.map((change, i) =>
        clients[i % clients.length]!.patch(`/api/0.1/assets/${id}`, { data: change.data(round) }, { token }),
      ),
    );
    const final = await clients[0]!.get(`/api/0.1/assets/${id}`);
    expect(final.status).toBe(200);
    const asset = final.json.data;
    tally.rounds++;
    const stamps = new Set<string>();
    responses.forEach((res, i) => {
      const change = CHANGES[i]!;
      tally.requests++;
      expect([200, 409], `${change.name}: ${res.status} ${res.text}`).toContain(res.status);
      if (res.status === 200) {
        tally.applied++;
        // The answer shows the change, and it is still there after all the others.
        expect(change.read(res.json.data), `${change.name} in its own answer`).toEqual(change.expected(round));
        stamps.add(res.json.data.dateModified);
        if (!isEqual(change.read(asset), change.expected(round))) tally.lost++;
      } else {
        tally.conflicts++;
        expect(res.json.status).toBe('error');
        if (isEqual(change.read(asset), change.expected(round))) tally.leftBehindBy409++;
      }
    });
    // Every applied change was its own write: a distinct dateModified, the latest being the asset's.
    const applied = responses.filter((res) => res.status === 200).length;
    expect(stamps.size, 'each applied PATCH got its own dateModified').toBe(applied);
    if (applied > 0) {
      const latest = [...stamps].reduce((a, b) => (toMicros(a) > toMicros(b) ? a : b));
      expect(asset.dateModified, 'the asset is at its latest applied write').toBe(latest);
    }
    // The fields nobody touched are as created.
    expect(asset.value.currency).toBe('UAH');
    expect(asset.debt.debtCurrencyValue).toEqual({ currency: 'USD', amount: 100 });
    expect(asset.items).toHaveLength(2);
  }
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function newTally(): Tally {
  return { rounds: 0, requests: 0, applied: 0, conflicts: 0, lost: 0, leftBehindBy409: 0 };
}

function check(name: string, tally: Tally): void {
  // racesLost is only known where the store runs in this process.
  reportFigures(`lost update: ${name}`, {
    parallelPatches: CHANGES.length,
    ...tally,
    racesLost: tally.racesLost ?? 'not measured',
  });
  expect(tally.lost, 'changes answered 200 but missing afterwards').toBe(0);
  expect(tally.leftBehindBy409, 'changes answered 409 but applied anyway').toBe(0);
  expect(tally.applied + tally.conflicts).toBe(tally.requests);
  expect(tally.applied, 'most requests get through (the server retries a lost race)').toBeGreaterThan(0);
}

describe('no lost update', () => {
  // The two processes' store; removed after they are stopped (hooks after run in reverse order).
  const scratch = useScratch();
  const children = useChildServers();

  it(`${CHANGES.length} parallel PATCHes of distinct fields of one asset: all kept, or 409`, async () => {
    expect(new Set(CHANGES.map((c) => c.name)).size).toBe(20);
    const server = await serverForThisTest({}, { via: 'http' });
    const owner = server.broker;
    const { id, token } = await createAsset(owner, validAsset({ title_en: 'start' }));
    // One client per request: separate connections, so the requests really are in flight together.
    const clients = CHANGES.map(() => server.client({ key: KEYS.broker }));
    const tally = newTally();
    countConflicts(server.store, tally);
    await hammer(clients, id, token, tally);
    check('one server', tally);
  }, 60_000);

  it('the same when every store read is slow, so that the requests really race', async () => {
    // In one process the embedded store answers synchronously, so one PATCH runs from read to write before the
    // next begins and nothing races (racesLost is 0 above). Here every read first lets the other requests run,
    // as a store across a network does: all twenty read the same revision and all but one lose the race.
    const server = await serverForThisTest({}, { via: 'http' });
    const tally = newTally();
    countConflicts(server.store, tally);
    const get = server.store.get.bind(server.store);
    let reads = 0;
    server.store.get = async (id) => {
      const record = await get(id);
      await new Promise((resolve) => setTimeout(resolve, reads++ % 3));
      return record;
    };
    const owner = server.broker;
    const { id, token } = await createAsset(owner, validAsset());
    const clients = CHANGES.map(() => server.client({ key: KEYS.broker }));
    await hammer(clients, id, token, tally);
    check('slow reads', tally);
    expect(tally.racesLost ?? 0, 'the requests raced').toBeGreaterThan(0);
  }, 60_000);

  it(`the same across two server processes sharing one store`, async () => {
    const store = await prepareStore(scratch);
    const nodes = await Promise.all([
      startChild(store, { serverId: 'node-a' }),
      startChild(store, { serverId: 'node-b' }),
    ]);
    children.push(...nodes);
    const owner = new Client(nodes[0]!.url, { key: KEYS.broker });
    const { id, token } = await createAsset(owner, validAsset());
    const clients = CHANGES.map((_, i) => new Client(nodes[i % 2]!.url, { key: KEYS.broker }));
    const tally = newTally();
    await hammer(clients, id, token, tally);
    check('two processes', tally);
  }, 60_000);
});
