import type { FastifyRequest } from 'fastify';
import type { HistoryService } from '../services/history.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';
import { answerHead, sendJsonText } from './http.js';

/** The path of the asset's history, as this request reached it (the document's prefix included). */
function historyPath(request: FastifyRequest<{ Params: { asset_id: string } }>): string {
  return (request.routeOptions.url ?? '').replace(':asset_id', encodeURIComponent(request.params.asset_id));
}

export function historyHandlers(
  history: HistoryService,
): Pick<OperationHandlers, 'listAssetRevisions' | 'getAssetRevision'> {
  return {
    async listAssetRevisions(request, reply) {
      if (request.method === 'HEAD') {
        await history.checkPage(request.params.asset_id, request.query);
        return answerHead(reply);
      }
      const links = { path: historyPath(request), origin: request.origin };
      return sendJsonText<Reply<'listAssetRevisions', 200>>(
        reply,
        await history.list(request.params.asset_id, request.query, links),
      );
    },

    async getAssetRevision(request, reply) {
      if (request.method === 'HEAD') {
        await history.checkRevision(request.params.asset_id, request.params.rev);
        return answerHead(reply);
      }
      return { data: await history.at(request.params.asset_id, request.params.rev) } satisfies Reply<
        'getAssetRevision',
        200
      >;
    },
  };
}
