/**
 * A verifier nobody here wrote (test/log/verifier/, on the Go checksum database's note and tlog packages) accepts
 * the log a registry publishes as brokers create, edit, add documents and transfer assets: the checkpoint's
 * signature, the root from the tiles, every entry's inclusion, each revision at its logIndex, and the consistency of
 * a later checkpoint with an earlier one (the empty tree's too); it refuses a wrong key. Skipped, saying so, only where Go is missing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkpointText, parseVerifierKey, signNote } from '../../src/domain/log/note.js';
import { ensureSigningKey } from '../../src/services/signing.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { LOG, otherKey, vkeyOf, waitForLogIndexes, waitForLogSize } from '../helpers/log.js';
import { useScratch, useServer } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';
import { buildVerifier, findGo, type Verifier } from './verifier.js';

const go = findGo();

if (go === undefined) {
  it.skip('the Go log verifier: skipped because Go is not installed here (no `go` on PATH or in /usr/local/go/bin)', () => {});
} else {
  const server = useServer({}, { via: 'http' });
  const { broker, broker2, anonymous } = server;
  const scratch = useScratch();
  let verify: Verifier;

  beforeAll(async () => {
    verify = await buildVerifier(go, scratch);
  }, 300_000);

  /** Writes of every kind that adds a revision; answers the assets written. */
  async function writeSome(round: number): Promise<string[]> {
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      const { id, token, transfer } = await createAsset(broker);
      ids.push(id);
      await toPending(broker, id, token);
      const patched = await broker.patch(
        `/api/0.1/assets/${id}`,
        { data: { title: `round ${round}, asset ${n}` } },
        { token },
      );
      expect(patched.status, patched.text).toBe(200);
      const added = await broker.post(`/api/0.1/assets/${id}/documents`, { data: await uploadFile(broker) }, { token });
      expect(added.status, added.text).toBe(201);
      if (n === 0) {
        const created = await broker2.post('/api/0.1/transfers', { data: {} });
        expect(created.status, created.text).toBe(201);
        const moved = await broker2.post(`/api/0.1/assets/${id}/ownership`, {
          data: { id: created.json.data.id, transfer },
        });
        // The asset now answers to the new owner's token: it is left as it stands.
        expect(moved.status, moved.text).toBe(200);
      }
    }
    await waitForLogIndexes(anonymous, ids);
    return ids;
  }

  describe('the Go verifier (golang.org/x/mod/sumdb)', () => {
    it('accepts the log, each revision at its logIndex, and a later checkpoint consistent with an earlier one', async () => {
      const vkey = await vkeyOf(anonymous);
      const log = `${server.url}${LOG}`;
      const first = await writeSome(1);
      const earlier = join(await scratch.dir('checkpoints-'), 'earlier');
      const firstRun = await verify(['-log', log, '-vkey', vkey, '-save', earlier, '-assets', first.join(',')]);
      expect(firstRun.stderr).toBe('');
      expect(firstRun.code).toBe(0);
      expect(firstRun.summary!.revisions).toBeGreaterThanOrEqual(first.length * 4);
      const second = await writeSome(2);
      const later = await verify([
        '-log',
        log,
        '-vkey',
        vkey,
        '-previous',
        earlier,
        '-assets',
        [...first, ...second].join(','),
      ]);
      expect(later.stderr).toBe('');
      expect(later.summary!.size).toBeGreaterThan(firstRun.summary!.size);
    }, 120_000);

    it('refuses the checkpoint with another key, and an earlier checkpoint the log is not consistent with', async () => {
      const vkey = await vkeyOf(anonymous);
      const log = `${server.url}${LOG}`;
      const other = otherKey(parseVerifierKey(vkey)!.name);
      const wrong = await verify(['-log', log, '-vkey', other]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('the checkpoint does not verify');
      // A checkpoint signed with this log's own key, of a tree that is not this one: a fork.
      const { size, origin } = await waitForLogSize(anonymous, vkey, 2);
      const key = ensureSigningKey(join(server.dataDir, 'log.key')).key.privateKey;
      const forged = join(await scratch.dir('checkpoints-'), 'forged');
      await writeFile(forged, signNote(checkpointText({ origin, size: size - 1, root: randomBytes(32) }), origin, key));
      const forked = await verify(['-log', log, '-vkey', vkey, '-previous', forged]);
      expect(forked.code).toBe(1);
      expect(forked.stderr).toContain(`not consistent with the checkpoint at ${size - 1}`);
    });

    it('takes an earlier checkpoint of the empty tree as consistent, unless its root is not the empty tree', async () => {
      const vkey = await vkeyOf(anonymous);
      const log = `${server.url}${LOG}`;
      await createAsset(broker);
      const { origin } = await waitForLogSize(anonymous, vkey, 1);
      const key = ensureSigningKey(join(server.dataDir, 'log.key')).key.privateKey;
      const dir = await scratch.dir('checkpoints-');
      // The empty tree's root is the hash of no data (RFC 6962 §2.1): it has no consistency proof to check.
      const roots = { empty: createHash('sha256').digest(), other: randomBytes(32) };
      for (const [name, root] of Object.entries(roots)) {
        await writeFile(join(dir, name), signNote(checkpointText({ origin, size: 0, root }), origin, key));
      }
      const fromEmpty = await verify(['-log', log, '-vkey', vkey, '-previous', join(dir, 'empty')]);
      expect(fromEmpty.stderr).toBe('');
      expect(fromEmpty.code).toBe(0);
      const fromOther = await verify(['-log', log, '-vkey', vkey, '-previous', join(dir, 'other')]);
      expect(fromOther.code).toBe(1);
      expect(fromOther.stderr).toContain("not consistent with the checkpoint at 0: its root is not the empty tree's");
    });
  });
}
