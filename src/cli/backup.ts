/**
 * `claimrights-registry backup <file>`: a consistent copy of the embedded store's DATA_DIR, taken while nodes serve
 * it, into one file (mode 0600). docs/decisions/0049-backup-while-serving.md.
 */
import { SettingError } from '../config/load.js';
import { BackupCannotRun, BackupFailed, takeBackup } from '../services/backup/backup.js';
import { keyFiles } from '../services/backup/keys.js';
import { UsageError } from './args.js';
import { backupContents, fileAndConfig, number } from './backup-file.js';

const USAGE = 'usage: claimrights-registry backup <file> [--setting value ...]';

const HELP = `${USAGE}

Copies the embedded store's DATA_DIR (its database, the document service's files) and the keys (AUTH_FILE,
DS_KEY_FILE, LOG_KEY_FILE) into <file>, consistently, while nodes go on serving: every write answered before
the backup began is in it, a later one wholly or not at all. The file is a gzip-compressed tar (mode 0600).
It needs room for a copy of the database beside <file> while it runs.

  <file>             the backup file (replaced only once the new one is whole)
  --data-dir DIR     the store (DATA_DIR); every other registry setting as for serve (serve --help)

With MONGODB_URI set there is no embedded store: back MongoDB up with mongodump (exit 2).
Exit 0: done; 1: the backup could not be written; 2: called wrongly or nothing to back up.
`;

export async function backupCommand(argv: readonly string[]): Promise<number> {
  try {
    const given = fileAndConfig(argv, USAGE, HELP);
    if (given === undefined) return 0;
    const { file, config } = given;
    if (config.store.mongodbUri)
      throw new BackupCannotRun(
        'MONGODB_URI is set: the registry keeps its data in MongoDB, which this command does not copy; use mongodump (and mongorestore), and copy the key files',
      );
    const summary = await takeBackup({ dataDir: config.store.dataDir, keyFiles: keyFiles(config), file });
    process.stdout.write(
      `Backed up ${config.store.dataDir} into ${file}: ${backupContents(summary)}; ` +
        `${number(summary.bytes)} bytes in ${(summary.ms / 1000).toFixed(1)} s\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof SettingError || error instanceof BackupCannotRun) {
      process.stderr.write(`backup: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`backup: ${error instanceof BackupFailed ? error.message : String((error as Error).stack)}\n`);
    return 1;
  }
}
