/**
 * The one map from the document's `operationId`s to their handlers. The operations plugin serves each operation
 * of openapi/openapi.yaml with the handler named here; a missing or extra handler fails the type check and the
 * start-up.
 */
import type { Services } from '../services/index.js';
import { assetHandlers } from './assets.js';
import { documentHandlers } from './documents.js';
import { fileHandlers } from './files.js';
import { historyHandlers } from './history.js';
import { changeHandlers } from './changes.js';
import { serviceHandlers } from './service.js';
import { transferHandlers } from './transfers.js';
import type { OperationHandlers } from './types.js';

export function operationHandlers(services: Services): OperationHandlers {
  return {
    ...assetHandlers(services.assets),
    ...documentHandlers(services.documents),
    ...fileHandlers(services.files),
    ...historyHandlers(services.history),
    ...changeHandlers(services.changes),
    ...serviceHandlers(services.health),
    ...transferHandlers(services.transfers),
  };
}
