/**
 * `restore <file>` into an empty or missing DATA_DIR (docs/decisions/0049-backup-while-serving.md). Everything is
 * read into a hidden folder inside DATA_DIR and checked against the manifest before any of it is moved into place,
 * so a damaged or truncated file leaves DATA_DIR as it was. Keys go where the settings put them; one outside
 * DATA_DIR that exists already must be the same key.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isFileKey } from '../../store/files.js';
import { countsOf, DATABASE_FILE, prepareRestoredDatabase, type StoreCounts } from '../../store/sqlite/snapshot.js';
import { DamagedArchive, readArchive } from './archive.js';
import { syncFolder } from './backup.js';
import { KEY_NAMES, type KeyName } from './keys.js';

/** Not restored as asked (DATA_DIR not empty, a different key in the way): exit 2, nothing changed. */
export class RestoreCannotRun extends Error {}

export { DamagedArchive };

export interface RestoreOptions {
  dataDir: string;
  keyFiles: Record<KeyName, string>;
  file: string;
}

export interface RestoreSummary extends StoreCounts {
  files: number;
  ms: number;
}

const FILE_ENTRY = /^files\/([0-9a-f]{2})\/([0-9a-f]{32})(\.json)?$/;

/** Where a backup's entry goes in the staging folder; any other path is no backup's. */
function stagedPath(staging: string, path: string): string {
  if (path === DATABASE_FILE) return join(staging, path);
  const file = FILE_ENTRY.exec(path);
  if (file !== null && isFileKey(file[2]!) && file[2]!.startsWith(file[1]!)) return join(staging, path);
  const key = /^keys\/(.+)$/.exec(path)?.[1];
  if (key !== undefined && (KEY_NAMES as readonly string[]).includes(key)) return join(staging, path);
  throw new DamagedArchive(`unexpected entry ${path}: not a backup of this registry`);
}

async function isEmptyOrMissing(dataDir: string): Promise<boolean> {
  const info = await stat(dataDir).catch(() => undefined);
  if (info === undefined) return true;
  if (!info.isDirectory()) throw new RestoreCannotRun(`DATA_DIR ${dataDir} is not a folder; nothing was changed`);
  // A fresh file system's mount point holds lost+found: still an empty DATA_DIR.
  return (await readdir(dataDir)).filter((name) => name !== 'lost+found').length === 0;
}

const inside = (dir: string, file: string): boolean => {
  const path = relative(resolve(dir), resolve(file));
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
};

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = Date.now();
  const { dataDir } = options;
  if (!(await isEmptyOrMissing(dataDir)))
    throw new RestoreCannotRun(
      `DATA_DIR ${dataDir} is not empty: restore only into an empty or missing folder; nothing was changed`,
    );
  const createdDataDir = !existsSync(dataDir);
  // Inside DATA_DIR: the same file system for the renames, and a DATA_DIR that is a mount point (a volume) works.
  const staging = join(dataDir, `.restore-${randomBytes(4).toString('hex')}`);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  let restored = false;
  try {
    const manifest = await readArchive(options.file, async (path) => {
      const target = stagedPath(staging, path);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      return target;
    });
    if (!manifest.entries.some((entry) => entry.path === DATABASE_FILE))
      throw new DamagedArchive(`${options.file} holds no ${DATABASE_FILE}`);
    const keys = await placeKeys(staging, options);
    prepareRestoredDatabase(join(staging, DATABASE_FILE));
    const counts = countsOf(join(staging, DATABASE_FILE));
    // The database last: a node started meanwhile finds no store rather than one without its files.
    if (existsSync(join(staging, 'files'))) await rename(join(staging, 'files'), join(dataDir, 'files'));
    for (const [from, to] of keys) {
      await mkdir(dirname(to), { recursive: true });
      await copyFile(from, to);
    }
    await rename(join(staging, DATABASE_FILE), join(dataDir, DATABASE_FILE));
    await rm(staging, { recursive: true, force: true });
    await syncFolder(dataDir);
    restored = true;
    const files = manifest.entries.filter((entry) => FILE_ENTRY.test(entry.path)).length / 2;
    return { ...counts, files, ms: Date.now() - started };
  } finally {
    if (!restored) {
      await rm(staging, { recursive: true, force: true });
      if (createdDataDir) await rmdir(dataDir).catch(() => undefined);
    }
  }
}

/** The keys to copy, `[staged, target]`; a key outside DATA_DIR already there must be the backup's. */
async function placeKeys(staging: string, options: RestoreOptions): Promise<[string, string][]> {
  const moves: [string, string][] = [];
  for (const name of KEY_NAMES) {
    const staged = join(staging, 'keys', name);
    const target = options.keyFiles[name];
    if (!existsSync(staged)) continue;
    if (!inside(options.dataDir, target) && existsSync(target)) {
      if (!(await readFile(target)).equals(await readFile(staged)))
        throw new RestoreCannotRun(
          `${target} exists and holds another key than the backup's ${name}: move it away, or name another file; nothing was changed`,
        );
      continue;
    }
    moves.push([staged, target]);
  }
  return moves;
}
