/**
 * What every AssetStore must do, written against the interface only so each store (embedded, MongoDB)
 * runs the same suite: `describeStoreContract('mongo', () => openMongoStoreOnFreshDatabase())`.
 * `open` must return a new, empty store on every call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDate, nowMicros } from '../../src/domain/dates.js';
import { assetAfter, changesBetween, SNAPSHOT_EVERY } from '../../src/domain/history.js';
import type { JsonObject } from '../../src/domain/json.js';
import type { AssetRecord, AssetStore, CreateStamp, ListMode, ListQuery } from '../../src/store/types.js';
import { DRAFT_ZONE as ZONE, draftAt, type DraftShape, written } from './fixtures/drafts.js';

const INTERNAL_FIELDS = [
  'rev',
  'revisions',
  'latestRevision',
  'ownerTokenHash',
  'transferTokenHash',
  'appliedTransfers',
  'modified',
  'listed',
  'test',
  '_id',
];

const ids = (records: { id: string }[]) => records.map((record) => record.id);

/** Resolves once `done()` holds; fails after `timeoutMs`. */
export async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function query(overrides: Partial<ListQuery> = {}): ListQuery {
  return { descending: false, limit: 100, mode: 'all', fields: [], ...overrides };
}

export function describeStoreContract(name: string, open: () => Promise<AssetStore>): void {
  describe(`AssetStore contract: ${name}`, () => {
    let store: AssetStore;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    /** Creates a record and returns it with the stamp its build received. */
    async function create(shape: DraftShape = {}): Promise<{ record: AssetRecord; stamp: CreateStamp }> {
      let seen: CreateStamp | undefined;
      const record = await store.create((stamp) => {
        seen = stamp;
        return written(draftAt(stamp, shape));
      });
      if (seen === undefined) throw new Error('create never called build');
      return { record, stamp: seen };
    }

    describe('create', () => {
      it('stores the built record with rev 1 and modified = the stamp', async () => {
        const { record, stamp } = await create({ title: 'first' });
        expect(record.rev).toBe(1);
        expect(record.modified).toBe(stamp.now);
        expect(record.asset.title).toBe('first');
        expect(await store.get(record.id)).toEqual(record);
      });

      it('hands out stamps that are unique, increasing and close to the clock', async () => {
        const before = nowMicros();
        const stamps: number[] = [];
        for (let i = 0; i < 50; i++) stamps.push((await create()).stamp.now);
        for (let i = 1; i < stamps.length; i++) expect(stamps[i]!).toBeGreaterThan(stamps[i - 1]!);
        expect(stamps[0]!).toBeGreaterThanOrEqual(before);
        expect(stamps.at(-1)!).toBeLessThan(nowMicros() + 1_000_000);
      });

      it('hands out unique stamps to concurrent creates', async () => {
        const created = await Promise.all(Array.from({ length: 30 }, () => create()));
        expect(new Set(created.map((c) => c.record.modified)).size).toBe(30);
      });

      it('gives the day of the stamp in its zone', async () => {
        const { stamp } = await create();
        expect(formatDate(stamp.now, ZONE).slice(0, 10)).toBe(stamp.day);
      });

      it('numbers the day from 1 without gaps, also when a build throws', async () => {
        const first = (await create()).stamp;
        expect(first.dayIndex).toBe(1);
        await expect(
          store.create(() => {
            throw new Error('validation failed inside build');
          }),
        ).rejects.toThrow('validation failed inside build');
        const second = (await create()).stamp;
        // A run across local midnight starts the next day at 1.
        expect(second.dayIndex).toBe(second.day === first.day ? 2 : 1);
        const third = (await create()).stamp;
        expect(third.dayIndex).toBe(third.day === second.day ? second.dayIndex + 1 : 1);
      });

      it('leaves nothing behind when a build throws', async () => {
        await expect(
          store.create((stamp) => {
            draftAt(stamp, { id: 'f'.repeat(32) });
            throw new Error('refused');
          }),
        ).rejects.toThrow('refused');
        expect(await store.get('f'.repeat(32))).toBeUndefined();
        expect(await store.list(query())).toEqual([]);
      });

      it('numbers concurrent creates without gaps or repeats', async () => {
        const created = await Promise.all(Array.from({ length: 25 }, () => create()));
        const byDay = new Map<string, number[]>();
        for (const { stamp } of created) byDay.set(stamp.day, [...(byDay.get(stamp.day) ?? []), stamp.dayIndex]);
        // A fresh store: every day present (two if the run crosses local midnight) is numbered 1..n.
        for (const indexes of byDay.values()) {
          expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: indexes.length }, (_, i) => i + 1));
        }
      });
    });

    describe('get', () => {
      it('answers undefined for an unknown id', async () => {
        expect(await store.get('0'.repeat(32))).toBeUndefined();
        expect(await store.getText('0'.repeat(32))).toBeUndefined();
      });

      it('gives the document as its wire text (amounts as floats) with its version, the latest after an update', async () => {
        const record = await store.create((stamp) => {
          const draft = draftAt(stamp);
          draft.asset.value = { amount: 100, currency: 'UAH' };
          draft.asset.title = 'лот "А"\n🏦';
          return written(draft);
        });
        const served = await store.getText(record.id);
        expect(served?.modified).toBe(record.modified);
        expect(served?.bytes.toString()).toContain('"value":{"amount":100.0,"currency":"UAH"}');
        expect(JSON.parse(served!.bytes.toString())).toEqual(record.asset);
        const updated = await store.update(record.id, 1, (stamp) =>
          written(draftAt(stamp, { id: record.id, title: 'renamed' })),
        );
        if (updated === 'conflict') throw new Error('unexpected conflict');
        const after = await store.getText(record.id);
        expect(after?.modified).toBe(updated.modified);
        expect(JSON.parse(after!.bytes.toString())).toEqual(updated.asset);
      });

      it('keeps the document exactly, nested values and Unicode included', async () => {
        const record = await store.create((stamp) => {
          const draft = draftAt(stamp);
          draft.asset.title = '[ТЕСТУВАННЯ] Права вимоги — “лот” 🏦';
          draft.asset.value = { amount: 100.5, currency: 'UAH', valueAddedTaxIncluded: true };
          draft.asset.items = [{ quantity: 0.001, unit: { code: 'H87' } }, { description: null }];
          return written(draft);
        });
        const read = await store.get(record.id);
        expect(read?.asset).toEqual(record.asset);
        expect(read?.asset.title).toBe('[ТЕСТУВАННЯ] Права вимоги — “лот” 🏦');
      });

      it('never puts internal fields inside the asset', async () => {
        const { record } = await create();
        const read = await store.get(record.id);
        const internal = INTERNAL_FIELDS.filter((field) => field !== '_id');
        const [listed] = await store.list(query({ fields: internal }));
        const text = JSON.parse((await store.getText(record.id))!.bytes.toString()) as object;
        for (const asset of [record.asset, read!.asset, text]) {
          for (const field of INTERNAL_FIELDS) expect(asset).not.toHaveProperty(field);
        }
        expect(listed!.fields).toEqual(internal.map(() => undefined));
        expect(read).toMatchObject({
          ownerTokenHash: 'a'.repeat(64),
          transferTokenHash: 'b'.repeat(64),
          appliedTransfers: [],
          listed: true,
          test: false,
          rev: 1,
        });
      });
    });

    describe('update', () => {
      it('replaces the record, increments rev and stamps it later than before', async () => {
        const { record } = await create({ listed: false });
        const updated = await store.update(record.id, 1, (stamp) => {
          const draft = draftAt(stamp, { id: record.id, title: 'renamed' });
          return written({
            ...draft,
            asset: { ...record.asset, title: 'renamed', dateModified: draft.asset.dateModified! },
          });
        });
        if (updated === 'conflict') throw new Error('unexpected conflict');
        expect(updated.rev).toBe(2);
        expect(updated.modified).toBeGreaterThan(record.modified);
        expect(updated.listed).toBe(true);
        expect(await store.get(record.id)).toEqual(updated);
        expect((await store.get(record.id))?.asset.assetID).toBe(record.asset.assetID);
      });

      it('answers conflict for a stale rev and changes nothing', async () => {
        const { record } = await create();
        const first = await store.update(record.id, 1, (stamp) =>
          written(draftAt(stamp, { id: record.id, title: 'v2' })),
        );
        expect(first).not.toBe('conflict');
        let built = false;
        const stale = await store.update(record.id, 1, (stamp) => {
          built = true;
          return written(draftAt(stamp, { id: record.id, title: 'stale' }));
        });
        expect(stale).toBe('conflict');
        // A rev already stale when the update starts builds nothing: the embedded store checks it inside its write
        // lock, MongoDB when it makes sure of the asset's latest revision before the write.
        expect(built).toBe(false);
        expect(await store.get(record.id)).toEqual(first);
      });

      it('answers conflict for an id that does not exist', async () => {
        const id = '1'.repeat(32);
        expect(await store.update(id, 1, (stamp) => written(draftAt(stamp, { id })))).toBe('conflict');
        expect(await store.get(id)).toBeUndefined();
      });

      it('lets exactly one of 20 concurrent updates with the same rev win', async () => {
        const { record } = await create();
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.update(record.id, 1, (stamp) => written(draftAt(stamp, { id: record.id, title: `writer ${i}` }))),
          ),
        );
        const winners = results.filter((result): result is AssetRecord => result !== 'conflict');
        expect(winners).toHaveLength(1);
        expect(await store.get(record.id)).toEqual(winners[0]);
        expect(winners[0]!.rev).toBe(2);
      });

      it('keeps the record where it was when the build throws', async () => {
        const { record } = await create();
        await expect(
          store.update(record.id, 1, () => {
            throw new Error('refused');
          }),
        ).rejects.toThrow('refused');
        expect(await store.get(record.id)).toEqual(record);
      });

      it('keeps superseded document versions beside the asset, never in it or in the listing', async () => {
        const { record } = await create();
        const history: JsonObject[] = [
          { id: 'd'.repeat(32), title: 'notice.pdf', dateModified: record.asset.dateModified! },
          { id: 'd'.repeat(32), title: 'notice-2.pdf', description: 'друга версія 📄' },
        ];
        const updated = await store.update(record.id, 1, (stamp) =>
          written({ ...draftAt(stamp, { id: record.id }), documentHistory: history }),
        );
        if (updated === 'conflict') throw new Error('unexpected conflict');
        const read = await store.get(record.id);
        expect(read).toEqual(updated);
        expect(read?.documentHistory).toEqual(history);
        expect(read?.asset).not.toHaveProperty('documentHistory');
        const [listed] = await store.list(query({ fields: ['documentHistory'] }));
        expect(listed!.fields).toEqual([undefined]);
        expect(JSON.parse((await store.getText(record.id))!.bytes.toString())).not.toHaveProperty('documentHistory');
        // Each write says what the record keeps.
        const cleared = await store.update(record.id, 2, (stamp) => written(draftAt(stamp, { id: record.id })));
        if (cleared === 'conflict') throw new Error('unexpected conflict');
        expect(await store.get(record.id)).toEqual(cleared);
        expect((await store.get(record.id))?.documentHistory).toEqual([]);
      });

      it('moves the record in the feed to its new modified', async () => {
        const a = (await create()).record;
        const b = (await create()).record;
        const moved = await store.update(a.id, 1, (stamp) => written(draftAt(stamp, { id: a.id })));
        if (moved === 'conflict') throw new Error('unexpected conflict');
        const rows = await store.list(query());
        expect(rows.map((row) => [row.id, row.modified])).toEqual([
          [b.id, b.modified],
          [a.id, moved.modified],
        ]);
        expect(rows[1]!.dateModified).toBe(moved.asset.dateModified);
      });
    });

    describe('list', () => {
      /** Four kinds of record, two of each, created alternately so the kinds interleave in the feed. */
      async function seedKinds(): Promise<Record<'real' | 'test' | 'draft' | 'testDraft', AssetRecord[]>> {
        const kinds = {
          real: [] as AssetRecord[],
          test: [] as AssetRecord[],
          draft: [] as AssetRecord[],
          testDraft: [] as AssetRecord[],
        };
        for (let round = 0; round < 2; round++) {
          kinds.real.push((await create()).record);
          kinds.draft.push((await create({ listed: false })).record);
          kinds.test.push((await create({ test: true })).record);
          kinds.testDraft.push((await create({ listed: false, test: true })).record);
        }
        return kinds;
      }

      it('is empty on an empty store', async () => {
        expect(await store.list(query())).toEqual([]);
        expect(await store.list(query({ descending: true, mode: 'test', fields: ['status'] }))).toEqual([]);
      });

      it('lists only listed records, filtered by mode, ascending by modified', async () => {
        const kinds = await seedKinds();
        const expected: Record<ListMode, AssetRecord[]> = {
          real: kinds.real,
          test: kinds.test,
          all: [kinds.real[0]!, kinds.test[0]!, kinds.real[1]!, kinds.test[1]!],
        };
        for (const mode of ['real', 'test', 'all'] as const) {
          const rows = await store.list(query({ mode }));
          expect(ids(rows), mode).toEqual(ids(expected[mode]));
          expect(rows).toEqual(
            expected[mode].map((record) => ({
              id: record.id,
              modified: record.modified,
              dateModified: record.asset.dateModified,
            })),
          );
        }
      });

      it('lists descending', async () => {
        const kinds = await seedKinds();
        const rows = await store.list(query({ descending: true, mode: 'real' }));
        expect(ids(rows)).toEqual(ids([...kinds.real].reverse()));
      });

      it('treats after as exclusive in both directions', async () => {
        const records: AssetRecord[] = [];
        for (let i = 0; i < 5; i++) records.push((await create()).record);
        const middle = records[2]!.modified;
        expect(ids(await store.list(query({ after: middle })))).toEqual(ids(records.slice(3)));
        expect(ids(await store.list(query({ after: middle, descending: true })))).toEqual(
          ids(records.slice(0, 2).reverse()),
        );
        expect(ids(await store.list(query({ after: middle + 1 })))).toEqual(ids(records.slice(3)));
        expect(await store.list(query({ after: records[4]!.modified }))).toEqual([]);
        expect(await store.list(query({ after: records[0]!.modified, descending: true }))).toEqual([]);
        expect(ids(await store.list(query({ after: 0 })))).toEqual(ids(records));
      });

      it('stops at limit and pages through everything by after', async () => {
        const records: AssetRecord[] = [];
        for (let i = 0; i < 7; i++) records.push((await create()).record);
        expect(ids(await store.list(query({ limit: 3 })))).toEqual(ids(records.slice(0, 3)));
        expect(ids(await store.list(query({ limit: 3, descending: true })))).toEqual(ids(records.slice(4).reverse()));
        const seen: string[] = [];
        let after: number | undefined;
        for (;;) {
          const page = await store.list(query({ limit: 3, after }));
          if (page.length === 0) break;
          seen.push(...ids(page));
          after = page.at(-1)!.modified;
        }
        expect(seen).toEqual(ids(records));
      });

      it('reads the asked fields of the documents as their wire text, in the order asked, only when asked', async () => {
        const record = await store.create((stamp) => {
          const draft = draftAt(stamp, { title: 'з документом "1"' });
          draft.asset.value = { amount: 100, currency: 'UAH' };
          return written(draft);
        });
        const [bare] = await store.list(query());
        expect(bare).not.toHaveProperty('fields');
        const [full] = await store.list(query({ fields: ['value', 'missing', 'title', 'status'] }));
        expect(full).toEqual({
          id: record.id,
          modified: record.modified,
          dateModified: record.asset.dateModified,
          fields: ['{"amount":100.0,"currency":"UAH"}', undefined, '"з документом \\"1\\""', '"pending"'],
        });
      });

      it('reads status and assetID in the order asked, alone or with others', async () => {
        const { record } = await create();
        const assetID = JSON.stringify(record.asset.assetID);
        for (const [fields, expected] of [
          [
            ['assetID', 'status'],
            [assetID, '"pending"'],
          ],
          [['status'], ['"pending"']],
          [
            ['assetID', 'title', 'status'],
            [assetID, '"claim rights"', '"pending"'],
          ],
        ] as const) {
          const [row] = await store.list(query({ fields }));
          expect(row!.fields).toEqual(expected);
        }
      });

      it('pages any feed exactly as its whole range read in order: dense runs, gaps of years, lone rows', async () => {
        const YEAR = 365 * 24 * 3600 * 1_000_000;
        const now = nowMicros();
        // Listed real, listed test and unlisted rows interleaved: each mode sees its own gaps.
        const times: number[] = [];
        for (let i = 0; i < 150; i++) times.push(now - 30 * YEAR + i);
        times.push(now - 21 * YEAR);
        for (let i = 0; i < 60; i++) times.push(now - 4 * YEAR + i * 1000);
        for (let i = 0; i < 12; i++) times.push(now - 3600_000_000 + i * 97_000_000);
        const drafts = times.map((at, i) =>
          draftAt({ now: at }, { listed: i % 5 !== 4, test: i % 3 === 0, title: `row ${i}` }),
        );
        await store.bulkInsert(drafts);
        const fields = ['title', 'missing', 'status'];
        const reference = (page: ListQuery) => {
          const rows = drafts
            .filter((draft) => draft.listed && (page.mode === 'all' || draft.test === (page.mode === 'test')))
            .filter(
              (draft) =>
                page.after === undefined ||
                (page.descending ? draft.modified < page.after : draft.modified > page.after),
            )
            .map((draft) => ({
              id: draft.id,
              modified: draft.modified,
              dateModified: draft.asset.dateModified,
              ...(page.fields.length > 0 && { fields: [JSON.stringify(draft.asset.title), undefined, '"pending"'] }),
            }));
          if (page.descending) rows.reverse();
          return rows.slice(0, page.limit);
        };
        const afters = [undefined, 0, ...[0, 75, 149, 150, 151, 170, 210, 216, 221].map((i) => times[i]!), now + 1];
        for (const mode of ['real', 'test', 'all'] as const) {
          for (const descending of [false, true]) {
            // At each position and next to it (between rows): a full page, and a single row with opt_fields.
            for (const at of afters) {
              for (const page of [
                query({ mode, descending, after: at, limit: 100 }),
                query({ mode, descending, after: at && at + 1, limit: 1, fields }),
              ]) {
                expect(await store.list(page), JSON.stringify(page)).toEqual(reference(page));
              }
            }
            let after: number | undefined;
            for (;;) {
              const page = query({ mode, descending, after, limit: 20, fields });
              const rows = await store.list(page);
              expect(rows, JSON.stringify(page)).toEqual(reference(page));
              if (rows.length === 0) break;
              after = rows.at(-1)!.modified;
            }
          }
        }
      });

      it('pages a feed of one row, and an empty range, in both directions', async () => {
        const at = nowMicros() - 1000;
        const draft = draftAt({ now: at }, { test: true });
        await store.bulkInsert([draft]);
        const row = { id: draft.id, modified: at, dateModified: draft.asset.dateModified };
        for (const descending of [false, true]) {
          expect(await store.list(query({ descending, mode: 'test' }))).toEqual([row]);
          expect(await store.list(query({ descending, mode: 'real' }))).toEqual([]);
          expect(await store.list(query({ descending, after: at }))).toEqual([]);
          expect(await store.list(query({ descending, after: descending ? at + 1 : at - 1 }))).toEqual([row]);
        }
      });

      it('refuses a field name that is not an identifier (a path could reach inside a value)', async () => {
        await create();
        await expect(store.list(query({ fields: ['value.amount'] }))).rejects.toThrow(/not a field name/);
      });
    });

    describe('bulkInsert', () => {
      it('inserts ready-made records that list, read and update like created ones', async () => {
        const base = nowMicros() - 3_600_000_000;
        const drafts = Array.from({ length: 500 }, (_, i) =>
          draftAt({ now: base + i * 1000 }, { test: i % 5 === 0, listed: i % 7 !== 0 }),
        );
        await store.bulkInsert(drafts);
        const listedReal = drafts.filter((draft) => draft.listed && !draft.test);
        const rows = await store.list(query({ mode: 'real', limit: 1000 }));
        expect(ids(rows)).toEqual(ids(listedReal));
        expect(rows[0]!.dateModified).toBe(listedReal[0]!.asset.dateModified);
        expect(await store.get(drafts[7]!.id)).toEqual({ ...drafts[7], rev: 1, revisions: 1 });
        const updated = await store.update(drafts[7]!.id, 1, (stamp) => written(draftAt(stamp, { id: drafts[7]!.id })));
        expect(updated).not.toBe('conflict');
      });

      it('makes later writes stamp after the latest inserted modified, even one in the future', async () => {
        const future = nowMicros() + 3_600_000_000;
        await store.bulkInsert([draftAt({ now: future })]);
        const { record } = await create();
        expect(record.modified).toBe(future + 1);
        const rows = await store.list(query());
        expect(rows.at(-1)!.id).toBe(record.id);
      });

      it('accepts an empty batch', async () => {
        await store.bulkInsert([]);
        expect(await store.list(query())).toEqual([]);
      });
    });

    describe('history', () => {
      /** The record updated from `record` by a draft titled `title`, with the revision of that change. */
      async function edit(record: AssetRecord, title: string, author = 'broker'): Promise<AssetRecord> {
        const updated = await store.update(record.id, record.rev, (stamp) => {
          const draft = draftAt(stamp, { id: record.id, title });
          return written(draft, record.asset, author);
        });
        if (updated === 'conflict') throw new Error(`update of ${record.id} conflicted`);
        return updated;
      }

      it('keeps revision 1 with a create and one more with every update, numbered and dated by the store', async () => {
        const { record } = await create({ title: 'v1' });
        expect(record.revisions).toBe(1);
        const second = await edit(record, 'v2', 'concierge');
        expect(second.revisions).toBe(2);
        expect(await store.get(record.id)).toMatchObject({ revisions: 2 });
        const revisions = await store.revisions(record.id, 0, 100);
        expect(revisions).toEqual([
          { rev: 1, date: record.asset.dateModified, author: 'broker', changes: changesBetween({}, record.asset) },
          {
            rev: 2,
            date: second.asset.dateModified,
            author: 'concierge',
            changes: changesBetween(record.asset, second.asset),
          },
        ]);
        expect(assetAfter(revisions!)).toEqual(second.asset);
      });

      it('pages by rev: after and limit, undefined for an unknown asset, empty past the end', async () => {
        let { record } = await create({ title: 'v1' });
        for (let i = 2; i <= 7; i++) record = await edit(record, `v${i}`);
        const revs = async (after: number, limit: number) =>
          (await store.revisions(record.id, after, limit))!.map((r) => r.rev);
        expect(await revs(0, 3)).toEqual([1, 2, 3]);
        expect(await revs(3, 3)).toEqual([4, 5, 6]);
        expect(await revs(6, 3)).toEqual([7]);
        expect(await revs(7, 3)).toEqual([]);
        expect(await revs(100, 3)).toEqual([]);
        expect(await store.revisions('f'.repeat(32), 0, 10)).toBeUndefined();
      });

      it('adds nothing to the history of a stale or failed update', async () => {
        const { record } = await create();
        await edit(record, 'won');
        expect(
          await store.update(record.id, record.rev, (stamp) =>
            written(draftAt(stamp, { id: record.id, title: 'lost' })),
          ),
        ).toBe('conflict');
        await expect(
          store.update(record.id, record.rev + 1, () => {
            throw new Error('build failed');
          }),
        ).rejects.toThrow('build failed');
        expect((await store.revisions(record.id, 0, 10))!.map((revision) => revision.rev)).toEqual([1, 2]);
      });

      it('gives concurrent updates of one record contiguous revisions, one per update that won', async () => {
        let { record } = await create();
        let won = 0;
        for (let round = 0; round < 4; round++) {
          const results = await Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              store.update(record.id, record.rev, (stamp) =>
                written(draftAt(stamp, { id: record.id, title: `r${round} w${i}` }), record.asset),
              ),
            ),
          );
          won += results.filter((result) => result !== 'conflict').length;
          record = (await store.get(record.id))!;
        }
        const revisions = (await store.revisions(record.id, 0, 100))!;
        expect(revisions.map((revision) => revision.rev)).toEqual(Array.from({ length: won + 1 }, (_, i) => i + 1));
        expect(record.revisions).toBe(won + 1);
      });

      it('bulkInsert gives a record without a history revision 1 by its owner, and keeps a history handed with one', async () => {
        const base = nowMicros() - 3_600_000_000;
        const plain = draftAt({ now: base });
        const v1 = draftAt({ now: base + 1000 }, { title: 'v1' });
        const v2 = { ...draftAt({ now: base + 2000 }, { id: v1.id, title: 'v2' }) };
        const history = [
          { rev: 1, date: String(v1.asset.dateModified), author: 'importer', changes: changesBetween({}, v1.asset) },
          {
            rev: 2,
            date: String(v2.asset.dateModified),
            author: 'broker2',
            changes: changesBetween(v1.asset, v2.asset),
          },
        ];
        await store.bulkInsert([plain, { ...v2, history }]);
        expect(await store.revisions(plain.id, 0, 10)).toEqual([
          { rev: 1, date: plain.asset.dateModified, author: 'broker', changes: changesBetween({}, plain.asset) },
        ]);
        expect(await store.revisions(v2.id, 0, 10)).toEqual(history);
        expect(await store.get(v2.id)).toMatchObject({ revisions: 2 });
        const next = await edit((await store.get(v2.id))!, 'v3');
        expect(next.revisions).toBe(3);
        expect(assetAfter((await store.revisions(v2.id, 0, 10))!)).toEqual(next.asset);
      });

      it('stops a page once the changes read reach maxBytes of JSON text, holding at least one (record 0055)', async () => {
        let { record } = await create({ title: 'v1' });
        for (let i = 2; i <= 6; i++) record = await edit(record, `v${i} ${'з'.repeat(100 * i)}`);
        const all = (await store.revisions(record.id, 0, 100))!;
        const bytes = all.map((revision) => Buffer.byteLength(JSON.stringify(revision.changes)));
        const revs = async (after: number, limit: number, maxBytes: number) =>
          (await store.revisions(record.id, after, limit, maxBytes))!.map((r) => r.rev);
        expect(await revs(0, 100, 1)).toEqual([1]);
        expect(await revs(0, 100, bytes[0]!)).toEqual([1]);
        expect(await revs(0, 100, bytes[0]! + 1)).toEqual([1, 2]);
        expect(await revs(2, 100, bytes[2]! + bytes[3]!)).toEqual([3, 4]);
        expect(await revs(2, 100, bytes[2]! + bytes[3]! + 1)).toEqual([3, 4, 5]);
        expect(await revs(2, 2, Number.MAX_SAFE_INTEGER)).toEqual([3, 4]);
        expect(await revs(0, 100, Number.MAX_SAFE_INTEGER)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(await revs(6, 100, 1)).toEqual([]);
        expect(await store.revisions('f'.repeat(32), 0, 10, 1)).toBeUndefined();
      });

      it(`keeps the asset whole every ${SNAPSHOT_EVERY} revisions: a revision is read from the nearest (record 0056)`, async () => {
        let { record } = await create({ title: 'v1' });
        const assets = new Map<number, JsonObject>([[1, record.asset]]);
        for (let i = 2; i <= SNAPSHOT_EVERY + 30; i++) {
          record = await edit(record, `v${i}`);
          assets.set(i, record.asset);
        }
        expect(await store.snapshot(record.id, 1)).toBeUndefined();
        expect(await store.snapshot(record.id, SNAPSHOT_EVERY - 1)).toBeUndefined();
        for (const rev of [SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, SNAPSHOT_EVERY + 30, SNAPSHOT_EVERY * 5]) {
          expect(await store.snapshot(record.id, rev), `at ${rev}`).toEqual({
            rev: SNAPSHOT_EVERY,
            asset: assets.get(SNAPSHOT_EVERY),
          });
        }
        // The snapshot and the changes after it give the asset as it was.
        const { asset } = (await store.snapshot(record.id, SNAPSHOT_EVERY + 30))!;
        const after = (await store.revisions(record.id, SNAPSHOT_EVERY, 30))!;
        expect(after.map((revision) => revision.rev)[0]).toBe(SNAPSHOT_EVERY + 1);
        expect(assetAfter(after, asset)).toEqual(assets.get(SNAPSHOT_EVERY + 30));
        expect(await store.snapshot('f'.repeat(32), SNAPSHOT_EVERY)).toBeUndefined();
      });

      it('bulkInsert keeps the snapshots of a history handed with a record (record 0056)', async () => {
        const base = nowMicros() - 3_600_000_000;
        const id = draftAt({ now: base }).id;
        const history = [];
        let before: JsonObject = {};
        let draft = draftAt({ now: base }, { id });
        const assets = new Map<number, JsonObject>();
        for (let rev = 1; rev <= SNAPSHOT_EVERY * 2 + 3; rev++) {
          draft = draftAt({ now: base + rev }, { id, title: `v${rev}` });
          history.push({
            rev,
            date: String(draft.asset.dateModified),
            author: 'importer',
            changes: changesBetween(before, draft.asset),
          });
          assets.set(rev, draft.asset);
          before = draft.asset;
        }
        await store.bulkInsert([{ ...draft, history }]);
        expect(await store.snapshot(id, SNAPSHOT_EVERY - 1)).toBeUndefined();
        expect(await store.snapshot(id, SNAPSHOT_EVERY * 2 - 1)).toEqual({
          rev: SNAPSHOT_EVERY,
          asset: assets.get(SNAPSHOT_EVERY),
        });
        expect(await store.snapshot(id, SNAPSHOT_EVERY * 2 + 3)).toEqual({
          rev: SNAPSHOT_EVERY * 2,
          asset: assets.get(SNAPSHOT_EVERY * 2),
        });
      });

      it('bulkInsert refuses a history that does not number 1 … n or whose last date is not dateModified, inserting nothing', async () => {
        const draft = draftAt({ now: nowMicros() - 1_000_000 });
        const first = {
          rev: 1,
          date: String(draft.asset.dateModified),
          author: 'broker',
          changes: changesBetween({}, draft.asset),
        };
        for (const history of [
          [],
          [{ ...first, rev: 2 }],
          [first, { ...first, rev: 3 }],
          [{ ...first, date: '2000-01-01T00:00:00.000000+02:00' }],
        ]) {
          await expect(store.bulkInsert([{ ...draft, history }])).rejects.toThrow(/history|revision/);
        }
        expect(await store.get(draft.id)).toBeUndefined();
        expect(await store.revisions(draft.id, 0, 10)).toBeUndefined();
      });
    });

    describe('watchWrites', () => {
      it('signals each watcher after a write, and no longer once its watch is closed', async () => {
        const calls = [0, 0];
        const watches = await Promise.all(calls.map((_, i) => store.watchWrites(() => calls[i]!++)));
        expect(watches[0]!.method).toEqual(expect.any(String));
        await create();
        await waitFor(() => calls.every((count) => count > 0), 2000);
        await Promise.all(watches.map((watch) => watch.close()));
        const before = [...calls];
        await create();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(calls).toEqual(before);
      });

      it('signals a bulk insert', async () => {
        let calls = 0;
        const watch = await store.watchWrites(() => calls++);
        await store.bulkInsert([draftAt({ now: nowMicros() - 1_000_000 })]);
        await waitFor(() => calls > 0, 2000);
        await watch.close();
      });
    });

    describe('ping', () => {
      it('resolves while the storage is reachable', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}
