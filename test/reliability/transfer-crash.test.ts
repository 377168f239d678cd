/**
 * An ownership change cut short by `kill -9` between its two writes
 * (docs/decisions/0033-ownership-transfer-in-two-writes.md): fixtures/kill-before-asset-update.ts kills the child
 * as it is about to write the asset. After a restart the transfer is pending, the same call finishes the job, and
 * once more it is refused and changes nothing.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/client.js';
import { createAsset } from '../helpers/fixtures.js';
import { expectOneError } from '../helpers/expect.js';
import { KEYS, useScratch } from '../helpers/server.js';
import { killAllChildren, prepareStore, startChild } from './fixtures/child-server.js';

const KILL_BEFORE_ASSET_UPDATE = fileURLToPath(new URL('./fixtures/kill-before-asset-update.ts', import.meta.url));
const ASSETS = '/api/0.1/assets';

describe('ownership change cut short by kill -9 between marking the transfer and changing the asset', () => {
  // The processes' store; removed after they are gone (hooks after run in reverse order).
  const scratch = useScratch();

  afterAll(async () => {
    await killAllChildren();
  });

  it('leaves the transfer marked and the asset unchanged; repeating the call finishes it', async () => {
    const store = await prepareStore(scratch);
    const first = await startChild(store);
    const oldOwner = new Client(first.url, { key: KEYS.broker });
    const created = await createAsset(oldOwner);
    const elsewhere = await createAsset(oldOwner);
    const made = await new Client(first.url, { key: KEYS.broker2 }).post('/api/0.1/transfers', { data: {} });
    expect(made.status, made.text).toBe(201);
    const transfer = { id: made.json.data.id as string, ...(made.json.access as { token: string; transfer: string }) };
    await first.stop();

    const armed = await startChild(store, { nodeArgs: ['--import', 'tsx', '--import', KILL_BEFORE_ASSET_UPDATE] });
    const call = { data: { id: transfer.id, transfer: created.transfer } };
    const cutShort = new Client(armed.url, { key: KEYS.broker2 });
    await expect(cutShort.post(`${ASSETS}/${created.id}/ownership`, call)).rejects.toThrow();
    await armed.kill9();
    expect(armed.process.signalCode, armed.stderr()).toBe('SIGKILL');

    const server = await startChild(store);
    try {
      const newOwner = new Client(server.url, { key: KEYS.broker2 });
      const before = new Client(server.url, { key: KEYS.broker });
      // The state the crash left: the transfer marked used for this asset, the asset as it was.
      expect((await newOwner.get(`/api/0.1/transfers/${transfer.id}`)).json.data.usedFor).toBe(`/assets/${created.id}`);
      expect((await before.get(`${ASSETS}/${created.id}`)).json.data).toEqual(created.body.data);
      expectOneError(
        await newOwner.post(`${ASSETS}/${elsewhere.id}/ownership`, {
          data: { id: transfer.id, transfer: elsewhere.transfer },
        }),
        403,
        'body',
        'transfer',
        'Transfer already used',
      );
      // The old owner still owns it, and may even change it in between: the repeat still finishes the job.
      const edited = await before.patch(
        `${ASSETS}/${created.id}`,
        { data: { title: 'змінено до повтору' } },
        { token: created.token },
      );
      expect(edited.status, edited.text).toBe(200);

      const repeated = await newOwner.post(`${ASSETS}/${created.id}/ownership`, call);
      expect(repeated.status, repeated.text).toBe(200);
      expect(repeated.json.data).toMatchObject({ owner: 'broker2', title: 'змінено до повтору' });
      expect(repeated.json.data.dateModified > edited.json.data.dateModified).toBe(true);
      expect(
        (await before.patch(`${ASSETS}/${created.id}`, { data: { title: 'old' } }, { token: created.token })).status,
      ).toBe(403);
      const byNewOwner = await newOwner.patch(
        `${ASSETS}/${created.id}`,
        { data: { title: 'new' } },
        { token: transfer.token },
      );
      expect(byNewOwner.status, byNewOwner.text).toBe(200);

      // Once complete, the same call again carries a token that no longer matches, and changes nothing.
      expectOneError(
        await newOwner.post(`${ASSETS}/${created.id}/ownership`, call),
        403,
        'body',
        'transfer',
        'Invalid transfer',
      );
      expect((await newOwner.get(`${ASSETS}/${created.id}`)).json.data).toEqual(byNewOwner.json.data);
      expect((await newOwner.get(`/api/0.1/transfers/${transfer.id}`)).json.data.usedFor).toBe(`/assets/${created.id}`);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
