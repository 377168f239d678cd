/**
 * What the benchmark sends and seeds: a claimRights creation payload (the shape brokers send), and ready-made
 * pending records built from it by the registry's own domain code, for `store.bulkInsert`.
 */
import { buildNewAsset } from '../src/domain/asset.js';
import { formatDate, dayOf } from '../src/domain/dates.js';
import { formatAssetId, hashToken, newId } from '../src/domain/ids.js';
import type { JsonObject } from '../src/domain/json.js';
import { checkAsset, checkInput } from '../src/domain/validation.js';
import { creatableFields } from '../src/domain/workflow.js';
import type { RecordDraft } from '../src/store/types.js';

export const BENCH_TZ = 'Europe/Kyiv';
const ASSET_ID_PREFIX = 'UA-AR-DGF';
/** The owner token of every seeded record (the PATCH scenario edits them as their owner). */
export const OWNER_TOKEN = '0123456789abcdef0123456789abcdef';
/** auth.ini names of the bench's keys. */
export const BROKER_KEY = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
export const AUTH_INI = `[brokers]\nbroker = ${BROKER_KEY}\n`;

const ADDRESS = {
  countryName: 'Україна',
  postalCode: '01220',
  region: 'м. Київ',
  locality: 'м. Київ',
  streetAddress: 'вул. Банкова, 11, корпус 1',
};

/** A typical creation payload: claim rights on a loan, with two items and the debt. */
export function createPayload(): JsonObject {
  const item = (): JsonObject => ({
    description: 'Права вимоги за кредитним договором',
    classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
    address: { ...ADDRESS },
    unit: { code: 'H87', name: 'штука' },
    quantity: 1,
  });
  return {
    assetType: 'claimRights',
    title: 'Права вимоги за кредитним договором № 42',
    description: 'Права вимоги за кредитним договором, забезпеченим іпотекою нежитлового приміщення',
    classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
    items: [item(), item()],
    value: { amount: 100000, currency: 'UAH' },
    unit: { code: 'H87', name: 'штука' },
    quantity: 1,
    address: { ...ADDRESS },
    debt: {
      agreementNumber: '42',
      debtCurrencyValue: { currency: 'USD', amount: 100 },
      value: { currency: 'UAH', amount: 2700 },
      dateSigned: '2017-08-16T12:30:17.615196+03:00',
      debtorType: 'legalPerson',
    },
    assetCustodian: {
      name: 'Публічне акціонерне товариство «Банк»',
      identifier: { scheme: 'UA-EDR', id: '00032112', uri: 'http://www.bank.example/' },
      address: { ...ADDRESS },
      contactPoint: { name: 'Відділ продажу активів', telephone: '+380440000000', email: 'sales@bank.example' },
    },
  };
}

/** The template of a seeded asset: what POST would store, then moved to pending (so it is in the feed). */
function template(): JsonObject {
  const data = createPayload();
  const inputErrors = checkInput(data);
  if (inputErrors.length > 0) throw new Error(`bench payload refused: ${JSON.stringify(inputErrors)}`);
  const asset = buildNewAsset(creatableFields(data), {
    id: newId(),
    owner: 'broker',
    assetID: formatAssetId(ASSET_ID_PREFIX, '2000-01-01', 1),
    now: formatDate(Date.now() * 1000, BENCH_TZ),
  });
  asset.status = 'pending';
  const errors = checkAsset(asset);
  if (errors.length > 0) throw new Error(`bench seed asset refused: ${JSON.stringify(errors)}`);
  return asset;
}

/**
 * Makes seeded records `from`…`to - 1` (sequence numbers): record i is modified at `base + i` milliseconds,
 * so every `modified` is unique and the feed order is the sequence order.
 */
export class Seeder {
  private readonly template = template();
  private readonly tokenHash = hashToken(OWNER_TOKEN);
  constructor(private readonly baseMicros: number) {}

  modifiedOf(sequence: number): number {
    return this.baseMicros + sequence * 1000;
  }

  records(from: number, to: number): RecordDraft[] {
    const out: RecordDraft[] = new Array(to - from);
    for (let i = from; i < to; i++) {
      const modified = this.modifiedOf(i);
      const at = formatDate(modified, BENCH_TZ);
      const id = newId();
      out[i - from] = {
        id,
        ownerTokenHash: this.tokenHash,
        // Seeded assets are never handed to another owner: no transfer token.
        transferTokenHash: null,
        appliedTransfers: [],
        documentHistory: [],
        modified,
        listed: true,
        test: false,
        asset: {
          ...this.template,
          id,
          assetID: formatAssetId(ASSET_ID_PREFIX, dayOf(modified, BENCH_TZ), (i % 999_999) + 1),
          date: at,
          dateModified: at,
        },
      };
    }
    return out;
  }

  /** A sample JSON document the size of a seeded asset, for the bare route. */
  sampleAsset(): JsonObject {
    return this.records(0, 1)[0]!.asset;
  }
}
