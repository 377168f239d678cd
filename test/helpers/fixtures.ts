/** Payloads and small steps shared by the HTTP tests. */
import type { Client } from './client.js';

const ADDRESS = {
  countryName: 'Україна',
  postalCode: '79000',
  region: 'м. Київ',
  streetAddress: 'вул. Банкова 1',
  locality: 'м. Київ',
};

function item(): Record<string, unknown> {
  return {
    description: 'футляри до державних нагород',
    classification: { scheme: 'CAV', id: '39513200-3', description: 'Cartons' },
    additionalClassifications: [
      { scheme: 'ДКПП', id: '17.21.1', description: 'папір і картон гофровані, паперова й картонна тара' },
    ],
    address: { ...ADDRESS },
    unit: { code: 'H87', name: 'item' },
    quantity: 5,
  };
}

/**
 * The claimRights create payload of asset-post-2pc.http, with the Rec 20 unit code H87 instead of CAV codes.
 * `overrides` replace top-level fields; an override of `undefined` removes the field. Always a fresh copy.
 */
export function validAsset(overrides: Record<string, unknown> = {}): Record<string, any> {
  const base: Record<string, any> = {
    assetType: 'claimRights',
    classification: { scheme: 'CAV', id: '39513200-3', description: 'Земельні ділянки' },
    title: 'Земля для космодрому',
    items: [item(), item()],
    value: { currency: 'UAH', amount: 100 },
    unit: { code: 'H87', name: 'item' },
    address: { ...ADDRESS },
    debt: {
      agreementNumber: '42',
      debtCurrencyValue: { currency: 'USD', amount: 100 },
      value: { currency: 'UAH', amount: 1 },
      dateSigned: '2017-08-16T12:30:17.615196+03:00',
      debtorType: 'legalPerson',
    },
    assetCustodian: {
      contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
      identifier: { scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' },
      name: 'Державне управління справами',
      address: {
        countryName: 'Україна',
        postalCode: '01220',
        region: 'м. Київ',
        streetAddress: 'вул. Банкова, 11, корпус 1',
        locality: 'м. Київ',
      },
    },
    quantity: 5,
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete base[k];
    else base[k] = structuredClone(v);
  }
  return base;
}

export interface Created {
  id: string;
  token: string;
  /** The transfer token (`access.transfer`), which hands the asset to another owner. */
  transfer: string;
  body: any;
}

/** POSTs an asset with the client's key (a broker); fails loudly unless 201. */
export async function createAsset(client: Client, data: Record<string, unknown> = validAsset()): Promise<Created> {
  const res = await client.post('/api/0.1/assets', { data });
  if (res.status !== 201) throw new Error(`createAsset: expected 201, got ${res.status}: ${res.text}`);
  return { id: res.json.data.id, token: res.json.access.token, transfer: res.json.access.transfer, body: res.json };
}

/** Moves a draft to pending with the owner token; fails loudly unless 200. Returns the response body. */
export async function toPending(client: Client, id: string, token: string): Promise<any> {
  const res = await client.patch(`/api/0.1/assets/${id}`, { data: { status: 'pending' } }, { token });
  if (res.status !== 200) throw new Error(`toPending: expected 200, got ${res.status}: ${res.text}`);
  return res.json;
}
