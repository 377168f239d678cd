/**
 * Stores of a registry copied as they stand, for histories that part ways (a fork) or go back (a rollback): the
 * DATA_DIR copied whole (the SQLite file, the keys, the files), and on MongoDB the database copied collection by
 * collection into a fresh one of the scratch. The registry must be stopped while its store is copied.
 */
import { cp } from 'node:fs/promises';
import type { Scratch } from '../helpers/server.js';
import type { SharedStore } from '../reliability/fixtures/child-server.js';

async function copyMongoDatabase(from: string, to: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const source = new MongoClient(from);
  const target = new MongoClient(to);
  try {
    const [fromDb, toDb] = [source.db(), target.db()];
    for (const { name } of await fromDb.listCollections({}, { nameOnly: true }).toArray()) {
      if (name.startsWith('system.')) continue;
      const docs = await fromDb.collection(name).find({}).toArray();
      if (docs.length > 0) await toDb.collection(name).insertMany(docs, { ordered: true });
    }
  } finally {
    await source.close();
    await target.close();
  }
}

export async function copyStore(store: SharedStore, scratch: Scratch): Promise<SharedStore> {
  const dataDir = await scratch.dir('registry-copy-');
  await cp(store.dataDir, dataDir, { recursive: true });
  const copy: SharedStore = { dataDir, authFile: store.authFile };
  if (store.mongodbUri !== undefined) {
    copy.mongodbUri = scratch.mongoUri()!;
    await copyMongoDatabase(store.mongodbUri, copy.mongodbUri);
  }
  return copy;
}
