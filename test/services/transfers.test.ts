/**
 * The transfer service over a real store (embedded; MongoDB too when MONGODB_URI is set): the two writes of an
 * ownership change, what a call cut short between them leaves and how repeating it finishes the job, and races
 * (several transfers for one asset, one transfer for several assets) that must leave exactly one new owner and no
 * transfer used for an asset it did not get. The HTTP side is in test/routes/transfers/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { hashToken, newToken, tokenMatches } from '../../src/domain/ids.js';
import type { Principal } from '../../src/domain/callers.js';
import { TransferService } from '../../src/services/transfers.js';
import { openEmbeddedStore } from '../../src/store/sqlite/index.js';
import { openMongoStore } from '../../src/store/mongo/index.js';
import type { AssetRecord, AssetStore } from '../../src/store/types.js';
import { dropMongoDatabase, uniqueMongoUri } from '../helpers/server.js';
import { DRAFT_ZONE, draftAt, written } from '../store/fixtures/drafts.js';
import { validAsset } from '../helpers/fixtures.js';
import { formatDate } from '../../src/domain/dates.js';

const OLD_OWNER: Principal = { name: 'broker', role: 'brokers' };
const NEW_OWNER: Principal = { name: 'broker2', role: 'brokers' };

const scratch = mkdtempSync(join(tmpdir(), 'registry-transfer-service-'));
let dirCount = 0;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const mongoUri = process.env.MONGODB_URI;
const stores: [string, () => Promise<{ store: AssetStore; close(): Promise<void> }>][] = [
  [
    'embedded',
    async () => {
      const store = openEmbeddedStore({ dataDir: join(scratch, `store-${++dirCount}`), timeZone: DRAFT_ZONE });
      return { store, close: () => store.close() };
    },
  ],
];
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

/** The refusal a promise ends in, as status and error entries. */
async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; errors: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, errors: error.errors };
    throw error;
  }
  throw new Error('expected a refusal');
}

const INVALID = { status: 403, errors: [{ location: 'body', name: 'transfer', description: 'Invalid transfer' }] };
const ALREADY_USED = {
  status: 403,
  errors: [{ location: 'body', name: 'transfer', description: 'Transfer already used' }],
};

