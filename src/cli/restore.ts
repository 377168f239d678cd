/**
 * `claimrights-registry restore <file>`: a backup into an empty or missing DATA_DIR; a registry started on it goes on
 * from where the backup was taken. docs/decisions/0049-backup-while-serving.md.
 */
import { SettingError } from '../config/load.js';
import { keyFiles } from '../services/backup/keys.js';
import { DamagedArchive, RestoreCannotRun, restoreBackup } from '../services/backup/restore.js';
import { UsageError } from './args.js';
import { backupContents, fileAndConfig } from './backup-file.js';

const USAGE = 'usage: claimrights-registry restore <file> [--setting value ...]';

const HELP = `${USAGE}

Restores a backup taken by \`claimrights-registry backup\` into DATA_DIR, which must be empty or missing; the keys
go where AUTH_FILE, DS_KEY_FILE and LOG_KEY_FILE name (by default into DATA_DIR). The file is checked whole
before anything is put in place.

  <file>             the backup file
  --data-dir DIR     the store to restore into (DATA_DIR); every other registry setting as for serve (serve --help)

Exit 0: restored; 1: the file is damaged, truncated or unreadable (DATA_DIR left as it was); 2: called wrongly,
DATA_DIR not empty, MONGODB_URI set, or another key already where a key goes (nothing changed).
`;

export async function restoreCommand(argv: readonly string[]): Promise<number> {
  try {
    const given = fileAndConfig(argv, USAGE, HELP);
    if (given === undefined) return 0;
    const { file, config } = given;
    if (config.store.mongodbUri)
      throw new RestoreCannotRun(
        'MONGODB_URI is set: a backup restores the embedded store only (MongoDB: mongorestore)',
      );
    const summary = await restoreBackup({ dataDir: config.store.dataDir, keyFiles: keyFiles(config), file });
    process.stdout.write(
      `Restored ${file} into ${config.store.dataDir}: ${backupContents(summary)} in ${(summary.ms / 1000).toFixed(1)} s\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof SettingError || error instanceof RestoreCannotRun) {
      process.stderr.write(`restore: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DamagedArchive) {
      process.stderr.write(`restore: ${error.message}; nothing was restored\n`);
      return 1;
    }
    process.stderr.write(`restore failed: ${String((error as Error).stack)}\n`);
    return 1;
  }
}
