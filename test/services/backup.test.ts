/**
 * The backup file refuses to restore when cut short or damaged, and leaves DATA_DIR as it was
 * (docs/decisions/0048-backup-file-format.md): truncation points and damaged bytes all over a real backup of a store
 * with assets, documents and keys. A damaged byte either is refused or changes nothing the file unpacks to.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DamagedArchive } from '../../src/services/backup/archive.js';
import { takeBackup } from '../../src/services/backup/backup.js';
import { restoreBackup } from '../../src/services/backup/restore.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { serverForThisTest, useScratch } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';

/** Whether `file` unpacks without error to exactly `content`. */
function unzipsTo(file: Buffer, content: Buffer): boolean {
  try {
    return gunzipSync(file).equals(content);
  } catch {
    return false;
  }
}

const keysIn = (dir: string) => ({
  'auth.ini': join(dir, 'auth.ini'),
  'ds-key.pem': join(dir, 'ds-key.pem'),
  'log.key': join(dir, 'log.key'),
});

describe.runIf(process.env.MONGODB_URI === undefined)('the backup file (record 0048)', () => {
  const scratch = useScratch();

  it('restores whole; refuses a truncated or damaged file, leaving DATA_DIR as it was', async () => {
    const server = await serverForThisTest();
    for (let i = 0; i < 3; i++) {
      const created = await createAsset(server.broker);
      await toPending(server.broker, created.id, created.token);
      const document = await uploadFile(server.broker);
      const added = await server.broker.post(
        `/api/0.1/assets/${created.id}/documents`,
        { data: document },
        { token: created.token },
      );
      expect(added.status, added.text).toBe(201);
    }
    const dir = await scratch.dir();
    const file = join(dir, 'b.tgz');
    const summary = await takeBackup({ dataDir: server.dataDir, keyFiles: keysIn(server.dataDir), file });
    expect(summary).toMatchObject({ assets: 3, documents: 3, files: 3 });
    const whole = await readFile(file);

    const restoredDir = join(dir, 'whole');
    const restored = await restoreBackup({ dataDir: restoredDir, keyFiles: keysIn(restoredDir), file });
    expect(restored).toMatchObject({ assets: 3, revisions: summary.revisions, documents: 3, files: 3 });
    expect(readdirSync(restoredDir).sort()).toEqual(['auth.ini', 'ds-key.pem', 'files', 'log.key', 'registry.sqlite']);
    for (const key of ['auth.ini', 'ds-key.pem', 'log.key'])
      expect(await readFile(join(restoredDir, key))).toEqual(await readFile(join(server.dataDir, key)));

    // Cut at 97 points spread over the file, and one byte changed at as many (past gzip's unchecked header fields).
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const content = gunzipSync(whole);
    let unchanged = 0;
    const points = Array.from({ length: 97 }, (_, i) => Math.floor(((i + 1) * whole.length) / 98));
    for (const at of points) {
      await writeFile(join(dir, 'cut.tgz'), whole.subarray(0, at));
      await expect(
        restoreBackup({
          dataDir: join(dir, 'missing'),
          keyFiles: keysIn(join(dir, 'missing')),
          file: join(dir, 'cut.tgz'),
        }),
        `cut at ${at}`,
      ).rejects.toBeInstanceOf(DamagedArchive);
      expect(existsSync(join(dir, 'missing')), `cut at ${at}`).toBe(false);

      const damaged = Buffer.from(whole);
      const byte = Math.max(10, at);
      damaged[byte] = damaged[byte]! ^ 0x5a;
      await writeFile(join(dir, 'damaged.tgz'), damaged);
      const restoring = restoreBackup({ dataDir: empty, keyFiles: keysIn(empty), file: join(dir, 'damaged.tgz') });
      if (unzipsTo(damaged, content)) {
        // Some bits of a deflate stream change nothing it unpacks to (unused code lengths, say): the same backup.
        await expect(restoring, `byte ${byte}`).resolves.toMatchObject({ assets: 3, files: 3 });
        await rm(empty, { recursive: true });
        await mkdir(empty);
        unchanged++;
      } else {
        await expect(restoring, `byte ${byte}`).rejects.toBeInstanceOf(DamagedArchive);
        expect(readdirSync(empty), `byte ${byte}`).toEqual([]);
      }
    }
    expect(unchanged).toBeLessThan(points.length / 4);
  }, 120_000);

  it('a key outside DATA_DIR already there and different: refused, nothing changed; lost+found is no content', async () => {
    const server = await serverForThisTest();
    const dir = await scratch.dir();
    const file = join(dir, 'b.tgz');
    await takeBackup({ dataDir: server.dataDir, keyFiles: keysIn(server.dataDir), file });
    const keys = { ...keysIn(join(dir, 'data')), 'log.key': join(dir, 'elsewhere.key') };
    await writeFile(keys['log.key'], 'another key');
    await expect(restoreBackup({ dataDir: join(dir, 'data'), keyFiles: keys, file })).rejects.toThrow(
      /elsewhere\.key exists and holds another key/,
    );
    expect(existsSync(join(dir, 'data'))).toBe(false);
    // The same key there already: restored, the key left as it is.
    await writeFile(keys['log.key'], await readFile(join(server.dataDir, 'log.key')));
    await restoreBackup({ dataDir: join(dir, 'data'), keyFiles: keys, file });
    expect(existsSync(join(dir, 'data', 'log.key'))).toBe(false);
    expect(existsSync(join(dir, 'data', 'registry.sqlite'))).toBe(true);
    // A fresh file system's mount point, holding only lost+found, is an empty DATA_DIR.
    await mkdir(join(dir, 'mounted', 'lost+found'), { recursive: true });
    await restoreBackup({ dataDir: join(dir, 'mounted'), keyFiles: keysIn(join(dir, 'mounted')), file });
    expect(readdirSync(join(dir, 'mounted')).sort()).toEqual([
      'auth.ini',
      'ds-key.pem',
      'log.key',
      'lost+found',
      'registry.sqlite',
    ]);
  });
});
