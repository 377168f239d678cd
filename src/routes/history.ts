/** The history operations: HTTP in, a service call, HTTP out. */
import type { FastifyRequest } from 'fastify';
import type { HistoryService } from '../services/history.js';
import type { OperationHandlers, Reply } from './types.js';

/** The path of the asset's history, as this request reached it (the document's prefix included). */
function historyPath(request: FastifyRequest<{ Params: { asset_id: string } }>): string {
  return (request.routeOptions.url ?? '').replace(':asset_id', encodeURIComponent(request.params.asset_id));
}

export function historyHandlers(history: HistoryService): Pick<OperationHandlers, 'listAssetRevisions' | 'getAssetRevision'> {
  return {
    async listAssetRevisions(request) {
      const links = { path: historyPath(request), origin: request.origin };
      return (await history.list(request.params.asset_id, request.query, links)) satisfies Reply<'listAssetRevisions', 200>;
    },

    async getAssetRevision(request) {
      return { data: await history.at(request.params.asset_id, request.params.rev) } satisfies Reply<'getAssetRevision', 200>;
    },
  };
}
