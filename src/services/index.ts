/** The services one registry process runs, built once over its store and settings and handed to the routes. */
import type { AssetStore, WriteState } from '../store/types.js';
import { AssetService, type AssetSettings } from './assets.js';
import { DocumentService } from './documents.js';
import { FileService, type FileServiceSettings } from './files.js';
import { ChangeStreams, type ChangeStreamLog, type ChangeStreamSettings } from './changes.js';
import { HealthService } from './health.js';
import { HistoryService } from './history.js';
import type { LogIdentity } from './log/identity.js';
import { LogService } from './log/service.js';
import { TransferService } from './transfers.js';

export interface Services {
  assets: AssetService;
  documents: DocumentService;
  files: FileService;
  changes: ChangeStreams;
  health: HealthService;
  history: HistoryService;
  log: LogService;
  transfers: TransferService;
}

export interface ServiceSettings extends AssetSettings {
  historyPageBytes: number;
  streams: Omit<ChangeStreamSettings, 'timeZone'>;
  files: FileServiceSettings;
  log: LogIdentity;
}

/** `writeState`: what the node's writes last met, from the store as opened (the cache and timing wrap it). */
export function createServices(
  store: AssetStore,
  settings: ServiceSettings,
  log: ChangeStreamLog,
  writeState?: () => WriteState,
): Services {
  const files = new FileService(store.files, settings.files);
  return {
    assets: new AssetService(store, settings),
    changes: new ChangeStreams(store, { timeZone: settings.timeZone, ...settings.streams }, log),
    documents: new DocumentService(store, settings, files),
    files,
    health: new HealthService(store, writeState),
    history: new HistoryService(store, settings.historyPageBytes),
    log: new LogService(store.log, settings.log),
    transfers: new TransferService(store, settings),
  };
}