for (const [name, open] of stores) {
  describe(`TransferService on the ${name} store`, () => {
    let store: AssetStore;
    let close: () => Promise<void>;
    let service: TransferService;

    beforeEach(async () => {
      ({ store, close } = await open());
      service = new TransferService(store, { timeZone: DRAFT_ZONE });
    });
    afterEach(async () => {
      await close();
    });

    /** An asset owned by OLD_OWNER whose transfer token is known, as a creation over HTTP leaves it: a whole asset. */
    async function asset(): Promise<{ record: AssetRecord; transferToken: string }> {
      const transferToken = newToken();
      const record = await store.create((stamp) => {
        const draft = draftAt(stamp);
        const whole = {
          ...validAsset(),
          ...draft.asset,
          date: formatDate(stamp.now, DRAFT_ZONE),
          owner: OLD_OWNER.name,
        };
        return written({ ...draft, transferTokenHash: hashToken(transferToken), asset: whole });
      });
      return { record, transferToken };
    }

    async function transfer(owner: Principal = NEW_OWNER) {
      const { transfer: served, access } = await service.create(owner, { data: {} });
      return { id: served.id, token: access.token, transferToken: access.transfer };
    }

    const apply = (assetId: string, transferId: string, transferToken: string, caller: Principal = NEW_OWNER) =>
      service.changeOwnership(caller, assetId, { data: { id: transferId, transfer: transferToken } });

    it('hands the asset over: owner, both tokens, the transfer recorded, a later dateModified', async () => {
      const { record, transferToken } = await asset();
      const t = await transfer();
      const served = await apply(record.id, t.id, transferToken);
      expect(served.owner).toBe(NEW_OWNER.name);
      expect(served.dateModified > String(record.asset.dateModified)).toBe(true);
      const after = (await store.get(record.id))!;
      expect(after.rev).toBe(record.rev + 1);
      expect(tokenMatches(t.token, after.ownerTokenHash)).toBe(true);
      expect(tokenMatches(t.transferToken, after.transferTokenHash!)).toBe(true);
      expect(after.appliedTransfers).toEqual([t.id]);
      expect(await service.read(NEW_OWNER, t.id)).toMatchObject({ id: t.id, usedFor: `/assets/${record.id}` });

      // The same call again carries a token that is no longer the asset's: refused, nothing written.
      expect(await refusalOf(apply(record.id, t.id, transferToken))).toEqual(INVALID);
      expect((await store.get(record.id))!.rev).toBe(after.rev);
      // The new owner can hand it on with the transfer's own transfer token.
      const next = await transfer(OLD_OWNER);
      expect((await apply(record.id, next.id, t.transferToken, OLD_OWNER)).owner).toBe(OLD_OWNER.name);
    });

    it('finishes a call cut short after the mark (the state a crash between the writes leaves) when it is repeated', async () => {
      const { record, transferToken } = await asset();
      const other = await asset();
      const t = await transfer();
      // The first write of the call, and nothing else.
      const mark = { assetId: record.id, fromHash: record.transferTokenHash!, at: 1_764_000_000_000_000 };
      expect(await store.transfers.setMark(t.id, null, mark)).toBe(true);

      // Meanwhile: the transfer shows as used for the asset and cannot go elsewhere; the asset is unchanged.
      expect(await service.read(NEW_OWNER, t.id)).toMatchObject({ usedFor: `/assets/${record.id}` });
      expect(await refusalOf(apply(other.record.id, t.id, other.transferToken))).toEqual(ALREADY_USED);
      expect(await store.get(record.id)).toEqual(record);
      // An unrelated change of the asset in between does not stop the repeat.
      const patched = await store.update(record.id, record.rev, (stamp) => {
        const draft = draftAt(stamp, { id: record.id, title: 'edited' });
        return written({
          ...record,
          ...draft,
          asset: { ...record.asset, ...draft.asset },
          transferTokenHash: record.transferTokenHash,
        });
      });
      expect(patched).not.toBe('conflict');

      const served = await apply(record.id, t.id, transferToken);
      expect(served).toMatchObject({ owner: NEW_OWNER.name, title: 'edited' });
      expect((await store.transfers.get(t.id))!.mark).toEqual(mark);
      expect((await store.get(record.id))!.appliedTransfers).toEqual([t.id]);
    });

    it('frees a transfer whose mark no call can finish any more (its asset went to another transfer)', async () => {
      const { record, transferToken } = await asset();
      const elsewhere = await asset();
      const cutShort = await transfer();
      await store.transfers.setMark(cutShort.id, null, {
        assetId: record.id,
        fromHash: record.transferTokenHash!,
        at: 1,
      });
      const winner = await transfer(OLD_OWNER);
      await apply(record.id, winner.id, transferToken, OLD_OWNER);

      expect(await service.read(NEW_OWNER, cutShort.id)).not.toHaveProperty('usedFor');
      expect(await refusalOf(apply(record.id, cutShort.id, transferToken))).toEqual(INVALID);
      expect((await apply(elsewhere.record.id, cutShort.id, elsewhere.transferToken)).owner).toBe(NEW_OWNER.name);
      expect(await service.read(NEW_OWNER, cutShort.id)).toMatchObject({ usedFor: `/assets/${elsewhere.record.id}` });
    });

    it('frees the transfer of a call cut short on an asset that has ended since', async () => {
      const { record } = await asset();
      const elsewhere = await asset();
      const t = await transfer();
      await store.transfers.setMark(t.id, null, { assetId: record.id, fromHash: record.transferTokenHash!, at: 1 });
      await store.update(record.id, record.rev, (stamp) => {
        const draft = { ...record, modified: stamp.now };
        return written({ ...draft, asset: { ...record.asset, status: 'deleted' } });
      });
      expect(await service.read(NEW_OWNER, t.id)).not.toHaveProperty('usedFor');
      expect((await apply(elsewhere.record.id, t.id, elsewhere.transferToken)).owner).toBe(NEW_OWNER.name);
    });

    it('two or more transfers racing for one asset: one new owner, the others Invalid transfer and still unused', async () => {
      const { record, transferToken } = await asset();
      const racers = await Promise.all(Array.from({ length: 6 }, () => transfer()));
      const outcomes = await Promise.allSettled(racers.map((t) => apply(record.id, t.id, transferToken)));
      const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [racers[i]!] : []));
      expect(winners).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(await refusalOf(Promise.reject(outcome.reason))).toEqual(INVALID);
      }
      const after = (await store.get(record.id))!;
      expect(after.appliedTransfers).toEqual([winners[0]!.id]);
      expect(tokenMatches(winners[0]!.token, after.ownerTokenHash)).toBe(true);
      expect(after.rev).toBe(record.rev + 1);

      // Every loser is unused, whatever its stored mark says, and can still be applied elsewhere.
      for (const loser of racers.filter((t) => t !== winners[0])) {
        expect(await service.read(NEW_OWNER, loser.id)).not.toHaveProperty('usedFor');
        const elsewhere = await asset();
        expect((await apply(elsewhere.record.id, loser.id, elsewhere.transferToken)).owner).toBe(NEW_OWNER.name);
      }
    });

    it('one transfer racing for several assets: exactly one takes it, the others Transfer already used', async () => {
      const assets = await Promise.all(Array.from({ length: 5 }, () => asset()));
      const t = await transfer();
      const outcomes = await Promise.allSettled(assets.map((a) => apply(a.record.id, t.id, a.transferToken)));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected')
          expect(await refusalOf(Promise.reject(outcome.reason))).toEqual(ALREADY_USED);
      }
      const taken = (await Promise.all(assets.map((a) => store.get(a.record.id)))).filter((r) =>
        r!.appliedTransfers.includes(t.id),
      );
      expect(taken).toHaveLength(1);
      expect(await service.read(NEW_OWNER, t.id)).toMatchObject({ usedFor: `/assets/${taken[0]!.id}` });
    });
  });
}
