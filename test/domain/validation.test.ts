import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { componentValidator } from '../../src/contract/validators.js';
import { checkAsset, checkInput, checkOwnershipChange } from '../../src/domain/validation.js';
import type { JsonObject, JsonValue } from '../../src/domain/json.js';
import { validAsset } from '../helpers/fixtures.js';

/** An item of the transcript payload (test/helpers/fixtures.ts), with its unit code set to `unitCode`. */
function item(unitCode = 'H87'): JsonObject {
  const first = (validAsset().items as JsonObject[])[0] as JsonObject;
  return { ...first, unit: { code: unitCode, name: 'item' } };
}

/** `data` of asset-post-2pc.http (the original's tutorial), with unit codes `unitCode` (the transcript has CAV codes). */
function transcriptAsset(unitCode = 'H87', itemUnitCode = unitCode): JsonObject {
  return { ...validAsset(), unit: { code: unitCode, name: 'item' }, items: [item(itemUnitCode), item(itemUnitCode)] };
}

/** The transcript asset as served after creation (asset-post-2pc.http response, unit H87). */
function servedAsset(overrides: JsonObject = {}): JsonObject {
  const asset: JsonObject = {
    ...transcriptAsset(),
    id: '6aa3093c0b00447abefcacf9a11da277',
    assetID: 'UA-AR-DGF-2018-01-09-000001',
    date: '2018-01-09T18:31:03.835865+02:00',
    dateModified: '2018-01-09T18:31:03.842028+02:00',
    owner: 'broker',
    status: 'draft',
    value: { currency: 'UAH', amount: 100, valueAddedTaxIncluded: true },
  };
  return { ...asset, ...overrides };
}

function body(name: string, description: unknown) {
  return { location: 'body', name, description };
}

/** Entries come out in no promised order (as in the original): compare them as a set keyed by name. */
function byName(entries: ReturnType<typeof checkInput>) {
  return Object.fromEntries(entries.map((entry) => [entry.name, entry]));
}

describe('valid payloads', () => {
  it('accepts the transcript payload with Rec 20 unit codes, at both stages', () => {
    expect(checkInput(transcriptAsset())).toEqual([]);
    expect(checkAsset(transcriptAsset())).toEqual([]);
  });

  it('accepts the asset as served, read-only fields included', () => {
    expect(checkAsset(servedAsset())).toEqual([]);
    expect(checkInput(servedAsset())).toEqual([]);
  });

  it('accepts both spellings of the translated descriptions', () => {
    const data = { description_en: 'a', description_ru: 'b', decription_en: 'c', decription_ru: 'd' };
    expect(checkInput(data)).toEqual([]);
    expect(checkAsset({ ...transcriptAsset(), ...data })).toEqual([]);
  });

  it('accepts read-only and role-restricted fields in input (the caller drops them) and any status string', () => {
    const data = {
      id: '6aa3093c0b00447abefcacf9a11da277',
      assetID: 'UA-AR-DGF-2018-01-09-000001',
      date: '2018-01-09T18:31:03.835865+02:00',
      dateModified: '2018-01-09T18:31:03.842028+02:00',
      owner: 'someone',
      status: 'no-such-status',
      mode: 'test',
      relatedLot: 'B5CA6AA850694154B6A5F6DB4E65F5DA',
      documents: [],
    };
    expect(checkInput(data)).toEqual([]);
  });

  it('does not ask for required fields in input: PATCH data is partial, nested objects too', () => {
    expect(checkInput({ value: { amount: 5 } })).toEqual([]);
    expect(checkInput({ assetCustodian: { contactPoint: { name: 'x' } } })).toEqual([]);
    expect(checkInput({ items: [{ quantity: 6 }] })).toEqual([]);
  });

  it('treats null as not sent (the concierge sends relatedLot: null when detaching)', () => {
    expect(checkInput({ status: 'pending', relatedLot: null })).toEqual([]);
    expect(checkInput({ value: { amount: null, currency: 'UAH' } })).toEqual([]);
  });

  it('accepts debt amounts of 0 and a date signed without an offset', () => {
    const debt = {
      value: { amount: 0, currency: 'UAH' },
      debtCurrencyValue: { amount: 0, currency: 'EUR' },
      dateSigned: '2017-08-16T12:30:17',
    };
    expect(checkInput({ debt })).toEqual([]);
  });

  it('accepts a contact point with only an email', () => {
    const asset = transcriptAsset();
    (asset.assetCustodian as JsonObject).contactPoint = { name: 'n', email: 'custodian@dus.gov.ua' };
    expect(checkAsset(asset)).toEqual([]);
  });
});

