/**
 * `claimrights-registry backup` taken while a real registry serves writes from several clients, then `restore` into
 * a new DATA_DIR and a registry started on it (docs/decisions/0049-backup-while-serving.md, decisions.md §18):
 * every write answered before the backup began comes back; nothing comes back half (each revision with its asset
 * and its log entry); the restored registry goes on with its counters, its feed and its log; no write waited more
 * than a second while the backup ran.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { treeHash } from '../../src/domain/log/merkle.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { readHistory, expectWellFormed } from '../helpers/history.js';
import { checkpointOf, rootOfServedTree, servedHashes, vkeyOf, waitForLogSize } from '../helpers/log.js';
import { serverForThisTest, useScratch } from '../helpers/server.js';
import { randomWrites } from '../log/workload.js';
import { runCommand } from './fixtures/command.js';
import { trackedWrites } from './fixtures/tracked-writes.js';

const count = (text: string, what: string): number => {
  const match = new RegExp(`([\\d,]+) ${what}`).exec(text);
  if (match === null) throw new Error(`no "${what}" in: ${text}`);
  return Number(match[1]!.replaceAll(',', ''));
};

describe.runIf(process.env.MONGODB_URI === undefined)('backup and restore under write load (record 0049)', () => {
  const scratch = useScratch();

  it('a backup taken while clients write restores every acknowledged write, none half, and goes on', async () => {
    const server = await serverForThisTest({}, { via: 'http' });
    const workload = randomWrites(server.url, 4711, 3);
    const tracked = trackedWrites(server.url);
    await sleep(3000);

    const vkey = await vkeyOf(server.anonymous);
    const before = await checkpointOf(server.anonymous, vkey);
    const assetsBefore = [...workload.assets];
    const writesBefore = tracked.acknowledged.slice();
    const file = join(await scratch.dir(), 'registry.backup.tgz');
    const backup = await runCommand(['backup', file], { DATA_DIR: server.dataDir });
    const ended = Date.now();
    await sleep(300);
    await Promise.all([workload.stop(), tracked.stop()]);

    expect(backup.code, backup.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(backup.stdout).toMatch(/assets, .* revisions, .* documents .* bytes in/);
    expect(count(backup.stdout, 'bytes')).toBe(statSync(file).size);
    expect(assetsBefore.length).toBeGreaterThan(0);
    expect(writesBefore.length).toBeGreaterThan(0);

    // No write refused, none waiting more than a second, while the backup copied (the time it reports, from its
    // start to its end; the process's start under tsx is the test's cost, not the command's).
    const copied = Number(/in ([\d.]+) s$/m.exec(backup.stdout)![1]) * 1000 + 100;
    const during = tracked.writes.filter(
      (write) => write.started + write.ms >= ended - copied && write.started <= ended,
    );
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((write) => write.status >= 300)).toEqual([]);
    expect(Math.max(...during.map((write) => write.ms))).toBeLessThan(1000);

    const restoredDir = join(await scratch.dir(), 'restored');
    const restore = await runCommand(['restore', file], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    expect(count(restore.stdout, 'assets')).toBe(count(backup.stdout, 'assets'));
    expect(count(restore.stdout, 'revisions')).toBe(count(backup.stdout, 'revisions'));

    // Nothing half: every asset with all its revisions, every revision with its log entry and no entry without one.
    const db = new Database(join(restoredDir, 'registry.sqlite'), { readonly: true });
    const one = (sql: string) => db.prepare(sql).pluck().get();
    expect(
      one(
        'SELECT count(*) FROM assets a WHERE a.revisions != (SELECT count(*) FROM revisions r WHERE r.asset_id = a.id)',
      ),
    ).toBe(0);
    expect(
      one('SELECT count(*) FROM revisions r WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE a.id = r.asset_id)'),
    ).toBe(0);
    expect(
      one(
        'SELECT count(*) FROM revisions r WHERE NOT EXISTS ' +
          '(SELECT 1 FROM log_leaves l WHERE l.idx = r.log_idx AND l.asset_id = r.asset_id AND l.rev = r.rev)',
      ),
    ).toBe(0);
    expect(one('SELECT count(*) FROM log_leaves')).toBe(one('SELECT count(*) FROM revisions'));
    const leaves = one('SELECT count(*) FROM log_leaves') as number;
    const lastRestored = one('SELECT date_modified FROM assets ORDER BY modified DESC LIMIT 1') as string;
    db.close();

    const restored = await serverForThisTest(
      { DATA_DIR: restoredDir, AUTH_FILE: join(restoredDir, 'auth.ini') },
      { via: 'http' },
    );
    const { anonymous, broker } = restored;

    // Every write answered before the backup began is there.
    for (const id of assetsBefore) expect((await anonymous.get(`/api/0.1/assets/${id}`)).status, id).toBe(200);
    const latest = new Map(writesBefore.map((write) => [write.id, write.dateModified]));
    for (const [id, dateModified] of latest) {
      const history = await readHistory(anonymous, id);
      expect(
        history.map((revision) => revision.date),
        id,
      ).toContain(dateModified);
    }
    // Each history folds into its asset as served, documents and their files included.
    for (const id of new Set([...assetsBefore, ...latest.keys()])) {
      const served = await anonymous.get(`/api/0.1/assets/${id}`);
      expectWellFormed(await readHistory(anonymous, id), served.json.data);
      for (const document of (served.json.data.documents ?? []) as { url: string }[]) {
        const download = await anonymous.get(new URL(document.url).pathname + new URL(document.url).search);
        expect(download.status, document.url).toBe(200);
      }
    }

    // The log: signed with the same key, every entry of the backup integrated, consistent with the checkpoint the
    // registry had published before the backup.
    expect(await vkeyOf(anonymous)).toBe(vkey);
    const after = await waitForLogSize(anonymous, vkey, leaves, 10_000);
    expect(after.size).toBe(leaves);
    expect(await rootOfServedTree(anonymous, after.size)).toEqual(after.root);
    expect(await treeHash(servedHashes(anonymous, after.size), before.size)).toEqual(before.root);

    // It goes on: the next assetID of the day after the highest restored one, a later dateModified, the feed.
    const created = await createAsset(broker);
    const pending = await toPending(broker, created.id, created.token);
    const day = (created.body.data.assetID as string).slice(-17, -7);
    const restoredIds = [...assetsBefore, ...latest.keys()];
    const sameDay = (await Promise.all(restoredIds.map((id) => anonymous.get(`/api/0.1/assets/${id}`))))
      .map((res) => res.json.data.assetID as string)
      .filter((assetID) => assetID.includes(day));
    const highest = Math.max(...sameDay.map((assetID) => Number(assetID.slice(-6))));
    expect(Number((created.body.data.assetID as string).slice(-6))).toBeGreaterThan(highest);
    // Same time zone, same offset: the text orders as the time.
    expect(pending.data.dateModified > lastRestored).toBe(true);
    const feed = await anonymous.get(`/api/0.1/assets?offset=${encodeURIComponent(lastRestored)}`);
    expect(feed.json.data.map((entry: { id: string }) => entry.id)).toEqual([created.id]);
    await waitForLogSize(anonymous, vkey, leaves + 2, 5000);
  }, 180_000);
});
