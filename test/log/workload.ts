/**
 * A randomised run of the writes that add revisions, from several clients at once: creates, PATCHes (fields and
 * status), documents (uploaded, then added), ownership transfers. Seeded, so a failure names the run to repeat.
 * Requests cut off by a kill are tolerated: only what was acknowledged is reported.
 */
import { Client } from '../helpers/client.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { KEYS } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';

/** mulberry32: small, seeded, good enough to pick the next write. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Owned {
  id: string;
  token: string;
  transfer: string;
  owner: Client;
}

export interface Workload {
  /** Every asset whose creation was acknowledged. */
  readonly assets: Set<string>;
  /** Writes acknowledged so far. */
  acknowledged: number;
  /**
   * Resolves once `count` writes are acknowledged in all; throws after `ms`. A run waits for its writes rather than a
   * set time: a node just restarted on MongoDB holds its first write until the killed node's leases expire.
   */
  reach(count: number, ms: number): Promise<void>;
  /** Resolves once every client has stopped (after `stop()`, or when the server went away). */
  stop(): Promise<void>;
}

/** Starts `clients` clients writing at random to `url` until stopped. */
export function randomWrites(url: string, seed: number, clients = 4): Workload {
  const random = seededRandom(seed);
  const assets = new Set<string>();
  let stopping = false;
  const workload = {
    assets,
    acknowledged: 0,
    async reach(count: number, ms: number) {
      const deadline = Date.now() + ms;
      while (workload.acknowledged < count) {
        if (Date.now() > deadline)
          throw new Error(`${workload.acknowledged} writes acknowledged in ${ms} ms, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      stopping = true;
      await running;
    },
  };
  const brokers = [new Client(url, { key: KEYS.broker }), new Client(url, { key: KEYS.broker2 })];

  /** Each client writes only to the assets it created: no two of its writes race. */
  async function one(owned: Owned[]): Promise<void> {
    const pick = random();
    const target = owned[Math.floor(random() * owned.length)];
    if (target === undefined || pick < 0.3) {
      const owner = brokers[Math.floor(random() * 2)]!;
      const created = await createAsset(owner);
      assets.add(created.id);
      owned.push({ ...created, owner });
      await toPending(owner, created.id, created.token);
    } else if (pick < 0.65) {
      const res = await target.owner.patch(
        `/api/0.1/assets/${target.id}`,
        { data: { title: `title ${Math.floor(random() * 1e6)}` } },
        { token: target.token },
      );
      if (res.status !== 200 && res.status !== 409) throw new Error(`PATCH answered ${res.status}: ${res.text}`);
    } else if (pick < 0.85) {
      const res = await target.owner.post(
        `/api/0.1/assets/${target.id}/documents`,
        { data: await uploadFile(target.owner) },
        { token: target.token },
      );
      if (res.status !== 201 && res.status !== 409)
        throw new Error(`adding a document answered ${res.status}: ${res.text}`);
    } else {
      const next = brokers.find((broker) => broker !== target.owner)!;
      const transfer = await next.post('/api/0.1/transfers', { data: {} });
      if (transfer.status !== 201) throw new Error(`POST /transfers answered ${transfer.status}: ${transfer.text}`);
      const moved = await next.post(`/api/0.1/assets/${target.id}/ownership`, {
        data: { id: transfer.json.data.id, transfer: target.transfer },
      });
      if (moved.status !== 200) throw new Error(`the transfer answered ${moved.status}: ${moved.text}`);
      Object.assign(target, {
        owner: next,
        token: transfer.json.access.token,
        transfer: transfer.json.access.transfer,
      });
    }
    workload.acknowledged++;
  }

  const running = Promise.all(
    Array.from({ length: clients }, async () => {
      const owned: Owned[] = [];
      while (!stopping) {
        try {
          await one(owned);
        } catch (error) {
          // The server went away (a kill): this client stops; what it had acknowledged stands.
          if (/ECONNREFUSED|ECONNRESET|SocketError|other side closed|fetch failed/i.test(String(error))) return;
          throw error;
        }
      }
    }),
  ).then(() => undefined);
  return workload;
}
