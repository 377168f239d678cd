/**
 * What every store's ImportStore must do (docs/decisions/0039-import-resumable-into-an-empty-store.md), against the
 * interfaces only, so both stores run it: `describeImportStoreContract('mongo', () => openFresh())`. `open` returns
 * a new, empty store on every call, and the import's store on the same data.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dayOf, formatDate, nowMicros } from '../../src/domain/dates.js';
import { changesBetween, firstRevision, SNAPSHOT_EVERY, type Revision } from '../../src/domain/history.js';
import type { JsonObject } from '../../src/domain/json.js';
import type { ImportedAsset, ImportPage, ImportState, ImportStore } from '../../src/store/import.js';
import type { AssetStore, TransferRecord } from '../../src/store/types.js';
import { DRAFT_ZONE as ZONE, draftAt } from './fixtures/drafts.js';

const YEAR_AGO = nowMicros() - 365 * 86_400 * 1_000_000;

function imported(id: string, modified: number): ImportedAsset {
  const draft = draftAt({ now: modified }, { id });
  return { ...draft, history: [firstRevision(draft.asset)] };
}

function transfer(id: string, assetId?: string): TransferRecord {
  const hash = `sha512:${'c'.repeat(128)}`;
  return {
    id,
    owner: 'broker2',
    ownerTokenHash: hash,
    transferTokenHash: hash,
    created: YEAR_AGO,
    mark: assetId === undefined ? null : { assetId, fromHash: hash, at: YEAR_AGO },
  };
}

function page(parts: Partial<ImportPage>, state: Partial<ImportState> = {}): ImportPage {
  return {
    assets: [],
    transfers: [],
    dayCounters: {},
    reports: [],
    ...parts,
    state: { source: 'http://couch/db', since: '1', done: false, counts: {}, ...state },
  };
}

export interface OpenedImport {
  store: AssetStore;
  imports: ImportStore;
}

export function describeImportStoreContract(name: string, open: () => Promise<OpenedImport>): void {
  describe(`ImportStore contract: ${name}`, () => {
    let store: AssetStore;
    let imports: ImportStore;

    beforeEach(async () => {
      ({ store, imports } = await open());
    });

    afterEach(async () => {
      await imports.close();
      await store.close();
    });

    it('an empty store has no import and no data of its own; one written by the registry has', async () => {
      expect(await imports.state()).toBeUndefined();
      expect(await imports.holdsOwnData()).toBe(false);
      await store.create((stamp) => ({ record: draftAt(stamp), revision: { author: 'broker', changes: [] } }));
      expect(await imports.holdsOwnData()).toBe(true);
    });

    it('writes a page with its state, and a page written again changes nothing', async () => {
      const first = page(
        {
          assets: [imported('a'.repeat(32), YEAR_AGO + 2), imported('b'.repeat(32), YEAR_AGO + 1)],
          reports: [{ id: 'x', outcome: 'refused', detail: 'no _id' }],
        },
        { since: '7', counts: { 'assets imported': 2 } },
      );
      await imports.writePage(first);
      await imports.writePage(first);
      expect(await imports.state()).toEqual(first.state);
      expect(await imports.holdsOwnData()).toBe(false);
      expect(await imports.reports()).toEqual([{ id: 'x', outcome: 'refused', detail: 'no _id' }]);
      const feed = await store.list({ descending: false, limit: 10, mode: 'all', fields: [] });
      expect(feed.map((row) => row.id)).toEqual(['b'.repeat(32), 'a'.repeat(32)]);
      expect(await store.revisions('a'.repeat(32), 0, 10)).toEqual(first.assets[0]!.history);
      expect(await imports.idsAt([YEAR_AGO + 1, YEAR_AGO + 3])).toEqual(new Map([[YEAR_AGO + 1, 'b'.repeat(32)]]));
    });

    it("gives the log an imported revision's entry once, and a new entry when the revision comes back changed", async () => {
      const first = page({ assets: [imported('a'.repeat(32), YEAR_AGO + 2), imported('b'.repeat(32), YEAR_AGO + 1)] });
      await imports.writePage(first);
      await imports.writePage(first);
      const changed = imported('a'.repeat(32), YEAR_AGO + 3);
      await imports.writePage(
        page({ assets: [{ ...changed, history: [{ ...changed.history[0]!, author: 'other' }] }] }),
      );
      // Read once: a store may fix the order of what it has handed out before it is appended.
      expect((await store.log.next(100))?.entries).toHaveLength(3);
    });

    it('lists a used transfer in its asset whichever of the two came first', async () => {
      const early = 'e'.repeat(32);
      const late = 'f'.repeat(32);
      await imports.writePage(
        page({ assets: [imported(early, YEAR_AGO + 1)], transfers: [transfer('t1', late), transfer('t0')] }),
      );
      await imports.writePage(page({ assets: [imported(late, YEAR_AGO + 2)], transfers: [transfer('t2', early)] }));
      expect((await store.get(early))!.appliedTransfers).toEqual(['t2']);
      expect((await store.get(late))!.appliedTransfers).toEqual(['t1']);
      expect((await store.transfers.get('t0'))!.mark).toBeNull();
    });

    it("raises a day's assetID counter, never lowers it; the next creation goes on after it; later writes are later", async () => {
      const future = nowMicros() + 3_600_000_000;
      // The day the next creation is stamped in, just after `future`: within an hour of midnight, tomorrow.
      const day = dayOf(future, ZONE);
      await imports.writePage(page({ assets: [imported('c'.repeat(32), future)], dayCounters: { [day]: 41 } }));
      await imports.writePage(page({ dayCounters: { [day]: 7 } }));
      const created = await store.create((stamp) => ({
        record: draftAt(stamp),
        revision: { author: 'broker', changes: [] },
      }));
      expect(created.asset.assetID).toBe(`UA-AR-DGF-${day}-000042`);
      expect(created.modified).toBeGreaterThan(future);
      expect(String(created.asset.dateModified) > formatDate(future, ZONE)).toBe(true);
    });

    it('keeps the snapshots of an imported history, and replaces them with the asset (record 0056)', async () => {
      const id = 'e'.repeat(32);
      const versions = (count: number, title: string) => {
        const history: Revision[] = [];
        const assets: JsonObject[] = [];
        let before: JsonObject = {};
        let draft = draftAt({ now: YEAR_AGO }, { id });
        for (let rev = 1; rev <= count; rev++) {
          draft = draftAt({ now: YEAR_AGO + rev }, { id, title: `${title} ${rev}` });
          history.push({
            rev,
            date: String(draft.asset.dateModified),
            author: 'importer',
            changes: changesBetween(before, draft.asset),
          });
          assets.push(draft.asset);
          before = draft.asset;
        }
        return { asset: { ...draft, history }, assets };
      };
      const first = versions(SNAPSHOT_EVERY + 2, 'first');
      await imports.writePage(page({ assets: [first.asset] }));
      expect(await store.snapshot(id, SNAPSHOT_EVERY + 2)).toEqual({
        rev: SNAPSHOT_EVERY,
        asset: first.assets[SNAPSHOT_EVERY - 1],
      });
      // Written again with another history (an import started over): none of the first one's is served.
      const second = versions(SNAPSHOT_EVERY - 1, 'second');
      await imports.writePage(page({ assets: [second.asset] }));
      expect(await store.snapshot(id, SNAPSHOT_EVERY + 2)).toBeUndefined();
    });
  });
}
