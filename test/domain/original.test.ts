import { createHash } from 'node:crypto';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { assetAfter } from '../../src/domain/history.js';
import { hashToken, originalTokenDigest, tokenMatches } from '../../src/domain/ids.js';
import {
  assetIdCounter,
  classify,
  documentSet,
  keptAsset,
  rebuildHistory,
  servedForm,
  usedForAsset,
} from '../../src/domain/original.js';
import { generateAssets, servedFields, storedAsset, type Step } from '../../bench/original.js';

/** The default BODY_LIMIT. */
const BODY_LIMIT = 1024 * 1024;
const sha512 = (text: string) => createHash('sha512').update(text).digest('hex');

describe('tokens kept from the original', () => {
  it('a plain owner token is hashed as the registry hashes its own; a SHA-512 digest is kept and verified by SHA-512', () => {
    expect(originalTokenDigest('0123456789abcdef0123456789abcdef')).toBe(hashToken('0123456789abcdef0123456789abcdef'));
    const digest = originalTokenDigest(sha512('secret').toUpperCase());
    expect(digest).toBe(`sha512:${sha512('secret')}`);
    expect(tokenMatches('secret', digest)).toBe(true);
    expect(tokenMatches('Secret', digest)).toBe(false);
    expect(tokenMatches(sha512('secret'), digest)).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
  });
});

describe('classify', () => {
  const asset = generateAssets(1, 2, Date.UTC(2019, 0, 1) * 1000)[0]!;
  it.each([
    ['design', { id: '_design/x', doc: { _id: '_design/x' } }, { kind: 'skipped', reason: 'design document' }],
    [
      'deleted',
      { id: 'a', deleted: true, doc: { _id: 'a', _deleted: true } },
      { kind: 'skipped', reason: 'deleted document' },
    ],
    [
      'counter',
      { id: 'assetID', doc: { _id: 'assetID', '2018-01-09': 3 } },
      { kind: 'skipped', reason: 'no doc_type' },
    ],
    ['lot', { id: 'l', doc: { _id: 'l', doc_type: 'Lot' } }, { kind: 'skipped', reason: 'other doc_type' }],
    ['basic', { id: 'b', doc: { ...asset, assetType: 'basic' } }, { kind: 'skipped', reason: 'other assetType' }],
    ['array', { id: 'n', doc: [1] }, { kind: 'refused', reason: 'not a JSON object' }],
    ['no _id', { id: 'n', doc: { doc_type: 'Asset' } }, { kind: 'refused', reason: 'no _id' }],
    [
      'value',
      { id: 'v', doc: { ...asset, value: 'much' } },
      { kind: 'refused', reason: 'value is not of type object' },
    ],
    [
      'quantity',
      { id: 'q', doc: { ...asset, quantity: undefined } },
      { kind: 'refused', reason: 'quantity is missing' },
    ],
    [
      'transfer',
      {
        id: 't',
        doc: {
          _id: 't',
          doc_type: 'Transfer',
          owner: 'b',
          date: 'd',
          access_token: 'plain',
          transfer_token: sha512('x'),
        },
      },
      { kind: 'refused', reason: 'transfer access_token is not a SHA-512 hex digest' },
    ],
  ])('%s', (_label, row, expected) => {
    expect(classify(row)).toEqual(expected);
  });

  it('an asset that breaks only a code list is an asset', () => {
    expect(classify({ id: asset._id, doc: asset }).kind).toBe('asset');
  });
});

describe('members the registry does not serve', () => {
  // The original served `schema_properties` (on the asset and its items) and, in a sandbox, `sandboxParameters`;
  // the registry's contract has neither (docs/decisions/0040-what-the-import-keeps.md).
  const base = {
    ...servedFields(1),
    owner: 'broker',
    assetID: 'UA-AR-DGF-2019-01-01-000001',
    status: 'pending',
    owner_token: 't',
  };
  const items = [
    { id: 'i1', description: 'a claim', schema_properties: { code: '04' } },
    { id: 'i2', description: 'another' },
  ];
  const steps: Step[] = [
    {
      author: 'broker',
      date: '2019-01-01T10:00:00.000000+02:00',
      after: { ...base, schema_properties: { code: '04', version: '001' } },
    },
    {
      author: 'broker',
      date: '2019-01-01T10:00:01.000000+02:00',
      after: { ...base, items, sandboxParameters: 'quick', title: 'edited' },
    },
  ];
  const doc = storedAsset('abc', steps);
  const document = {
    id: 'd1',
    title: 'a.pdf',
    format: 'application/pdf',
    url: 'http://ds/1',
    documentType: 'notice',
    datePublished: '2019-01-01T10:00:00.000000+02:00',
    dateModified: '2019-01-01T10:00:00.000000+02:00',
    hash: `md5:${'0'.repeat(32)}`,
  };
  doc.documents = [
    { ...document, oldField: 1 },
    { ...document, title: 'b.pdf' },
  ];

  it('are left out of the asset, at any depth, and of its documents earlier versions, and named', () => {
    const served = servedForm(doc);
    expect(served).not.toHaveProperty('sandboxParameters');
    expect(served).not.toHaveProperty('schema_properties');
    expect((served.items as Record<string, unknown>[])[0]).not.toHaveProperty('schema_properties');
    expect(served.title).toBe('edited');
    expect(keptAsset(doc).documentHistory).toEqual([document]);
    expect(keptAsset(doc).asset).toEqual(served);
    expect(keptAsset(doc).unserved.sort()).toEqual([
      '/documents/d1/oldField',
      '/items/0/schema_properties',
      '/sandboxParameters',
    ]);
    expect(keptAsset(storedAsset('abc', [{ ...steps[0]!, after: base }])).unserved).toEqual([]);
  });

  it('are left out of every version of the history, which still folds to the asset', () => {
    const history = rebuildHistory(doc, BODY_LIMIT);
    expect(history.fallback).toBeUndefined();
    expect(JSON.stringify(history.revisions)).not.toMatch(/schema_properties|sandboxParameters/);
    expect(assetAfter(history.revisions)).toEqual(servedForm(doc));
  });
});

