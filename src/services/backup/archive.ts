/**
 * The backup file (docs/decisions/0048-backup-file-format.md): a gzip-compressed POSIX tar, readable by `tar xzf`,
 * whose last entry `manifest.json` gives every other entry's size and SHA-256. The gzip CRC, the tar headers'
 * checksums and the manifest each catch a damaged or truncated file; a file without its manifest is truncated.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { constants as zlib, createGunzip, createGzip } from 'node:zlib';
import { Header, Parser, type ReadEntry } from 'tar';

const MANIFEST = 'manifest.json';
const FORMAT = 'claimrights-registry backup';
const VERSION = 1;
const BLOCK = 512;

export interface ArchiveEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  created: string;
  entries: ArchiveEntry[];
  /** What the backup holds, as the command printed it. */
  counts: Record<string, number>;
}

/** The file is not a whole backup of this format: exit 1, nothing restored. */
export class DamagedArchive extends Error {}

async function write(stream: Writable, chunk: Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Writes entries one after the other into `out`; `finish` adds the manifest and the end of the archive. */
export class ArchiveWriter {
  // Level 1: the store's JSON text still shrinks several times over, at a fraction of the default level's time.
  private readonly gzip = createGzip({ level: zlib.Z_BEST_SPEED });
  private readonly entries: ArchiveEntry[] = [];
  private readonly written: Promise<void>;

  /** `out` is open for writing; `finish` syncs it, the caller closes it. */
  constructor(out: FileHandle) {
    this.written = (async () => {
      for await (const chunk of this.gzip as AsyncIterable<Buffer>) await out.write(chunk);
    })();
    // Surfaces in finish, or in the write that meets it first.
    this.written.catch(() => undefined);
    this.out = out;
  }

  private readonly out: FileHandle;

  private async header(path: string, size: number): Promise<void> {
    const block = Buffer.alloc(BLOCK);
    const header = new Header({ path, size, mode: 0o600, type: 'File', uid: 0, gid: 0, mtime: new Date() });
    if (header.encode(block, 0)) throw new Error(`path too long for a plain tar header: ${path}`);
    await write(this.gzip, block);
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest !== 0) await write(this.gzip, Buffer.alloc(BLOCK - rest));
  }

  /** A file that does not change while read (the snapshot, a stored document, a key). */
  async addFile(path: string, source: string): Promise<void> {
    const { size } = await stat(source);
    await this.header(path, size);
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of createReadStream(source) as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > size) break;
      hash.update(chunk);
      await write(this.gzip, chunk);
    }
    if (read !== size) throw new Error(`${source} changed while it was copied (${size} bytes, then ${read})`);
    await this.pad(size);
    this.entries.push({ path, size, sha256: hash.digest('hex') });
  }

  async addBuffer(path: string, data: Buffer): Promise<void> {
    await this.header(path, data.length);
    await write(this.gzip, data);
    await this.pad(data.length);
    this.entries.push({ path, size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
  }

  /** Writes the manifest and the end of the archive; resolves once the file is written and synced. */
  async finish(counts: Record<string, number>): Promise<void> {
    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      created: new Date().toISOString(),
      entries: this.entries.slice(),
      counts,
    };
    const data = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
    await this.header(MANIFEST, data.length);
    await write(this.gzip, data);
    await this.pad(data.length);
    await write(this.gzip, Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.written;
    await this.out.sync();
  }

  abort(): void {
    this.gzip.destroy();
  }
}

/** A manifest as this version writes it, or undefined. */
function parseManifest(text: string): Manifest | undefined {
  try {
    const manifest = JSON.parse(text) as Partial<Manifest>;
    if (manifest.format !== FORMAT || manifest.version !== VERSION || !Array.isArray(manifest.entries))
      return undefined;
    return manifest as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * Reads every entry of `file` into the file `targetOf(path)` names (made with mode 0600; `targetOf` refuses a path
 * no backup holds), then checks them against the manifest. Any fault: DamagedArchive, with what was written left
 * for the caller to remove.
 */
export async function readArchive(file: string, targetOf: (path: string) => Promise<string>): Promise<Manifest> {
  const found = new Map<string, ArchiveEntry>();
  let manifestText: string | undefined;
  const writing: Promise<void>[] = [];
  const reading = new Set<ReadEntry>();
  const fail = (message: string) => new DamagedArchive(message);

  async function take(entry: ReadEntry): Promise<void> {
    const path = entry.path;
    if (entry.type !== 'File') throw fail(`unexpected ${entry.type} entry ${path}`);
    if (manifestText !== undefined) throw fail(`entry ${path} after the manifest`);
    if (found.has(path)) throw fail(`entry ${path} twice`);
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    const target = path === MANIFEST ? undefined : await targetOf(path);
    const out = target === undefined ? undefined : await open(target, 'wx', 0o600);
    try {
      // A stream stopped while this waited (a file cut short) never ends: not read on.
      const stopped = () => {
        if (entry.destroyed) throw fail(`${file} is not a whole backup`);
      };
      stopped();
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        size += chunk.length;
        hash.update(chunk);
        if (out === undefined) chunks.push(chunk);
        else await out.write(chunk);
        stopped();
      }
      if (out !== undefined) await out.sync();
    } finally {
      await out?.close();
    }
    if (target === undefined) manifestText = Buffer.concat(chunks).toString('utf8');
    else found.set(path, { path, size, sha256: hash.digest('hex') });
  }

  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry) => {
      reading.add(entry);
      const done = take(entry).finally(() => reading.delete(entry));
      // Read on so the parser does not wait for an entry whose target failed.
      done.catch(() => entry.resume());
      writing.push(done);
    },
  });
  // Every error the parser emits is listened to: in strict mode a damaged header may give several.
  const parsed = new Promise<void>((resolve, reject) => {
    parser.once('end', resolve);
    parser.on('error', reject);
  });
  parsed.catch(() => undefined);
  try {
    await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) if (!parser.write(chunk)) await once(parser, 'drain');
      parser.end();
    });
    await parsed;
    await Promise.all(writing);
  } catch (error) {
    // A file cut short ends no entry: stop the one being read, so its target is closed before it is removed.
    for (const entry of reading) entry.destroy();
    await Promise.allSettled(writing);
    if (error instanceof DamagedArchive) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw fail(`cannot read ${file}: ${(error as Error).message}`);
    throw fail(`${file} is not a whole backup: ${(error as Error).message}`);
  }
  if (manifestText === undefined) throw fail(`${file} is not a whole backup: it ends before its manifest`);
  const manifest = parseManifest(manifestText);
  if (manifest === undefined) throw fail(`${file} is not a backup of this registry (its manifest is not understood)`);
  for (const expected of manifest.entries) {
    const got = found.get(expected.path);
    if (got === undefined) throw fail(`${expected.path} is missing from ${file}`);
    if (got.size !== expected.size || got.sha256 !== expected.sha256)
      throw fail(`${expected.path} in ${file} is damaged (its size or SHA-256 differs from the manifest)`);
    found.delete(expected.path);
  }
  const extra = found.keys().next();
  if (!extra.done) throw fail(`${extra.value} in ${file} is not in its manifest`);
  return manifest;
}
