/**
 * The document service's files, kept beside the records: a folder of the embedded store (here) or GridFS on
 * MongoDB (gridfs.ts). Both stream: a file never sits whole in memory. Both publish a file only once all of it is
 * durable, so a crash in the middle of an upload leaves nothing a reader can see.
 *
 * The folder keeps each file as two entries in `<dir>/<first two characters of the key>/`: `<key>.json` (what
 * `stat` answers) and `<key>` (the bytes). Both are written under temporary names, synced, and renamed into
 * place, the bytes last: a reader looks for the bytes first, so it either finds a whole file with its description
 * or nothing. Temporary files left by a crash are swept at start-up once they are an hour old (another process
 * sharing the folder may still be writing younger ones).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** A stored file, as `stat` describes it. */
export interface FileInfo {
  key: string;
  /** Bytes. */
  size: number;
  /** MD5 of the bytes, lowercase hex. */
  md5: string;
  /** The media type it was uploaded with. */
  contentType: string;
  /** The name it was uploaded with. */
  filename: string;
}

export interface NewFile {
  /** 32 lowercase hexadecimal characters, unique (the caller makes it). */
  key: string;
  contentType: string;
  filename: string;
  /** A source longer than this is refused with FileTooLargeError, and nothing of it is kept. */
  maxBytes: number;
}

export interface FileStore {
  /** Streams `source` into a new file; resolves once the whole file is durable and readable. */
  put(file: NewFile, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<FileInfo>;
  /** The complete file with this key, or undefined (unknown keys, malformed keys, unfinished uploads). */
  stat(key: string): Promise<FileInfo | undefined>;
  /** The bytes of a file `stat` found. */
  read(key: string): Readable;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

const KEY = /^[0-9a-f]{32}$/;

export function isFileKey(key: string): boolean {
  return KEY.test(key);
}

/** Counts and hashes the bytes passing through, and stops the stream once it exceeds `maxBytes`. */
export class Meter {
  size = 0;
  private readonly hash = createHash('md5');

  constructor(private readonly maxBytes: number) {}

  async *through(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      this.size += chunk.length;
      if (this.size > this.maxBytes) throw new FileTooLargeError(this.maxBytes);
      this.hash.update(chunk);
      yield chunk;
    }
  }

  md5(): string {
    return this.hash.digest('hex');
  }
}

/** How old a temporary file must be before start-up removes it as a crash's leftover. */
const STALE_PART_MS = 60 * 60 * 1000;
const PART = /^\..+\.part$/;

export function openFolderFileStore(dir: string): FileStore {
  mkdirSync(dir, { recursive: true });
  sweepStaleParts(dir);
  const shardOf = (key: string) => join(dir, key.slice(0, 2));

  return {
    async put(file, source) {
      if (!isFileKey(file.key)) throw new Error(`not a file key: ${file.key}`);
      const shard = shardOf(file.key);
      await mkdir(shard, { recursive: true });
      const suffix = randomBytes(6).toString('hex');
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

/** Writes every chunk to a new file at `path` and syncs it to the disk. */
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

/** Makes a rename in `dir` durable. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function sweepStaleParts(dir: string): void {
  const cutoff = Date.now() - STALE_PART_MS;
  for (const shard of readdirSync(dir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    const shardDir = join(dir, shard.name);
    for (const name of readdirSync(shardDir)) {
      if (!PART.test(name)) continue;
      const path = join(shardDir, name);
      try {
        if (statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
      } catch {
        // Gone already (another process swept it, or its upload finished).
      }
    }
  }
}