describe('rebuildHistory', () => {
  it('folds to the asset as served, whatever the edits (property)', () => {
    const edit = fc.record({
      title: fc.option(fc.string(), { nil: undefined }),
      description: fc.option(fc.string(), { nil: undefined }),
      quantity: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      items: fc.option(
        fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), description: fc.string() }), {
          maxLength: 3,
        }),
        {
          nil: undefined,
        },
      ),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
        let state: Record<string, unknown> = {
          ...servedFields(1),
          owner: 'broker',
          assetID: 'UA-AR-DGF-2019-01-01-000001',
          status: 'draft',
          owner_token: 't',
        };
        const steps: Step[] = edits.map((fields, i) => {
          state = { ...state, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
          return { author: `a${i}`, date: `2019-01-01T10:00:0${i}.000000+02:00`, after: state };
        });
        const doc = storedAsset('abc', steps);
        const history = rebuildHistory(doc, BODY_LIMIT);
        expect(history.fallback).toBeUndefined();
        expect(history.revisions.map((r) => r.rev)).toEqual(steps.map((_, i) => i + 1));
        expect(history.revisions.map((r) => r.author)).toEqual(steps.map((s) => s.author));
        expect(history.revisions.map((r) => r.date)).toEqual(steps.map((s) => s.date));
        expect(assetAfter(history.revisions)).toEqual(servedForm(doc));
        for (const revision of history.revisions) {
          for (const operation of revision.changes) {
            expect(['add', 'remove', 'replace']).toContain(operation.op);
            expect(operation.path).not.toBe('');
            expect(operation.path).not.toMatch(/owner_token|transfer_token|revisions|_id/);
          }
        }
        // Each version is the one before it with the revision's own changes, dateModified its date.
        let version = {};
        for (const [i, revision] of history.revisions.entries()) {
          version = fastJsonPatch.applyPatch(version, revision.changes, true, false).newDocument;
          expect((version as { dateModified: string }).dateModified).toBe(steps[i]!.date);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("the last revision's date is the document's dateModified", () => {
    const doc = storedAsset('abc', [
      { author: 'b', date: '2019-01-01T10:00:00.000000+02:00', after: { ...servedFields(1), status: 'draft' } },
    ]);
    doc.dateModified = '2019-01-01T11:00:00.000000+02:00';
    const [only] = rebuildHistory(doc, BODY_LIMIT).revisions;
    expect(only!.date).toBe(doc.dateModified);
    expect(assetAfter([only!])).toEqual(servedForm(doc));
  });

  it('falls back to one revision holding the asset, authored by its owner, when a patch does not apply', () => {
    const [doc] = generateAssets(1, 3, Date.UTC(2019, 0, 1) * 1000);
    doc!.revisions[2].changes = [{ op: 'test', path: '/title', value: 'not the title' }];
    const history = rebuildHistory(doc!, BODY_LIMIT);
    expect(history.fallback).toMatch(/a patch does not apply/);
    expect(history.revisions).toHaveLength(1);
    expect(history.revisions[0]).toMatchObject({ rev: 1, author: 'broker', date: doc!.dateModified });
    expect(assetAfter(history.revisions)).toEqual(servedForm(doc!));
  });

  it('a document without revisions gets the same single revision', () => {
    const [doc] = generateAssets(1, 1, Date.UTC(2019, 0, 1) * 1000);
    delete doc!.revisions;
    expect(rebuildHistory(doc!, BODY_LIMIT).fallback).toBe('no revisions');
  });
});

describe('documents, counters, transfers', () => {
  it("the original's flat documents list: the latest version of each served, the older ones kept", () => {
    const v1 = { id: 'd1', title: 'a' };
    const v2 = { id: 'd1', title: 'b' };
    const other = { id: 'd2', title: 'c' };
    expect(documentSet([v1, other, v2])).toEqual({ latest: [other, v2], history: [v1] });
  });

  it('reads the day and number of an assetID, with or without a node suffix', () => {
    expect(assetIdCounter('UA-AR-DGF-2018-01-09-000012')).toEqual({ day: '2018-01-09', index: 12 });
    expect(assetIdCounter('UA-2017-08-01-000003-node1')).toEqual({ day: '2017-08-01', index: 3 });
    expect(assetIdCounter('free text')).toBeUndefined();
  });

  it('reads the asset a transfer was used for', () => {
    expect(usedForAsset('/assets/abc')).toBe('abc');
    expect(usedForAsset('/lots/abc')).toBeUndefined();
    expect(usedForAsset(undefined)).toBeUndefined();
  });
});
