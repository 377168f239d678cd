/**
 * Files in `<dataDir>/files/<first two characters of the key>/`: the description `<key>.json` and the bytes `<key>`,
 * each written under a temporary name, synced and renamed, the bytes last. Readers look for the bytes first, so they
 * find a whole file or nothing.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isFileKey, Meter, type FileInfo, type FileStore } from '../files.js';

/** A temporary file of a process still running may be an upload under way in another process sharing the folder. */
const STALE_PART_MS = 60 * 60 * 1000;
const PART = /^\..+\.part$/;
/** `.<key>.<pid>-<random>.part`: the process writing it (docs/decisions/0062-smaller-rules-of-round-two.md). */
const WRITER = /^\.[0-9a-f]{32}\.(\d+)-[0-9a-f]+\./;

export function openFolderFileStore(dir: string): FileStore {
  mkdirSync(dir, { recursive: true });
  sweepStaleParts(dir);
  const shardOf = (key: string) => join(dir, key.slice(0, 2));

  return {
    async put(file, source) {
      if (!isFileKey(file.key)) throw new Error(`not a file key: ${file.key}`);
      const shard = shardOf(file.key);
      await mkdir(shard, { recursive: true });
      const suffix = `${process.pid}-${randomBytes(6).toString('hex')}`;
      const partBytes = join(shard, `.${file.key}.${suffix}.part`);
      const partInfo = join(shard, `.${file.key}.${suffix}.json.part`);
      const meter = new Meter(file.maxBytes);
      try {
        await writeDurably(partBytes, meter.through(source));
        const info: FileInfo = {
          key: file.key,
          size: meter.size,
          md5: meter.md5(),
          contentType: file.contentType,
          filename: file.filename,
        };
        await writeDurably(partInfo, [Buffer.from(JSON.stringify(info))]);
        await rename(partInfo, join(shard, `${file.key}.json`));
        await syncDirectory(shard);
        await rename(partBytes, join(shard, file.key));
        await syncDirectory(shard);
        return info;
      } catch (error) {
        await Promise.all([partBytes, partInfo].map((path) => unlink(path).catch(() => undefined)));
        throw error;
      }
    },

    async stat(key) {
      if (!isFileKey(key)) return undefined;
      const shard = shardOf(key);
      try {
        await stat(join(shard, key));
        return JSON.parse(await readFile(join(shard, `${key}.json`), 'utf8')) as FileInfo;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    read(key) {
      if (!isFileKey(key)) throw new Error(`not a file key: ${key}`);
      return createReadStream(join(shardOf(key), key));
    },
  };
}

async function writeDurably(path: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    for await (const chunk of chunks) await writeAll(handle, chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Whether process `pid` runs; this one's own pid is a previous life's (a container restarts under the same pid). */
function writerRuns(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** At start-up: the temporary files a crash left (their writer gone), and any older than an hour. */
function sweepStaleParts(dir: string): void {
  const cutoff = Date.now() - STALE_PART_MS;
  for (const shard of readdirSync(dir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    const shardDir = join(dir, shard.name);
    for (const name of readdirSync(shardDir)) {
      if (!PART.test(name)) continue;
      const path = join(shardDir, name);
      const writer = WRITER.exec(name);
      try {
        if ((writer !== null && !writerRuns(Number(writer[1]))) || statSync(path).mtimeMs < cutoff) {
          rmSync(path, { force: true });
        }
      } catch {
        // Gone already (another process swept it, or its upload finished).
      }
    }
  }
}
