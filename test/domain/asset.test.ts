import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { createPayload } from '../../bench/data.js';
import { changesBetween } from '../../src/domain/history.js';
import { applyPatch, applyTestTitles, buildNewAsset, sameContent, stampWrite } from '../../src/domain/asset.js';
import type { JsonObject, JsonValue } from '../../src/domain/json.js';
import { creatableFields, decidePatch } from '../../src/domain/workflow.js';

const NOW = '2026-11-22T12:30:17.615196+02:00';
const LATER = '2026-11-22T12:31:00.000001+02:00';
const ctx = { id: 'a'.repeat(32), owner: 'broker', assetID: 'UA-AR-DGF-2026-11-22-000001', now: NOW };

describe('buildNewAsset', () => {
  it('stores no null member at any depth (the original never stored None)', () => {
    const asset = buildNewAsset(
      { title: 'x', description: null, items: [{ description: 'i', additionalClassifications: null }, null] },
      ctx,
    );
    expect(asset).not.toHaveProperty('description');
    expect(asset.items).toHaveLength(1);
    expect(asset.items).toEqual([expect.not.objectContaining({ additionalClassifications: null })]);
    expect(JSON.stringify(asset)).not.toContain('null');
  });

  it('assigns the registry fields and starts as draft', () => {
    const asset = buildNewAsset({ title: 'Claim', assetType: 'claimRights' }, ctx);
    expect(asset).toEqual({
      id: ctx.id,
      assetID: ctx.assetID,
      owner: 'broker',
      status: 'draft',
      date: NOW,
      dateModified: NOW,
      title: 'Claim',
      assetType: 'claimRights',
    });
  });

  it('ignores a status or id sent at creation', () => {
    const asset = buildNewAsset(creatableFields({ title: 'Claim', status: 'active', id: 'f'.repeat(32) }), ctx);
    expect(asset.status).toBe('draft');
    expect(asset.id).toBe(ctx.id);
  });

  it('defaults value.valueAddedTaxIncluded to true and keeps a value that was sent', () => {
    expect(buildNewAsset({ value: { amount: 100, currency: 'UAH' } }, ctx).value).toEqual({
      amount: 100,
      currency: 'UAH',
      valueAddedTaxIncluded: true,
    });
    expect(buildNewAsset({ value: { amount: 100, valueAddedTaxIncluded: false } }, ctx).value).toEqual({
      amount: 100,
      valueAddedTaxIncluded: false,
    });
    // Not an object: left for validation to refuse.
    expect(buildNewAsset({ value: 'cheap' }, ctx).value).toBe('cheap');
  });

  it('gives every item without an id a fresh one and keeps the ids sent', () => {
    const asset = buildNewAsset(
      { items: [{ description: 'one' }, { id: 'given', description: 'two' }, { description: 'three' }] },
      ctx,
    );
    const items = asset.items as JsonObject[];
    expect(items[0]?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(items[1]?.id).toBe('given');
    expect(items[2]?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(items[0]?.id).not.toBe(items[2]?.id);
  });

  it("writes a new asset's objects in JCS order, so its creation's changes are their own JCS (record 0084)", () => {
    const asset = buildNewAsset(createPayload(), ctx);
    const changes = changesBetween({}, asset);
    expect(JSON.stringify(changes)).toBe(canonicalize(changes));
    const patched = applyPatch(asset, { items: [{}, {}, { description: 'new', quantity: 2 }] }, 'draft');
    const added = changesBetween(asset, patched);
    expect(added).toEqual([{ op: 'add', path: '/items/2', value: expect.objectContaining({ description: 'new' }) }]);
    expect(JSON.stringify(added)).toBe(canonicalize(added));
  });

  it('does not mutate the data', () => {
    const data: JsonObject = { value: { amount: 1 }, items: [{ description: 'x' }] };
    buildNewAsset(data, ctx);
    expect(data).toEqual({ value: { amount: 1 }, items: [{ description: 'x' }] });
  });

  it('prefixes the titles of a test-mode asset', () => {
    const asset = buildNewAsset({ mode: 'test', title: 'Claim', title_en: 'Claim EN' }, ctx);
    expect(asset.title).toBe('[ТЕСТУВАННЯ] Claim');
    expect(asset.title_en).toBe('[TESTING] Claim EN');
    expect(asset.title_ru).toBe('[ТЕСТИРОВАНИЕ] ');
  });
});

describe('applyTestTitles', () => {
  it('leaves assets that are not in test mode alone', () => {
    const asset: JsonObject = { title: 'Claim', mode: 'real' };
    expect(applyTestTitles(asset)).toEqual({ title: 'Claim', mode: 'real' });
    expect(applyTestTitles({ title: 'Claim' })).toEqual({ title: 'Claim' });
  });

  it('never doubles a prefix on later saves', () => {
    const once = applyTestTitles({ mode: 'test', title: 'Claim', title_en: 'E', title_ru: 'R' });
    expect(applyTestTitles(once)).toEqual(once);
    expect(applyTestTitles(applyTestTitles(once))).toEqual({
      mode: 'test',
      title: '[ТЕСТУВАННЯ] Claim',
      title_en: '[TESTING] E',
      title_ru: '[ТЕСТИРОВАНИЕ] R',
    });
  });

  it('prefixes a title the owner replaced later', () => {
    const saved = applyTestTitles({ mode: 'test', title: 'Claim' });
    const patched = applyPatch({ ...saved, status: 'draft' }, { title: 'Renamed' }, 'draft');
    expect(patched.title).toBe('[ТЕСТУВАННЯ] Renamed');
  });

  it('leaves a title that is not a string for validation', () => {
    expect(applyTestTitles({ mode: 'test', title: 5 }).title).toBe(5);
  });
});

describe('applyPatch', () => {
  const pending: JsonObject = {
    id: ctx.id,
    status: 'pending',
    title: 'Claim',
    value: { amount: 100, currency: 'UAH', valueAddedTaxIncluded: true },
    date: NOW,
    dateModified: NOW,
  };

  it('merges the changes and sets the target status, leaving the dates', () => {
    const next = applyPatch(pending, { value: { amount: 200 } }, 'verification');
    expect(next).toEqual({
      ...pending,
      status: 'verification',
      value: { amount: 200, currency: 'UAH', valueAddedTaxIncluded: true },
    });
    expect(pending.status).toBe('pending');
  });

  it('clears relatedLot on active → pending, even when the request sends one', () => {
    const active: JsonObject = { ...pending, status: 'active', relatedLot: 'c'.repeat(32) };
    expect(applyPatch(active, {}, 'pending')).not.toHaveProperty('relatedLot');
    expect(applyPatch(active, { relatedLot: 'd'.repeat(32) }, 'pending')).not.toHaveProperty('relatedLot');
  });

  it('keeps relatedLot on active → complete and lets it change', () => {
    const active: JsonObject = { ...pending, status: 'active', relatedLot: 'c'.repeat(32) };
    expect(applyPatch(active, {}, 'complete').relatedLot).toBe('c'.repeat(32));
    expect(applyPatch(active, { relatedLot: 'd'.repeat(32) }, 'complete').relatedLot).toBe('d'.repeat(32));
  });

  it('keeps relatedLot when moving pending → verification with it', () => {
    expect(applyPatch(pending, { relatedLot: 'e'.repeat(32) }, 'verification').relatedLot).toBe('e'.repeat(32));
  });

  it('gives an item the PATCH appends an id and keeps the ids of the others', () => {
    const withItems: JsonObject = { ...pending, items: [{ id: 'f'.repeat(32), description: 'one' }] };
    const next = applyPatch(withItems, { items: [{}, { description: 'two' }] }, 'pending');
    const items = next.items as JsonObject[];
    expect(items[0]).toEqual({ id: 'f'.repeat(32), description: 'one' });
    expect(items[1]?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(items[1]?.description).toBe('two');
  });

  it('applies test titles when the admin switches the asset to test mode', () => {
    const decision = decidePatch('admins', 'pending', { mode: 'test' });
    if (!decision.allowed) throw new Error('admins may set mode');
    const next = applyPatch(pending, decision.changes, decision.target);
    expect(next.mode).toBe('test');
    expect(next.title).toBe('[ТЕСТУВАННЯ] Claim');
  });
});

describe('stampWrite', () => {
  const asset: JsonObject = { status: 'pending', date: NOW, dateModified: NOW };

  it('sets dateModified only when the status stayed', () => {
    expect(stampWrite(asset, LATER, false)).toEqual({ status: 'pending', date: NOW, dateModified: LATER });
  });

  it('sets date as well when the status changed', () => {
    expect(stampWrite(asset, LATER, true)).toEqual({ status: 'pending', date: LATER, dateModified: LATER });
    expect(asset.dateModified).toBe(NOW);
  });
});

describe('sameContent', () => {
  it('ignores key order at every level', () => {
    expect(sameContent({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(true);
  });

  it('sees every difference', () => {
    const base: JsonObject = { a: 1, b: { c: [1, 2] }, d: null };
    const different: JsonValue[] = [
      { a: 2, b: { c: [1, 2] }, d: null },
      { a: 1, b: { c: [1, 2, 3] }, d: null },
      { a: 1, b: { c: [2, 1] }, d: null },
      { a: 1, b: { c: [1, 2] } },
      { a: 1, b: { c: [1, 2] }, d: null, e: 1 },
      { a: 1, b: { c: { 0: 1, 1: 2 } }, d: null },
      { a: '1', b: { c: [1, 2] }, d: null },
      { a: 1, b: { c: [1, 2] }, d: false },
    ];
    for (const other of different) expect(sameContent(base, other as JsonObject)).toBe(false);
  });

  it('tells a PATCH that changed nothing', () => {
    const stored = buildNewAsset({ title: 'Claim', value: { amount: 1 }, items: [{ description: 'x' }] }, ctx);
    const decision = decidePatch('owner', 'draft', { status: 'draft', title: 'Claim' });
    if (!decision.allowed) throw new Error('owner may edit a draft');
    expect(sameContent(applyPatch(stored, decision.changes, decision.target), stored)).toBe(true);
    expect(sameContent(applyPatch(stored, { title: 'Other' }, 'draft'), stored)).toBe(false);
  });
});