describe('unknown fields', () => {
  it('at the top level: the bare string "Rogue field"', () => {
    expect(checkInput({ title: 'x', badKey: 1 })).toEqual([body('badKey', 'Rogue field')]);
  });

  it('in a nested object: the top field, {badKey: "Rogue field"}', () => {
    expect(checkInput({ assetCustodian: { name: 'x', badKey: 1 } })).toEqual([
      body('assetCustodian', { badKey: 'Rogue field' }),
    ]);
    expect(checkInput({ assetCustodian: { contactPoint: { name: 'x', badKey: 1 } } })).toEqual([
      body('assetCustodian', { contactPoint: { badKey: 'Rogue field' } }),
    ]);
  });

  it('inside a list element: the element error alone, with no list wrapper', () => {
    expect(checkInput({ items: [item(), { ...item(), badKey: 1 }] })).toEqual([
      body('items', { badKey: 'Rogue field' }),
    ]);
  });

  it('is reported at creation too, and only it (conversion stops before required checks)', () => {
    expect(checkAsset({ assetType: 'claimRights', badKey: 1 })).toEqual([body('badKey', 'Rogue field')]);
  });
});

/** `patch` merged into `target`: objects deep-merge, anything else replaces. */
function merged(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? merged(current, value) : value;
  }
  return out;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('conversion: checked on the data as sent', () => {
  const cases: [string, JsonObject, unknown][] = [
    [
      'a mapping expected',
      { value: 'abc' },
      ['Please use a mapping for this field or Value instance instead of unicode.'],
    ],
    [
      'a mapping expected (list given)',
      { assetCustodian: [] },
      ['Please use a mapping for this field or Organization instance instead of list.'],
    ],
    [
      'a mapping expected, nested',
      { assetCustodian: { address: 5 } },
      { address: ['Please use a mapping for this field or Address instance instead of int.'] },
    ],
    ['a string expected', { title: 5 }, ["Couldn't interpret '5' as string."]],
    ['a list expected', { items: 'abc' }, ['Could not interpret the value as a list']],
    [
      'a boolean expected',
      { value: { valueAddedTaxIncluded: 'yes' } },
      { valueAddedTaxIncluded: ['Must be either true or false.'] },
    ],
    ['a decimal expected', { value: { amount: 'abc' } }, { amount: ["Number 'abc' failed to convert to a decimal."] }],
    ['a whole number expected', { quantity: 1.5 }, ["Value '1.5' is not int."]],
    ['value.amount of 0', { value: { amount: 0 } }, { amount: ['Value should be greater than 0.'] }],
    ['value.amount below 0', { value: { amount: -1 } }, { amount: ['Value should be greater than 0.'] }],
    [
      'debt amount below 0',
      { debt: { value: { amount: -0.01 } } },
      { value: { amount: ['Value should be greater than 0.'] } },
    ],
    [
      'debt currency amount below 0',
      { debt: { debtCurrencyValue: { amount: -5 } } },
      { debtCurrencyValue: { amount: ['Value should be greater than 0.'] } },
    ],
    [
      'date-time',
      { debt: { dateSigned: 'yesterday' } },
      { dateSigned: ['Could not parse yesterday. Should be ISO8601.'] },
    ],
    ['relatedLot length', { relatedLot: 'abc' }, ['Hash value is wrong length.']],
    ['relatedLot hex', { relatedLot: 'z'.repeat(32) }, ['Hash value is not hexadecimal.']],
  ];
  for (const [what, data, description] of cases) {
    it(what, () => {
      const [name] = Object.keys(data);
      expect(checkInput(data)).toEqual([body(name as string, description)]);
      expect(checkAsset(merged(transcriptAsset(), data))).toEqual([body(name as string, description)]);
    });
  }
});

