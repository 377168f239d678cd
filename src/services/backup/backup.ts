/**
 * `backup <file>`: the embedded store's DATA_DIR (the database, the document service's files, the keys) into one
 * file while nodes serve it (docs/decisions/0049-backup-while-serving.md). The database is copied first, in one
 * snapshot; the files after it: a stored file is complete before any asset can name it and is never changed, so
 * every file the copy names is there. Files uploaded since come along unnamed, as on the live store.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  countsOf,
  databaseIn,
  DATABASE_FILE,
  snapshotDatabase,
  type StoreCounts,
} from '../../store/sqlite/snapshot.js';
import { isFileKey } from '../../store/files.js';
import { ArchiveWriter } from './archive.js';
import { KEY_NAMES, type KeyName } from './keys.js';

/** The backup cannot be taken as asked (no embedded store): exit 2. */
export class BackupCannotRun extends Error {}
/** The backup could not be written (the file, the disk): exit 1; the store is untouched. */
export class BackupFailed extends Error {}

export interface BackupSummary extends StoreCounts {
  files: number;
  bytes: number;
  ms: number;
}

export interface BackupOptions {
  dataDir: string;
  keyFiles: Record<KeyName, string>;
  file: string;
}

/** `<dataDir>/files/<shard>/<key>` with its `<key>.json`: only pairs a reader would find whole (files.ts). */
async function storedFiles(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'files');
  if (!existsSync(root)) return [];
  const paths: string[] = [];
  for (const shard of (await readdir(root, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
    const names = new Set(await readdir(join(root, shard.name)));
    for (const name of [...names].sort()) {
      if (isFileKey(name) && names.has(`${name}.json`))
        paths.push(`files/${shard.name}/${name}.json`, `files/${shard.name}/${name}`);
    }
  }
  return paths;
}

async function openOutput(file: string): Promise<{ handle: FileHandle; part: string }> {
  const target = resolve(file);
  const part = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  try {
    if ((await stat(target).catch(() => undefined))?.isDirectory()) throw new Error('it is a folder');
    return { handle: await open(part, 'wx', 0o600), part };
  } catch (error) {
    throw new BackupFailed(`cannot write ${file}: ${(error as Error).message}`);
  }
}

export async function takeBackup(options: BackupOptions): Promise<BackupSummary> {
  const started = Date.now();
  const database = databaseIn(options.dataDir);
  if (database === undefined)
    throw new BackupCannotRun(`no embedded store in ${options.dataDir} (${DATABASE_FILE} is missing)`);
  const { handle, part } = await openOutput(options.file);
  const snapshot = `${part}.sqlite`;
  const archive = new ArchiveWriter(handle);
  let done = false;
  try {
    snapshotDatabase(database, snapshot);
    const counts = countsOf(snapshot);
    await archive.addFile(DATABASE_FILE, snapshot);
    await rm(snapshot, { force: true });
    const files = await storedFiles(options.dataDir);
    for (const path of files) await archive.addFile(path, join(options.dataDir, path));
    for (const name of KEY_NAMES) {
      const source = options.keyFiles[name];
      if (existsSync(source)) await archive.addFile(`keys/${name}`, source);
    }
    const summary = { ...counts, files: files.length / 2 };
    await archive.finish(summary);
    await handle.close();
    await rename(part, resolve(options.file));
    await syncFolder(dirname(resolve(options.file)));
    done = true;
    return { ...summary, bytes: (await stat(options.file)).size, ms: Date.now() - started };
  } catch (error) {
    if (error instanceof BackupCannotRun || error instanceof BackupFailed) throw error;
    throw new BackupFailed(`the backup failed, nothing was written to ${options.file}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    if (!done) {
      archive.abort();
      await handle.close().catch(() => undefined);
      await rm(part, { force: true });
      await rm(snapshot, { force: true });
    }
  }
}

export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
