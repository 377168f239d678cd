/** The services one registry process runs, built once over its store and settings and handed to the routes. */
import type { AssetStore } from '../store/types.js';
import { AssetService, type AssetSettings } from './assets.js';
import { ChangeStreams, type ChangeStreamLog, type ChangeStreamSettings } from './changes.js';
import { HealthService } from './health.js';
import { TransferService } from './transfers.js';

export interface Services {
  assets: AssetService;
  changes: ChangeStreams;
  health: HealthService;
  transfers: TransferService;
}

export interface ServiceSettings extends AssetSettings {
  streams: Omit<ChangeStreamSettings, 'timeZone'>;
}

export function createServices(store: AssetStore, settings: ServiceSettings, log: ChangeStreamLog): Services {
  return {
    assets: new AssetService(store, settings),
    changes: new ChangeStreams(store, { timeZone: settings.timeZone, ...settings.streams }, log),
    health: new HealthService(store),
    transfers: new TransferService(store, settings),
  };
}
