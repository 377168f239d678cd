/** The services one registry process runs, built once over its store and settings and handed to the routes. */
import type { AssetStore } from '../store/types.js';
import { AssetService, type AssetSettings } from './assets.js';
import { HealthService } from './health.js';

export interface Services {
  assets: AssetService;
  health: HealthService;
}

export function createServices(store: AssetStore, settings: AssetSettings): Services {
  return {
    assets: new AssetService(store, settings),
    health: new HealthService(store),
  };
}