describe('validation: checked on the resulting asset only', () => {
  const cases: [string, JsonObject, unknown][] = [
    [
      'debtorType',
      { debt: { debtorType: 'robot' } },
      { debtorType: ["Value must be one of ['naturalPerson', 'legalPerson']."] },
    ],
    [
      'debt value currency',
      { debt: { value: { amount: 1, currency: 'USD' } } },
      { value: { currency: ["Value must be one of ['UAH']."] } },
    ],
    ['classification scheme', { classification: { scheme: 'CPV' } }, { scheme: ["Value must be one of ['CAV']."] }],
    ['mode', { mode: 'real' }, ["Value must be one of ['test']."]],
    [
      'email',
      { assetCustodian: { contactPoint: { email: 'not-an-email' } } },
      { contactPoint: { email: ['Not a well formed email address.'] } },
    ],
    [
      'url',
      { assetCustodian: { identifier: { uri: 'not a url' } } },
      { identifier: { uri: ['Not a well formed URL.'] } },
    ],
    [
      'contact url',
      { assetCustodian: { contactPoint: { url: 'www' } } },
      { contactPoint: { url: ['Not a well formed URL.'] } },
    ],
    ['title length', { title: 'x'.repeat(2001) }, ['String value is too long.']],
    [
      'list length',
      { additionalClassifications: Array.from({ length: 101 }, () => ({ scheme: 's', id: 'i', description: 'd' })) },
      ['Please provide no more than 100 items.'],
    ],
    [
      'CAV id',
      { classification: { id: '99999999-9' } },
      { id: ['Value must be a code of the CAV classifier (see the list of CAV codes).'] },
    ],
    [
      'currency',
      { value: { currency: 'ABC' } },
      { currency: ['Value must be an ISO 4217 currency code, such as UAH.'] },
    ],
    [
      'debt currency',
      { debt: { debtCurrencyValue: { amount: 1, currency: 'usd' } } },
      { debtCurrencyValue: { currency: ['Value must be an ISO 4217 currency code, such as UAH.'] } },
    ],
    [
      'identifier scheme',
      { assetCustodian: { identifier: { scheme: 'UA-XYZ' } } },
      { identifier: { scheme: ['Value must be an organisation registration agency code, such as UA-EDR.'] } },
    ],
  ];
  for (const [what, data, description] of cases) {
    it(what, () => {
      const [name] = Object.keys(data);
      expect(checkInput(data)).toEqual([]);
      expect(checkAsset(merged(transcriptAsset(), data))).toEqual([body(name as string, description)]);
    });
  }
});

describe('code lists', () => {
  it('refuses the transcript as it was: CAV codes are not Rec 20 unit codes', () => {
    const unitMessage = ['Value must be a UN/CEFACT Recommendation 20 unit code, such as H87.'];
    expect(checkInput(transcriptAsset('39513200-3', '44617100-9'))).toEqual([]);
    expect(byName(checkAsset(transcriptAsset('39513200-3', '44617100-9')))).toEqual({
      unit: body('unit', { code: unitMessage }),
      items: body('items', [{ unit: { code: unitMessage } }, { unit: { code: unitMessage } }]),
    });
  });

  it('accepts codes from each list', () => {
    const asset = merged(transcriptAsset(), {
      unit: { code: 'MTK' },
      value: { currency: 'EUR' },
      classification: { id: '04000000-8' },
      assetCustodian: { identifier: { scheme: 'GB-COH' } },
    });
    expect(checkAsset(asset)).toEqual([]);
  });
});

describe('shapes', () => {
  it('gives one entry per top-level field, with every sub-field under it', () => {
    const errors = checkInput({ value: { amount: 0, valueAddedTaxIncluded: 'no', extra: 1 }, title: 5 });
    expect(byName(errors)).toEqual({
      value: body('value', {
        amount: ['Value should be greater than 0.'],
        valueAddedTaxIncluded: ['Must be either true or false.'],
        extra: 'Rogue field',
      }),
      title: body('title', ["Couldn't interpret '5' as string."]),
    });
  });

  it('collects the errors of the first failing list element only, at conversion', () => {
    const items = [item(), { ...item(), quantity: 'abc', badKey: 1 }, { ...item(), quantity: -1 }];
    expect(checkInput({ items })).toEqual([
      body('items', { quantity: ["Value 'abc' is not int."], badKey: 'Rogue field' }),
    ]);
  });

  it('lists one object per failing element, without indices, at validation', () => {
    const { description: _ignored, ...noDescription } = item();
    const asset = transcriptAsset();
    asset.items = [item(), noDescription, item(), { ...noDescription, address: { postalCode: '1' } }];
    expect(checkAsset(asset)).toEqual([
      body('items', [
        { description: ['This field is required.'] },
        { description: ['This field is required.'], address: { countryName: ['This field is required.'] } },
      ]),
    ]);
  });

  it('reports choices and required fields together, as one validation', () => {
    const asset = merged(transcriptAsset(), { debt: { debtorType: 'robot' } });
    delete asset.title;
    expect(byName(checkAsset(asset))).toEqual({
      debt: body('debt', { debtorType: ["Value must be one of ['naturalPerson', 'legalPerson']."] }),
      title: body('title', ['This field is required.']),
    });
  });
});

