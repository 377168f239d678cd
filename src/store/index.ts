/** Chooses the store from the settings: MongoDB when MONGODB_URI is set, the embedded SQLite store otherwise. */
import type { Config } from '../config.js';
import type { AssetStore } from './types.js';

export async function openStore(config: Pick<Config, 'mongodbUri' | 'dataDir' | 'timeZone'>): Promise<AssetStore> {
  if (config.mongodbUri) {
    // Loaded on demand: the embedded default should not pay for the MongoDB driver at start-up.
    const { openMongoStore } = await import('./mongo.js');
    return openMongoStore({ uri: config.mongodbUri, timeZone: config.timeZone });
  }
  const { openEmbeddedStore } = await import('./embedded.js');
  return openEmbeddedStore({ dataDir: config.dataDir, timeZone: config.timeZone });
}
