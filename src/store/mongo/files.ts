/**
 * Files in GridFS: only an entry with the MD5 the registry adds after the last chunk is a file. While a node
 * uploads, a marker names it; the node removes what its previous life left under its markers when it starts
 * (docs/decisions/0062-smaller-rules-of-round-two.md).
 */
import { GridFSBucket, type Collection, type Db } from 'mongodb';
import { isFileKey, Meter, type FileInfo, type FileStore } from '../files.js';

const BUCKET = 'files';

interface FilesEntry {
  _id: string;
  length: number;
  metadata?: { contentType?: string; filename?: string; md5?: string };
}

/** GridFS takes an `_id` of any BSON type, though the driver types it ObjectId: files are stored under their keys. */
declare module 'mongodb' {
  interface GridFSBucket {
    openUploadStreamWithId(
      id: string,
      filename: string,
      options?: GridFSBucketWriteStreamOptions,
    ): GridFSBucketWriteStream;
    openDownloadStream(id: string, options?: GridFSBucketReadStreamOptions): GridFSBucketReadStream;
  }
}

/** An upload under way, by the node (SERVER_ID) writing it. */
interface UploadMarker {
  _id: string;
  node: string;
  at: Date;
}

function collections(db: Db) {
  return {
    entries: db.collection<FilesEntry>(`${BUCKET}.files`) as Collection<FilesEntry>,
    chunks: db.collection(`${BUCKET}.chunks`),
    uploads: db.collection<UploadMarker>(`${BUCKET}.uploads`),
  };
}

/**
 * At a node's start: the uploads its previous life left unfinished (a crash) are removed. A node has no upload under
 * way before it starts, and SERVER_ID is unique in a cluster, so no other node's upload is touched.
 */
export async function sweepUnfinishedUploads(db: Db, node: string): Promise<void> {
  const { entries, chunks, uploads } = collections(db);
  for (const marker of await uploads.find({ node }).toArray()) {
    const finished = await entries.findOne({ _id: marker._id, 'metadata.md5': { $exists: true } });
    if (finished === null) {
      await chunks.deleteMany({ files_id: marker._id });
      await entries.deleteOne({ _id: marker._id });
    }
    await uploads.deleteOne({ _id: marker._id, node });
  }
}

/** `node`: the SERVER_ID marking this process's uploads; none for a store that uploads nothing (the import). */
export function openGridFsFileStore(db: Db, node = ''): FileStore {
  const bucket = new GridFSBucket(db, { bucketName: BUCKET });
  const { entries, chunks, uploads } = collections(db);

  /** Never throws over the upload's own failure. */
  async function discard(key: string): Promise<void> {
    try {
      await chunks.deleteMany({ files_id: key });
      await entries.deleteOne({ _id: key });
      await uploads.deleteOne({ _id: key });
    } catch {
      // Left behind, but invisible: no entry with an MD5; the marker's node removes it when it starts again.
    }
  }

  return {
    async put(file, source) {
      if (!isFileKey(file.key)) throw new Error(`not a file key: ${file.key}`);
      const meter = new Meter(file.maxBytes);
      await uploads.insertOne({ _id: file.key, node, at: new Date() });
      const upload = bucket.openUploadStreamWithId(file.key, file.filename, {
        metadata: { contentType: file.contentType, filename: file.filename },
      });
      try {
        // Each chunk's write awaited: when the source fails, no insert is still in flight to land after the clean-up.
        for await (const chunk of meter.through(source)) {
          await new Promise<void>((resolve, reject) =>
            upload.write(chunk, (error) => (error ? reject(error) : resolve())),
          );
        }
        await new Promise<void>((resolve, reject) =>
          upload.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        const md5 = meter.md5();
        await entries.updateOne({ _id: file.key }, { $set: { 'metadata.md5': md5 } });
        await uploads.deleteOne({ _id: file.key });
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