describe('checkAsset: the complete asset', () => {
  const REQUIRED = ['assetType', 'title', 'classification', 'value', 'unit', 'quantity', 'assetCustodian'];

  for (const field of REQUIRED) {
    it(`requires ${field}`, () => {
      const asset = transcriptAsset();
      delete asset[field];
      expect(checkAsset(asset)).toEqual([body(field, ['This field is required.'])]);
    });
  }

  it('reports every missing required field at once', () => {
    expect(byName(checkAsset({}))).toEqual(
      Object.fromEntries(REQUIRED.map((f) => [f, body(f, ['This field is required.'])])),
    );
  });

  it('takes a null field as missing', () => {
    expect(checkAsset({ ...transcriptAsset(), title: null })).toEqual([body('title', ['This field is required.'])]);
  });

  it('requires assetType claimRights (422 on assetType)', () => {
    expect(checkAsset({ ...transcriptAsset(), assetType: 'basic' })).toEqual([
      body('assetType', ["Value must be one of ['claimRights']."]),
    ]);
  });

  it('accepts any assetType string in input: it is ignored outside creation', () => {
    expect(checkInput({ assetType: 'basic' })).toEqual([]);
  });

  it('requires a telephone or an email in the contact point', () => {
    const asset = transcriptAsset();
    (asset.assetCustodian as JsonObject).contactPoint = { name: 'Державне управління справами' };
    expect(checkAsset(asset)).toEqual([
      body('assetCustodian', { contactPoint: { email: ['telephone or email should be present'] } }),
    ]);
  });

  it('requires nested fields: contact name, identifier id and scheme, country, classification parts, value amount', () => {
    const asset = transcriptAsset();
    asset.assetCustodian = { contactPoint: { telephone: '1' }, identifier: {}, name: 'n', address: { locality: 'x' } };
    asset.classification = { scheme: 'CAV' };
    asset.value = { currency: 'UAH' };
    expect(byName(checkAsset(asset))).toEqual({
      assetCustodian: body('assetCustodian', {
        contactPoint: { name: ['This field is required.'] },
        identifier: { scheme: ['This field is required.'], id: ['This field is required.'] },
        address: { countryName: ['This field is required.'] },
      }),
      classification: body('classification', {
        id: ['This field is required.'],
        description: ['This field is required.'],
      }),
      value: body('value', { amount: ['This field is required.'] }),
    });
  });

  it('requires relatedLot when active, not before', () => {
    expect(checkAsset(servedAsset({ status: 'active' }))).toEqual([body('relatedLot', ['This field is required.'])]);
    expect(checkAsset(servedAsset({ status: 'active', relatedLot: 'b5ca6aa850694154b6a5f6db4e65f5da' }))).toEqual([]);
    expect(checkAsset(servedAsset({ status: 'verification' }))).toEqual([]);
  });

  it('reports conversion errors alone, without the required ones', () => {
    expect(checkAsset({ assetType: 'claimRights', title: 5 })).toEqual([
      body('title', ["Couldn't interpret '5' as string."]),
    ]);
    const asset = transcriptAsset();
    delete asset.title;
    asset.value = { amount: -1, currency: 'UAH' };
    expect(checkAsset(asset)).toEqual([body('value', { amount: ['Value should be greater than 0.'] })]);
  });
});

describe('robustness', () => {
  it('refuses an unknown key even when its value is null', () => {
    expect(checkInput({ debt: { value: { amount: 1, currency: 'UAH', prototype: null } } })).toEqual([
      body('debt', { value: { prototype: 'Rogue field' } }),
    ]);
    expect(checkAsset({ ...transcriptAsset(), colour: null })).toEqual([body('colour', 'Rogue field')]);
  });

  it('answers values nested thousands deep, quoting them briefly', () => {
    let deep: JsonValue = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const long = 'y'.repeat(100_000);
    expect(checkInput({ title: deep })).toEqual([body('title', ["Couldn't interpret '[list of 1]' as string."])]);
    expect(checkAsset({ ...transcriptAsset(), debt: { dateSigned: long } })).toEqual([
      body('debt', { dateSigned: [`Could not parse ${'y'.repeat(100)}…. Should be ISO8601.`] }),
    ]);
    let nested: JsonValue = {};
    for (let i = 0; i < 100_000; i++) nested = { a: nested };
    expect(checkAsset({ ...transcriptAsset(), debt: { debtCurrencyValue: nested as JsonObject } })).toEqual([
      body('debt', { debtCurrencyValue: { a: 'Rogue field' } }),
    ]);
  });

  it('takes a __proto__ key as an unknown field, at any depth', () => {
    expect(checkInput(JSON.parse('{"__proto__": {"title": 5}}'))).toEqual([body('__proto__', 'Rogue field')]);
    const nested = checkInput(JSON.parse('{"value": {"__proto__": {"amount": 1}}}'));
    expect(JSON.stringify(nested)).toBe(JSON.stringify([body('value', JSON.parse('{"__proto__": "Rogue field"}'))]));
  });

  const REQUIRED_NAMES = [
    'assetType',
    'title',
    'classification',
    'value',
    'unit',
    'quantity',
    'assetCustodian',
    'relatedLot',
  ];

  it('never throws; one entry per field, naming a field of the input (or a required one at validation)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 })), (data) => {
        const input = data as JsonObject;
        const check = (entries: ReturnType<typeof checkInput>, allowed: (name: string) => boolean) => {
          const names = entries.map((entry) => entry.name);
          expect(new Set(names).size).toBe(names.length);
          for (const entry of entries) {
            expect(entry.location).toBe('body');
            expect(allowed(entry.name)).toBe(true);
          }
        };
        check(checkInput(input), (name) => Object.hasOwn(input, name));
        check(checkAsset(input), (name) => Object.hasOwn(input, name) || REQUIRED_NAMES.includes(name));
      }),
      { numRuns: 300 },
    );
  });
});

