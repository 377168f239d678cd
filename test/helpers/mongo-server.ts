/** What the server behind a MongoDB URI is, for the tests whose expectations depend on it. */
import { MongoClient } from 'mongodb';

export interface MongoServerInfo {
  /** `MongoDB 7.0.14`, `FerretDB v2.5.0`. */
  version: string;
  /**
   * FerretDB (on DocumentDB): no `$$NOW` in update pipelines, so the store takes stamps by compare-and-set, and no
   * change streams, so writes are watched by polling the clock (docs/feed-completeness.md).
   */
  ferretDb: boolean;
}

export async function mongoServerInfo(uri: string): Promise<MongoServerInfo> {
  const client = new MongoClient(uri);
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    const ferret = info.ferretdb as { version?: unknown } | undefined;
    if (ferret !== undefined) return { version: `FerretDB ${String(ferret.version)}`, ferretDb: true };
    return { version: `MongoDB ${String(info.version)}`, ferretDb: false };
  } finally {
    await client.close();
  }
}
