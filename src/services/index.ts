/** The services one registry process runs, built once over its store and settings and handed to the routes. */
import type { AssetStore } from '../store/types.js';
import { AssetService, type AssetSettings } from './assets.js';
import { DocumentService } from './documents.js';
import { FileService, type FileServiceSettings } from './files.js';
import { ChangeStreams, type ChangeStreamLog, type ChangeStreamSettings } from './changes.js';
import { HealthService } from './health.js';
import { HistoryService } from './history.js';
import { TransferService } from './transfers.js';

export interface Services {
  assets: AssetService;
  documents: DocumentService;
  files: FileService;
  changes: ChangeStreams;
  health: HealthService;
  history: HistoryService;
  transfers: TransferService;
}

export interface ServiceSettings extends AssetSettings {
  streams: Omit<ChangeStreamSettings, 'timeZone'>;
  /** The built-in document service. */
  files: FileServiceSettings;
}

export function createServices(store: AssetStore, settings: ServiceSettings, log: ChangeStreamLog): Services {
  const files = new FileService(store.files, settings.files);
  return {
    assets: new AssetService(store, settings),
    changes: new ChangeStreams(store, { timeZone: settings.timeZone, ...settings.streams }, log),
    documents: new DocumentService(store, settings, files),
    files,
    health: new HealthService(store),
    history: new HistoryService(store),
    transfers: new TransferService(store, settings),
  };
}
