/**
 * The document service's files in MongoDB, as GridFS bucket `files` (collections `files.files` and
 * `files.chunks`) of the registry's database. The driver streams a file in chunks and writes its `files.files`
 * entry after the last chunk; the registry then adds the MD5 to that entry, and only an entry with its MD5 is a
 * file (`stat`). An upload cut short leaves chunks, or an entry without MD5, that no reader ever sees; an
 * upload refused (too large, or failed) has its chunks removed.
 */
import { GridFSBucket, type Collection, type Db } from 'mongodb';
import { isFileKey, Meter, type FileInfo, type FileStore } from './files.js';

const BUCKET = 'files';

interface FilesEntry {
  _id: string;
  length: number;
  metadata?: { contentType?: string; filename?: string; md5?: string };
}

/**
 * The driver types GridFS ids as ObjectId, yet GridFS takes an `_id` of any BSON type: these files are stored under
 * their keys (strings). The overloads say so, for the two calls made with a key.
 */
declare module 'mongodb' {
  interface GridFSBucket {
    openUploadStreamWithId(id: string, filename: string, options?: GridFSBucketWriteStreamOptions): GridFSBucketWriteStream;
    openDownloadStream(id: string, options?: GridFSBucketReadStreamOptions): GridFSBucketReadStream;
  }
}

export function openGridFsFileStore(db: Db): FileStore {
  const bucket = new GridFSBucket(db, { bucketName: BUCKET });
  const entries: Collection<FilesEntry> = db.collection<FilesEntry>(`${BUCKET}.files`);
  const chunks = db.collection(`${BUCKET}.chunks`);

  /** Removes whatever an unfinished upload left; never throws over the upload's own failure. */
  async function discard(key: string): Promise<void> {
    try {
      await chunks.deleteMany({ files_id: key });
      await entries.deleteOne({ _id: key });
    } catch {
      // Left behind, but invisible: no entry with an MD5.
    }
  }

  return {
    async put(file, source) {
      if (!isFileKey(file.key)) throw new Error(`not a file key: ${file.key}`);
      const meter = new Meter(file.maxBytes);
      const upload = bucket.openUploadStreamWithId(file.key, file.filename, {
        metadata: { contentType: file.contentType, filename: file.filename },
      });
      try {
        // One chunk at a time, each write awaited: the driver calls back once a chunk it flushed is stored, so
        // when the source fails no insert is still in flight to land after the clean-up below.
        for await (const chunk of meter.through(source)) {
          await new Promise<void>((resolve, reject) => upload.write(chunk, (error) => (error ? reject(error) : resolve())));
        }
        await new Promise<void>((resolve, reject) => upload.end((error?: Error | null) => (error ? reject(error) : resolve())));
        const md5 = meter.md5();
        await entries.updateOne({ _id: file.key }, { $set: { 'metadata.md5': md5 } });
        return { key: file.key, size: meter.size, md5, contentType: file.contentType, filename: file.filename };
      } catch (error) {
        upload.destroy();
        await discard(file.key);
        throw error;
      }
    },

    async stat(key) {
      if (!isFileKey(key)) return undefined;
      const entry = await entries.findOne({ _id: key, 'metadata.md5': { $exists: true } });
      if (entry === null) return undefined;
      const info: FileInfo = {
        key,
        size: Number(entry.length),
        md5: String(entry.metadata?.md5),
        contentType: String(entry.metadata?.contentType),
        filename: String(entry.metadata?.filename),
      };
      return info;
    },

    read(key) {
      return bucket.openDownloadStream(key);
    },
  };
}
