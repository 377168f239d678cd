/**
 * What every FileStore must do (the document service's files, src/store/files.ts): both stores run this suite,
 * the embedded store's folder and MongoDB's GridFS. `open` must return a store on fresh, empty storage.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError, type FileStore, type NewFile } from '../../src/store/files.js';

export interface OpenedFiles {
  files: FileStore;
  close(): Promise<void>;
}

const key = () => randomBytes(16).toString('hex');

function newFile(overrides: Partial<NewFile> = {}): NewFile {
  return {
    key: key(),
    contentType: 'application/pdf',
    filename: 'notice.pdf',
    maxBytes: 10 * 1024 * 1024,
    ...overrides,
  };
}

/** `count` chunks of `size` random bytes, and the whole for comparison. */
function chunksOf(count: number, size: number): { chunks: Buffer[]; whole: Buffer } {
  const chunks = Array.from({ length: count }, () => randomBytes(size));
  return { chunks, whole: Buffer.concat(chunks) };
}

async function* yieldAll(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk;
}

async function readAll(files: FileStore, fileKey: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of files.read(fileKey)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

export function describeFileStoreContract(name: string, open: () => Promise<OpenedFiles>): void {
  describe(`FileStore contract: ${name}`, () => {
    let opened: OpenedFiles;
    let files: FileStore;

    beforeEach(async () => {
      opened = await open();
      files = opened.files;
    });

    afterEach(async () => {
      await opened.close();
    });

    it('stores a file streamed in many chunks and gives back the same bytes, size, MD5, type and name', async () => {
      const { chunks, whole } = chunksOf(40, 64 * 1024 + 7);
      const file = newFile({ filename: 'Повідомлення про продаж.pdf' });
      const info = await files.put(file, yieldAll(chunks));
      expect(info).toEqual({
        key: file.key,
        size: whole.length,
        md5: md5(whole),
        contentType: 'application/pdf',
        filename: file.filename,
      });
      expect(await files.stat(file.key)).toEqual(info);
      expect((await readAll(files, file.key)).equals(whole)).toBe(true);
    });

    it('stores an empty file', async () => {
      const file = newFile();
      const info = await files.put(file, yieldAll([]));
      expect(info).toMatchObject({ size: 0, md5: md5(Buffer.alloc(0)) });
      expect((await readAll(files, file.key)).length).toBe(0);
    });

    it('takes a file of exactly maxBytes and refuses one byte more, keeping nothing of it', async () => {
      const exact = newFile({ maxBytes: 100_000 });
      await files.put(exact, yieldAll([randomBytes(60_000), randomBytes(40_000)]));
      expect((await files.stat(exact.key))?.size).toBe(100_000);
      const over = newFile({ maxBytes: 100_000 });
      await expect(files.put(over, yieldAll([randomBytes(60_000), randomBytes(40_001)]))).rejects.toBeInstanceOf(
        FileTooLargeError,
      );
      expect(await files.stat(over.key)).toBeUndefined();
    });

    it('keeps nothing of an upload whose source fails half-way', async () => {
      const file = newFile();
      async function* failing(): AsyncGenerator<Buffer> {
        yield randomBytes(300_000);
        throw new Error('client went away');
      }
      await expect(files.put(file, failing())).rejects.toThrow('client went away');
      expect(await files.stat(file.key)).toBeUndefined();
    });

    it('shows no file while its upload is still running', async () => {
      const file = newFile();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let halfWritten!: () => void;
      const half = new Promise<void>((resolve) => (halfWritten = resolve));
      async function* paused(): AsyncGenerator<Buffer> {
        yield randomBytes(600_000);
        halfWritten();
        await released;
        yield randomBytes(600_000);
      }
      const upload = files.put(file, paused());
      await half;
      // Give the store time to write the first half wherever it writes.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await files.stat(file.key)).toBeUndefined();
      release();
      const info = await upload;
      expect(await files.stat(file.key)).toEqual(info);
      expect(info.size).toBe(1_200_000);
    });

    it('answers undefined for unknown and malformed keys', async () => {
      expect(await files.stat(key())).toBeUndefined();
      for (const bad of ['../../etc/passwd', '', 'ABCDEF0123456789ABCDEF0123456789', `${key()}x`, '..']) {
        expect(await files.stat(bad), bad).toBeUndefined();
      }
    });

    it('stores concurrent uploads independently', async () => {
      const uploads = Array.from({ length: 8 }, () => ({ file: newFile(), ...chunksOf(5, 50_000) }));
      const infos = await Promise.all(uploads.map(({ file, chunks }) => files.put(file, yieldAll(chunks))));
      for (const [i, { file, whole }] of uploads.entries()) {
        expect(infos[i]!.md5).toBe(md5(whole));
        expect((await readAll(files, file.key)).equals(whole)).toBe(true);
      }
    });
  });
}
