/**
 * `npm run bench:backup`: the time and size of `claimrights-registry backup` of an embedded store holding N assets
 * (docs/decisions/0049-backup-while-serving.md), and of its restore.
 *
 *   npm run bench:backup                         100,000 assets
 *   npm run bench:backup -- --assets 10000       a quick try
 *
 * The assets are seeded through the storage interface (`store.bulkInsert`, each with its first revision, as
 * bench/run.ts seeds), the store is closed, then the backup and the restore run in this process through the same
 * services the command calls. Prints the store's size, the backup's time and size, the restore's time; writes
 * nothing outside a temporary folder, which it removes.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nowMicros } from '../src/domain/dates.js';
import { takeBackup } from '../src/services/backup/backup.js';
import { restoreBackup } from '../src/services/backup/restore.js';
import { openStore } from '../src/store/index.js';
import { AUTH_INI, BENCH_TZ, Seeder } from './data.js';

const SEED_BATCH = 5000;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number from 1`);
  return value;
}

const keysIn = (dir: string) => ({
  'auth.ini': join(dir, 'auth.ini'),
  'ds-key.pem': join(dir, 'ds-key.pem'),
  'log.key': join(dir, 'log.key'),
});

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  if (process.env.MONGODB_URI) throw new Error('the backup is of the embedded store: unset MONGODB_URI');
  const assets = option('assets', 100_000);
  const root = mkdtempSync(join(tmpdir(), 'bench-backup-'));
  try {
    const dataDir = join(root, 'data');
    const store = await openStore({ dataDir, timeZone: BENCH_TZ });
    writeFileSync(join(dataDir, 'auth.ini'), AUTH_INI);
    const seeder = new Seeder(nowMicros() - 2 * 3600 * 1_000_000);
    const seeding = performance.now();
    for (let seeded = 0; seeded < assets; seeded += SEED_BATCH)
      await store.bulkInsert(seeder.records(seeded, Math.min(assets, seeded + SEED_BATCH)));
    await store.close();
    const database = statSync(join(dataDir, 'registry.sqlite')).size;
    console.log(
      `seeded ${assets.toLocaleString('en')} assets in ${((performance.now() - seeding) / 1000).toFixed(1)} s; store ${mib(database)}`,
    );

    const file = join(root, 'registry.backup.tgz');
    const backup = await takeBackup({ dataDir, keyFiles: keysIn(dataDir), file });
    console.log(
      `backup: ${(backup.ms / 1000).toFixed(1)} s, ${mib(backup.bytes)} (${backup.assets.toLocaleString('en')} assets, ` +
        `${backup.revisions.toLocaleString('en')} revisions, ${backup.logEntries.toLocaleString('en')} log entries)`,
    );
    const restoredDir = join(root, 'restored');
    const restored = await restoreBackup({ dataDir: restoredDir, keyFiles: keysIn(restoredDir), file });
    console.log(`restore: ${(restored.ms / 1000).toFixed(1)} s (${restored.assets.toLocaleString('en')} assets)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
