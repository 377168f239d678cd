/** The document service's files: both stores stream, and publish a file only once all of it is durable. */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface FileInfo {
  key: string;
  size: number;
  /** Lowercase hex. */
  md5: string;
  contentType: string;
  filename: string;
}

export interface NewFile {
  /** 32 lowercase hex characters, unique. */
  key: string;
  contentType: string;
  filename: string;
  /** A longer source is refused with FileTooLargeError, and nothing of it is kept. */
  maxBytes: number;
}

export interface FileStore {
  /** Resolves once the whole file is durable and readable. */
  put(file: NewFile, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<FileInfo>;
  /** Undefined for unknown or malformed keys and unfinished uploads. */
  stat(key: string): Promise<FileInfo | undefined>;
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
