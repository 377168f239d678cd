/**
 * POST /api/0.1/assets: spec "Create asset";
 * docs/decisions/0006-api-keys-and-roles.md, docs/decisions/0007-workflow-as-tables.md,
 * docs/decisions/0009-ids-tokens-and-asset-id.md, docs/decisions/0012-field-errors-in-the-originals-shapes.md,
 * docs/decisions/0015-the-originals-quirks.md.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, serverForThisTest, useServer } from '../../helpers/server.js';
import { createAsset, toPending, validAsset } from '../../helpers/fixtures.js';
import { expectErrors, expectOneError } from '../../helpers/expect.js';

const ASSETS = '/api/0.1/assets';
const DATE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/;
const REQUIRED = 'This field is required.';

/** `YYYY-MM-DD` of now in a zone. */
function dayIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The numeric offset (`+02:00`) of a zone at a moment. */
function offsetIn(timeZone: string, at: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')!.value; // "GMT+02:00" or "GMT"
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

const server = useServer();
const { broker } = server;

describe('a fresh server (assetID counter, nothing stored after refusals)', () => {
  const { broker: client } = useServer();

  it('stores nothing and consumes no assetID number after any refused create', async () => {
    const refusals = [
      await client.post(ASSETS, { data: validAsset({ title: undefined }) }),
      await client.post(ASSETS, { data: validAsset({ rogue: 1 }) }),
      await client.post(ASSETS, { data: validAsset({ value: { currency: 'UAH', amount: 0 } }) }),
      await client.request('POST', ASSETS, {
        body: JSON.stringify({ data: validAsset() }),
        headers: { 'content-type': 'text/plain' },
      }),
      await client.request('POST', ASSETS, { body: 'data', headers: { 'content-type': 'application/json' } }),
      await client.post(ASSETS, { data: validAsset() }, { key: null }),
      await client.post(ASSETS, { data: validAsset() }, { key: KEYS.concierge }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([422, 422, 422, 415, 422, 401, 403]);

    const before = dayIn('Europe/Kyiv');
    const first = await createAsset(client);
    const second = await createAsset(client);
    const after = dayIn('Europe/Kyiv');
    if (before === after) {
      expect(first.body.data.assetID).toBe(`UA-AR-DGF-${before}-000001`);
      expect(second.body.data.assetID).toBe(`UA-AR-DGF-${before}-000002`);
    }
    // Nothing refused became listed: only the asset we move to pending shows up.
    await toPending(client, first.id, first.token);
    const listing = await client.get(`${ASSETS}?mode=_all_`);
    expect(listing.status).toBe(200);
    expect(listing.json.data.map((r: any) => r.id)).toEqual([first.id]);
  });
});

describe('successful create', () => {
  it('201 with Location whose last segment is data.id, access.token, access.transfer and the full asset', async () => {
    const res = await broker.post(ASSETS, { data: validAsset() });
    expect(res.status, res.text).toBe(201);
    const { data, access } = res.json;
    expect(data.id).toMatch(/^[0-9a-f]{32}$/);
    const location = new URL(res.headers.location!);
    expect(location.pathname).toBe(`${ASSETS}/${data.id}`);
    expect(location.pathname.split('/').pop()).toBe(data.id);
    expect(`${location.protocol}//${location.host}`).toBe(server.url);
    expect(typeof access.token).toBe('string');
    expect(access.token.length).toBeGreaterThanOrEqual(16);
    expect(access.transfer).toMatch(/^[0-9a-f]{32}$/);
    expect(access.transfer).not.toBe(access.token);
    expect(data.status).toBe('draft');
    expect(data.assetType).toBe('claimRights');
    expect(data.title).toBe('Земля для космодрому');
    expect(data.classification).toEqual({ scheme: 'CAV', id: '39513200-3', description: 'Земельні ділянки' });
    expect(data.unit).toEqual({ code: 'H87', name: 'item' });
    expect(data.quantity).toBe(5);
    expect(data.debt.debtorType).toBe('legalPerson');
    expect(data.assetCustodian.identifier).toEqual({ scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' });
    // The created asset is readable by id and equal to the create response.
    const read = await broker.get(`${ASSETS}/${data.id}`);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(data);
  });

  it('status is draft even when another status is sent', async () => {
    for (const status of ['pending', 'active', 'complete']) {
      const { body } = await createAsset(broker, validAsset({ status }));
      expect(body.data.status).toBe('draft');
    }
  });

  it('owner is the key holder name', async () => {
    const one = await createAsset(broker);
    expect(one.body.data.owner).toBe('broker');
    const two = await createAsset(broker.as(KEYS.broker2));
    expect(two.body.data.owner).toBe('broker2');
  });

  it('assetID is <prefix>-YYYY-MM-DD-NNNNNN in TZ, consecutive for two creates', async () => {
    const before = dayIn('Europe/Kyiv');
    const a = await createAsset(broker);
    const b = await createAsset(broker);
    const after = dayIn('Europe/Kyiv');
    const re = /^UA-AR-DGF-(\d{4}-\d{2}-\d{2})-(\d{6})$/;
    const ma = re.exec(a.body.data.assetID);
    const mb = re.exec(b.body.data.assetID);
    expect(ma, a.body.data.assetID).not.toBeNull();
    expect(mb, b.body.data.assetID).not.toBeNull();
    expect([before, after]).toContain(ma![1]);
    if (before === after) {
      expect(mb![1]).toBe(ma![1]);
      expect(Number(mb![2])).toBe(Number(ma![2]) + 1);
    }
  });

  it('dates carry microseconds and the Europe/Kyiv offset', async () => {
    const t0 = new Date();
    const { body } = await createAsset(broker);
    const t1 = new Date();
    for (const field of ['date', 'dateModified']) {
      const value: string = body.data[field];
      expect(value, field).toMatch(DATE_RE);
      expect([offsetIn('Europe/Kyiv', t0), offsetIn('Europe/Kyiv', t1)]).toContain(value.slice(-6));
      const ms = Date.parse(value);
      expect(ms).toBeGreaterThanOrEqual(t0.getTime() - 1000);
      expect(ms).toBeLessThanOrEqual(t1.getTime() + 1000);
    }
  });

  it('the TZ setting is honoured: TZ=UTC writes +00:00 and counts days in UTC', async () => {
    const utc = await serverForThisTest({ TZ: 'UTC' });
    const before = dayIn('UTC');
    const { body } = await createAsset(utc.broker);
    const after = dayIn('UTC');
    expect(body.data.date).toMatch(DATE_RE);
    expect(body.data.date.endsWith('+00:00')).toBe(true);
    expect(body.data.dateModified.endsWith('+00:00')).toBe(true);
    expect([`UA-AR-DGF-${before}-000001`, `UA-AR-DGF-${after}-000001`]).toContain(body.data.assetID);
  });

  it('ASSET_ID_PREFIX is honoured', async () => {
    const other = await serverForThisTest({ ASSET_ID_PREFIX: 'UA-TEST' });
    const { body } = await createAsset(other.broker);
    expect(body.data.assetID).toMatch(/^UA-TEST-\d{4}-\d{2}-\d{2}-000001$/);
  });

  it('amounts are written as floating point (100.0) in the raw text', async () => {
    const res = await broker.post(ASSETS, { data: validAsset() });
    expect(res.status).toBe(201);
    expect(res.text).toMatch(/"amount":\s*100\.0\b/);
    expect(res.text).toMatch(/"amount":\s*1\.0\b/);
    expect(res.text).not.toMatch(/"amount":\s*100[,}\s]/);
    expect(res.text).not.toMatch(/1E\+2/i);
    const read = await broker.get(`${ASSETS}/${res.json.data.id}`);
    expect(read.text).toMatch(/"amount":\s*100\.0\b/);
    // Fractions stay as sent.
    const frac = await createAsset(broker, validAsset({ value: { currency: 'UAH', amount: 7.65 } }));
    expect(frac.body.data.value.amount).toBe(7.65);
  });

  it('valueAddedTaxIncluded defaults to true, and false is kept', async () => {
    const a = await createAsset(broker);
    expect(a.body.data.value).toEqual({ currency: 'UAH', amount: 100, valueAddedTaxIncluded: true });
    const b = await createAsset(
      broker,
      validAsset({ value: { currency: 'UAH', amount: 100, valueAddedTaxIncluded: false } }),
    );
    expect(b.body.data.value.valueAddedTaxIncluded).toBe(false);
  });

  it('item ids are generated, distinct, and the items otherwise kept', async () => {
    const { body } = await createAsset(broker);
    const items: any[] = body.data.items;
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(typeof item.id).toBe('string');
      expect(item.id.length).toBeGreaterThan(0);
      const { id: _id, ...rest } = item;
      expect(rest).toEqual(validAsset().items[0]);
    }
    expect(items[0].id).not.toBe(items[1].id);
  });

  it('decription_en / description_en spellings are both accepted and kept as sent', async () => {
    const { body } = await createAsset(
      broker,
      validAsset({
        description: 'опис',
        decription_en: 'spec spelling',
        decription_ru: 'описание',
        description_en: 'original spelling',
        description_ru: 'оригинал',
      }),
    );
    expect(body.data.description).toBe('опис');
    expect(body.data.decription_en).toBe('spec spelling');
    expect(body.data.decription_ru).toBe('описание');
    expect(body.data.description_en).toBe('original spelling');
    expect(body.data.description_ru).toBe('оригинал');
  });

  it('mode test gets the title prefixes', async () => {
    const { body } = await createAsset(broker, validAsset({ mode: 'test', title_en: 'Land', title_ru: 'Земля' }));
    expect(body.data.mode).toBe('test');
    expect(body.data.title).toBe('[ТЕСТУВАННЯ] Земля для космодрому');
    expect(body.data.title_en).toBe('[TESTING] Land');
    expect(body.data.title_ru).toBe('[ТЕСТИРОВАНИЕ] Земля');
  });

  it('the smallest working set of the spec is accepted', async () => {
    const data = validAsset();
    const minimal = Object.fromEntries(
      [
        'assetType',
        'classification',
        'title',
        'items',
        'value',
        'unit',
        'address',
        'debt',
        'assetCustodian',
        'quantity',
      ].map((k) => [k, data[k]]),
    );
    const res = await broker.post(ASSETS, { data: minimal });
    expect(res.status, res.text).toBe(201);
  });

  it('UA-EDR and other organisation registration agency schemes are accepted', async () => {
    for (const scheme of ['UA-EDR', 'GB-COH']) {
      const data = validAsset();
      data.assetCustodian.identifier.scheme = scheme;
      const res = await broker.post(ASSETS, { data });
      expect(res.status, res.text).toBe(201);
    }
  });

  it('debt amounts of 0 are accepted', async () => {
    const data = validAsset();
    data.debt.value.amount = 0;
    data.debt.debtCurrencyValue.amount = 0;
    const res = await broker.post(ASSETS, { data });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.debt.value.amount).toBe(0);
  });

  it('a contact point with only an email is accepted', async () => {
    const data = validAsset();
    data.assetCustodian.contactPoint = { name: 'Х', email: 'x@example.org' };
    const res = await broker.post(ASSETS, { data });
    expect(res.status, res.text).toBe(201);
  });
});

describe('field validation (422)', () => {
  const required = ['assetType', 'title', 'classification', 'value', 'unit', 'quantity', 'assetCustodian'];

  for (const field of required) {
    it(`${field} missing → 422 This field is required.`, async () => {
      const res = await broker.post(ASSETS, { data: validAsset({ [field]: undefined }) });
      expectErrors(res, 422, [{ location: 'body', name: field, description: [REQUIRED] }]);
    });
  }

  it('all required fields missing → one error each, as a set', async () => {
    const res = await broker.post(ASSETS, { data: { address: validAsset().address } });
    expectErrors(
      res,
      422,
      required.map((name) => ({ location: 'body', name, description: [REQUIRED] })),
    );
  });

  it('assetType other than claimRights → 422 on assetType', async () => {
    for (const assetType of ['basic', 'claimRights1', '']) {
      const res = await broker.post(ASSETS, { data: validAsset({ assetType }) });
      expectOneError(res, 422, 'body', 'assetType');
    }
  });

  it('an unknown top-level field → 422 Rogue field (a bare string)', async () => {
    const res = await broker.post(ASSETS, { data: validAsset({ colour: 'red' }) });
    expectErrors(res, 422, [{ location: 'body', name: 'colour', description: 'Rogue field' }]);
  });

  it('an unknown field in a nested object → the top field with {key: "Rogue field"}', async () => {
    const data = validAsset();
    data.value.colour = 'red';
    expectErrors(await broker.post(ASSETS, { data }), 422, [
      { location: 'body', name: 'value', description: { colour: 'Rogue field' } },
    ]);
  });

  it('an unknown field two levels down → nested object of the same shape', async () => {
    const data = validAsset();
    data.assetCustodian.contactPoint.colour = 'red';
    expectErrors(await broker.post(ASSETS, { data }), 422, [
      { location: 'body', name: 'assetCustodian', description: { contactPoint: { colour: 'Rogue field' } } },
    ]);
  });

  it('an unknown field inside a list element → {key: "Rogue field"} without a list wrapper', async () => {
    const data = validAsset();
    data.items[1].colour = 'red';
    expectErrors(await broker.post(ASSETS, { data }), 422, [
      { location: 'body', name: 'items', description: { colour: 'Rogue field' } },
    ]);
  });

  it('a CAV id not in the list → 422 on classification.id', async () => {
    const res = await broker.post(ASSETS, {
      data: validAsset({ classification: { scheme: 'CAV', id: '99999999-9', description: 'x' } }),
    });
    expectOneError(res, 422, 'body', 'classification');
    expect(Object.keys(res.json.errors[0].description)).toEqual(['id']);
    expect(Array.isArray(res.json.errors[0].description.id)).toBe(true);
  });

  it('a classification scheme other than CAV → 422 on classification.scheme', async () => {
    const res = await broker.post(ASSETS, {
      data: validAsset({ classification: { scheme: 'CPV', id: '39513200-3', description: 'x' } }),
    });
    expectOneError(res, 422, 'body', 'classification');
    expect(res.json.errors[0].description).toHaveProperty('scheme');
  });

  it('an item with a bad CAV id → 422 on items as a list holding one object', async () => {
    const data = validAsset();
    data.items[0].classification.id = '00000000-0';
    const res = await broker.post(ASSETS, { data });
    expectOneError(res, 422, 'body', 'items');
    const d = res.json.errors[0].description;
    expect(Array.isArray(d)).toBe(true);
    expect(d).toHaveLength(1);
    expect(Object.keys(d[0])).toEqual(['classification']);
    expect(Object.keys(d[0].classification)).toEqual(['id']);
  });

  it('a unit code that is not Rec 20 (a CAV code as in the original transcripts) → 422 on unit.code', async () => {
    const res = await broker.post(ASSETS, { data: validAsset({ unit: { code: '39513200-3', name: 'item' } }) });
    expectOneError(res, 422, 'body', 'unit');
    expect(Object.keys(res.json.errors[0].description)).toEqual(['code']);
  });

  it('a currency that is not ISO 4217 → 422 on value.currency', async () => {
    const res = await broker.post(ASSETS, { data: validAsset({ value: { currency: 'XYZ', amount: 100 } }) });
    expectOneError(res, 422, 'body', 'value');
    expect(Object.keys(res.json.errors[0].description)).toEqual(['currency']);
  });

  it('a debt currency that is not ISO 4217 → 422 on debt.debtCurrencyValue.currency', async () => {
    const data = validAsset();
    data.debt.debtCurrencyValue.currency = 'ZZZ';
    const res = await broker.post(ASSETS, { data });
    expectOneError(res, 422, 'body', 'debt');
    expect(res.json.errors[0].description).toEqual({ debtCurrencyValue: { currency: expect.any(Array) } });
  });

  it('an identifier scheme not in the agency list → 422 on assetCustodian.identifier.scheme', async () => {
    const data = validAsset();
    data.assetCustodian.identifier.scheme = 'NOT-A-SCHEME';
    const res = await broker.post(ASSETS, { data });
    expectOneError(res, 422, 'body', 'assetCustodian');
    expect(res.json.errors[0].description).toEqual({ identifier: { scheme: expect.any(Array) } });
  });

  it('a contact point with neither email nor telephone → telephone or email should be present', async () => {
    const data = validAsset();
    data.assetCustodian.contactPoint = { name: 'Державне управління справами' };
    expectErrors(await broker.post(ASSETS, { data }), 422, [
      {
        location: 'body',
        name: 'assetCustodian',
        description: { contactPoint: { email: ['telephone or email should be present'] } },
      },
    ]);
  });

  it('value.amount 0 or negative → 422 on value.amount', async () => {
    for (const amount of [0, -1]) {
      const res = await broker.post(ASSETS, { data: validAsset({ value: { currency: 'UAH', amount } }) });
      expectOneError(res, 422, 'body', 'value');
      expect(Object.keys(res.json.errors[0].description)).toEqual(['amount']);
      expect(res.json.errors[0].description.amount).toEqual([expect.any(String)]);
    }
  });

  it('debt.value.currency other than UAH → 422 on debt.value.currency', async () => {
    const data = validAsset();
    data.debt.value.currency = 'USD';
    const res = await broker.post(ASSETS, { data });
    expectOneError(res, 422, 'body', 'debt');
    expect(res.json.errors[0].description).toEqual({ value: { currency: [expect.stringContaining('UAH')] } });
  });

  it('a negative debt amount → 422 on debt', async () => {
    const data = validAsset();
    data.debt.value.amount = -5;
    const res = await broker.post(ASSETS, { data });
    expectOneError(res, 422, 'body', 'debt');
    expect(res.json.errors[0].description).toEqual({ value: { amount: [expect.any(String)] } });
  });

  it('a required sub-field missing → nested This field is required.', async () => {
    const res = await broker.post(ASSETS, { data: validAsset({ value: { currency: 'UAH' } }) });
    expectErrors(res, 422, [{ location: 'body', name: 'value', description: { amount: [REQUIRED] } }]);
  });

  it('a missing item description → items as a list of one object', async () => {
    const data = validAsset();
    delete data.items[0].description;
    expectErrors(await broker.post(ASSETS, { data }), 422, [
      { location: 'body', name: 'items', description: [{ description: [REQUIRED] }] },
    ]);
  });
});
