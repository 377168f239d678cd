/** The one map from `operationId` to handler: a missing or extra handler fails the type check and the start-up. */
import type { Services } from '../services/index.js';
import { assetHandlers } from './assets.js';
import { documentHandlers } from './documents.js';
import { fileHandlers } from './files.js';
import { historyHandlers } from './history.js';
import { logHandlers } from './log.js';
import { changeHandlers } from './changes.js';
import { serviceHandlers } from './service.js';
import { transferHandlers } from './transfers.js';
import type { OperationHandlers } from '../contract/handlers.js';

export function operationHandlers(services: Services, collectYoung: () => void): OperationHandlers {
  return {
    ...assetHandlers(services.assets),
    ...documentHandlers(services.documents),
    ...fileHandlers(services.files, collectYoung),
    ...historyHandlers(services.history),
    ...logHandlers(services.log),
    ...changeHandlers(services.changes),
    ...serviceHandlers(services.health),
    ...transferHandlers(services.transfers),
  };
}