describe('componentValidator', () => {
  it('validates served assets and refuses fields the registry never serves', () => {
    const validate = componentValidator('Asset');
    expect(validate(servedAsset())).toBe(true);
    expect(validate({ ...servedAsset(), ownerTokenHash: 'x' })).toBe(false);
    expect(validate({ ...servedAsset(), status: 'unknown' })).toBe(false);
  });

  it('throws for a schema the document does not have', () => {
    expect(() => componentValidator('NoSuchSchema')).toThrow(/NoSuchSchema/);
  });
});

// docs/decisions/0033-ownership-transfer-in-two-writes.md
describe('checkOwnershipChange (record 0033)', () => {
  const valid = { id: 'f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b', transfer: '7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b' };

  it('accepts an id and a transfer token, and ignores other fields as the original did', () => {
    expect(checkOwnershipChange(valid)).toEqual([]);
    expect(checkOwnershipChange({ ...valid, owner: 'someone', anything: [1] })).toEqual([]);
  });

  it('refuses each missing field (null counts as missing) with a list description', () => {
    expect(checkOwnershipChange({})).toEqual([
      { location: 'body', name: 'id', description: ['This field is required.'] },
      { location: 'body', name: 'transfer', description: ['This field is required.'] },
    ]);
    expect(checkOwnershipChange({ id: valid.id, transfer: null })).toEqual([
      { location: 'body', name: 'transfer', description: ['This field is required.'] },
    ]);
  });

  it('refuses values that are not non-empty strings', () => {
    expect(checkOwnershipChange({ id: 42, transfer: valid.transfer })).toEqual([
      { location: 'body', name: 'id', description: ["Couldn't interpret '42' as string."] },
    ]);
    expect(checkOwnershipChange({ id: valid.id, transfer: '' })).toEqual([
      { location: 'body', name: 'transfer', description: ['String value is too short.'] },
    ]);
  });
});

// docs/decisions/0045-bounded-answers.md
describe('bounded field errors (record 0045)', () => {
  const unknown = (count: number): JsonObject =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown${i}`, i]));

  it('lists at most 100, then one entry counting the rest', () => {
    const errors = checkInput(unknown(150));
    expect(errors).toHaveLength(101);
    expect(errors[100]).toEqual({ location: 'body', name: 'data', description: '50 more errors left out' });
  });

  it('counts errors deep inside one field alike', () => {
    const errors = checkInput({ assetCustodian: { address: unknown(130) } });
    expect(errors).toHaveLength(2);
    expect(Object.keys((errors[0]!.description as { address: object }).address)).toHaveLength(100);
    expect(errors[1]).toEqual({ location: 'body', name: 'data', description: '30 more errors left out' });
  });

  it('adds nothing when there are 100 or fewer, nor for data that is not an object', () => {
    expect(checkInput(unknown(100))).toHaveLength(100);
    expect(checkInput('text').every((entry) => !String(entry.description).includes('left out'))).toBe(true);
  });

  it('checks an ownership change nested deeper than the call stack goes without failing', () => {
    let deep: JsonValue = null;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(checkOwnershipChange({ id: 'a'.repeat(32), transfer: 'b'.repeat(32), ignored: deep, other: null })).toEqual(
      [],
    );
    expect(checkOwnershipChange({ id: null, transfer: 'b', ignored: deep })).toEqual([
      { location: 'body', name: 'id', description: ['This field is required.'] },
    ]);
  });
});
