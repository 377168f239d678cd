/** The services one registry process runs, built once over its store and settings and handed to the routes. */
import type { AssetStore } from '../store/types.js';
import { AssetService, type AssetSettings } from './assets.js';
import { DocumentService } from './documents.js';
import { FileService, type FileServiceSettings } from './files.js';
import { HealthService } from './health.js';
import { TransferService } from './transfers.js';

export interface Services {
  assets: AssetService;
  documents: DocumentService;
  files: FileService;
  health: HealthService;
  transfers: TransferService;
}

export function createServices(store: AssetStore, settings: AssetSettings, fileSettings: FileServiceSettings): Services {
  const files = new FileService(store.files, fileSettings);
  return {
    assets: new AssetService(store, settings),
    documents: new DocumentService(store, settings, files),
    files,
    health: new HealthService(store),
    transfers: new TransferService(store, settings),
  };
}
