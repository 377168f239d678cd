/**
 * The stores' part of ownership transfers (docs/decisions/0033-ownership-transfer-in-two-writes.md): transfer
 * records with their mark changed by compare-and-set, asset records keeping their transfer credentials, and
 * databases written before transfers existed. The same suite runs on the embedded store and, when MONGODB_URI is
 * set, on MongoDB.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../src/store/sqlite/index.js';
import { databaseName, openMongoStore } from '../../src/store/mongo/index.js';
import type { AssetStore, TransferMark, TransferRecord } from '../../src/store/types.js';
import { dropMongoDatabase, uniqueMongoUri } from '../helpers/server.js';
import { DRAFT_ZONE, draftAt, written } from './fixtures/drafts.js';

const scratch = mkdtempSync(join(tmpdir(), 'registry-transfers-'));
let dirCount = 0;
const freshDir = () => join(scratch, `store-${++dirCount}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let transferCount = 0;
function transferRecord(overrides: Partial<TransferRecord> = {}): TransferRecord {
  const n = String(++transferCount).padStart(4, '0');
  return {
    id: `${n}`.padEnd(32, 'f'),
    owner: 'broker2',
    ownerTokenHash: `o${n}`.padEnd(64, '0'),
    transferTokenHash: `t${n}`.padEnd(64, '0'),
    created: 1_764_000_000_000_000 + transferCount,
    mark: null,
    ...overrides,
  };
}

const mark = (assetId: string, fromHash = 'c'.repeat(64), at = 1_764_000_000_123_456): TransferMark => ({
  assetId,
  fromHash,
  at,
});

interface Opened {
  store: AssetStore;
  close(): Promise<void>;
}

const stores: [string, () => Promise<Opened>][] = [
  [
    'embedded',
    async () => {
      const store = openEmbeddedStore({ dataDir: freshDir(), timeZone: DRAFT_ZONE });
      return { store, close: () => store.close() };
    },
  ],
];
const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  stores.push([
    'mongo',
    async () => {
      const uri = uniqueMongoUri(mongoUri);
      const store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
      return {
        store,
        async close() {
          await store.close();
          await dropMongoDatabase(uri);
        },
      };
    },
  ]);
}

for (const [name, open] of stores) {
  describe(`transfers in the ${name} store`, () => {
    let opened: Opened;
    let store: AssetStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('keeps a transfer as created, and knows no other', async () => {
      const record = transferRecord();
      await store.transfers.create(record);
      expect(await store.transfers.get(record.id)).toEqual(record);
      expect(await store.transfers.get('0'.repeat(32))).toBeUndefined();
    });

    it('refuses a second transfer with the same id', async () => {
      const record = transferRecord();
      await store.transfers.create(record);
      await expect(store.transfers.create({ ...record, owner: 'someone else' })).rejects.toThrow();
      expect(await store.transfers.get(record.id)).toEqual(record);
    });

    it('sets the mark only when it is still the one expected', async () => {
      const record = transferRecord();
      await store.transfers.create(record);
      const first = mark('a'.repeat(32));
      expect(await store.transfers.setMark(record.id, null, first)).toBe(true);
      expect((await store.transfers.get(record.id))?.mark).toEqual(first);

      // Expected nothing, or the same mark with any field different: refused, and nothing changes.
      const second = mark('b'.repeat(32));
      for (const stale of [
        null,
        { ...first, assetId: 'e'.repeat(32) },
        { ...first, fromHash: 'd'.repeat(64) },
        { ...first, at: first.at + 1 },
      ]) {
        expect(await store.transfers.setMark(record.id, stale, second), JSON.stringify(stale)).toBe(false);
      }
      expect((await store.transfers.get(record.id))?.mark).toEqual(first);

      expect(await store.transfers.setMark(record.id, first, second)).toBe(true);
      expect(await store.transfers.get(record.id)).toEqual({ ...record, mark: second });
    });

    it('answers false for an unknown transfer', async () => {
      expect(await store.transfers.setMark('0'.repeat(32), null, mark('a'.repeat(32)))).toBe(false);
    });

    it('lets exactly one of many concurrent marks from the same expected value win', async () => {
      const record = transferRecord();
      await store.transfers.create(record);
      const candidates = Array.from({ length: 12 }, (_, i) => mark(String(i).padStart(32, 'a')));
      const results = await Promise.all(candidates.map((next) => store.transfers.setMark(record.id, null, next)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.transfers.get(record.id))?.mark).toEqual(candidates[results.indexOf(true)]);
    });

    it('keeps an asset’s transfer token hash and applied transfers through create and update', async () => {
      const created = await store.create((stamp) => written(draftAt(stamp)));
      expect(created).toMatchObject({ transferTokenHash: 'b'.repeat(64), appliedTransfers: [] });
      expect(await store.get(created.id)).toEqual(created);
      const updated = await store.update(created.id, created.rev, (stamp) =>
        written({
          ...draftAt(stamp, { id: created.id }),
          ownerTokenHash: 'e'.repeat(64),
          transferTokenHash: 'f'.repeat(64),
          appliedTransfers: ['1'.repeat(32), '2'.repeat(32)],
        }),
      );
      expect(updated).not.toBe('conflict');
      expect(await store.get(created.id)).toEqual(updated);
      expect(await store.get(created.id)).toMatchObject({
        ownerTokenHash: 'e'.repeat(64),
        transferTokenHash: 'f'.repeat(64),
        appliedTransfers: ['1'.repeat(32), '2'.repeat(32)],
      });
    });
  });
}

describe('databases written before transfers existed', () => {
  it('embedded: adds the new asset columns and the transfers table; old assets have no transfer token', async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'registry.sqlite'));
    // The schema of the first release, with one asset in it.
    db.exec(`
      CREATE TABLE assets (
        id TEXT PRIMARY KEY, rev INTEGER NOT NULL, owner_token_hash TEXT NOT NULL, modified INTEGER NOT NULL UNIQUE,
        listed INTEGER NOT NULL, test INTEGER NOT NULL, date_modified TEXT NOT NULL, doc TEXT NOT NULL
      );
      CREATE TABLE counters (day TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    const id = '9'.repeat(32);
    db.prepare('INSERT INTO assets VALUES (?, 1, ?, 1764000000000000, 1, 0, ?, ?)').run(
      id,
      'a'.repeat(64),
      '2025-11-24T18:00:00.000000+02:00',
      JSON.stringify({ id, owner: 'broker', status: 'pending', dateModified: '2025-11-24T18:00:00.000000+02:00' }),
    );
    db.close();

    for (let opening = 1; opening <= 2; opening++) {
      const store = openEmbeddedStore({ dataDir, timeZone: DRAFT_ZONE });
      try {
        expect(await store.get(id), `opening ${opening}`).toMatchObject({
          id,
          rev: 1,
          transferTokenHash: null,
          appliedTransfers: [],
        });
        const record = transferRecord();
        await store.transfers.create(record);
        expect(await store.transfers.get(record.id)).toEqual(record);
      } finally {
        await store.close();
      }
    }
  });

  it.runIf(mongoUri !== undefined)(
    'mongo: an asset document without the new fields has no transfer token',
    async () => {
      const uri = uniqueMongoUri(mongoUri!);
      const id = '9'.repeat(32);
      const client = new MongoClient(uri);
      try {
        await client
          .db(databaseName(uri))
          .collection<{ _id: string } & Record<string, unknown>>('assets')
          .insertOne({
            _id: id,
            rev: 1,
            ownerTokenHash: 'a'.repeat(64),
            modified: 1_764_000_000_000_000,
            listed: true,
            test: false,
            dateModified: '2025-11-24T18:00:00.000000+02:00',
            counterKey: `bulk#${id}`,
            asset: { id, owner: 'broker', status: 'pending', dateModified: '2025-11-24T18:00:00.000000+02:00' },
          });
        const store = await openMongoStore({ uri, timeZone: DRAFT_ZONE });
        try {
          expect(await store.get(id)).toMatchObject({ id, rev: 1, transferTokenHash: null, appliedTransfers: [] });
        } finally {
          await store.close();
        }
      } finally {
        await client.db(databaseName(uri)).dropDatabase();
        await client.close();
      }
    },
  );
});
