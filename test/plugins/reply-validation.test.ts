/**
 * The reply check (`VALIDATE_REPLIES`): a reply that breaks the OpenAPI document never leaves as it is. A record
 * written around the registry (straight into the real store) that the contract does not allow is served as a 500
 * naming the break; the same record is served as it is when the check is off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate, nowMicros } from '../../src/domain/dates.js';
import { useServer, type TestServer } from '../helpers/server.js';

const ID = 'f'.repeat(32);
const checked = useServer();
const unchecked = useServer({ VALIDATE_REPLIES: 'false' });

/** An asset without its required `title` and with a status the contract does not know. */
async function insertBrokenRecord(server: TestServer): Promise<void> {
  const modified = nowMicros();
  const at = formatDate(modified, 'Europe/Kyiv');
  await server.store.bulkInsert([
    {
      id: ID,
      ownerTokenHash: 'x',
      transferTokenHash: null,
      appliedTransfers: [],
      documentHistory: [],
      modified,
      listed: true,
      test: false,
      asset: { id: ID, owner: 'broker', status: 'lost', assetType: 'claimRights', date: at, dateModified: at },
    },
  ]);
}

beforeAll(async () => {
  await insertBrokenRecord(checked);
  await insertBrokenRecord(unchecked);
});

describe('reply validation', () => {
  it('replaces a reply that breaks the document by a 500 naming the break', async () => {
    const response = await checked.anonymous.get(`/api/0.1/assets/${ID}`);
    expect(response.status).toBe(500);
    expect(response.json.status).toBe('error');
    expect(response.json.errors[0].description).toMatch(/broke the OpenAPI document: body does not match the document/);
  });

  it('checks the JSON inside a JSONP answer against the JSON answer of the same status', async () => {
    const response = await checked.anonymous.get(`/api/0.1/assets/${ID}?opt_jsonp=callback`);
    expect(response.status).toBe(500);
    expect(response.json.errors[0].description).toMatch(
      /broke the OpenAPI document: JSON inside the JSONP body does not match/,
    );
  });

  it('leaves replies that keep the document alone, JSONP included', async () => {
    const response = await checked.anonymous.get('/api/0.1/assets');
    expect(response.status).toBe(200);
    const jsonp = await checked.anonymous.get('/api/0.1/assets?opt_jsonp=callback');
    expect(jsonp.status).toBe(200);
    expect(jsonp.headers['content-type']).toMatch(/^application\/javascript/);
    expect(jsonp.text).toMatch(/^\/\*\*\/callback\(\{"data":/);
  });

  it('is off unless the setting asks for it', async () => {
    const response = await unchecked.anonymous.get(`/api/0.1/assets/${ID}`);
    expect(response.status).toBe(200);
    expect(response.json.data.status).toBe('lost');
  });
});
