import type { DocumentService } from '../services/documents.js';
import { answerHead, callerOf } from './http.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';

type DocumentOperations = 'listDocuments' | 'createDocument' | 'getDocument' | 'replaceDocument' | 'patchDocument';

export function documentHandlers(documents: DocumentService): Pick<OperationHandlers, DocumentOperations> {
  return {
    async listDocuments(request, reply) {
      // `all` with any non-empty value, as the original read it.
      const all = (request.query.all ?? '') !== '';
      const data = await documents.list(request.params.asset_id, all);
      if (request.method === 'HEAD') return answerHead(reply);
      return { data } satisfies Reply<'listDocuments', 200>;
    },

    async createDocument(request, reply) {
      const document = await documents.create(request.params.asset_id, callerOf(request), request.body, request.origin);
      const body: Reply<'createDocument', 201> = { data: document };
      const collection = request.url.split('?')[0] ?? '';
      return reply.code(201).header('location', `${request.origin}${collection}/${document.id}`).send(body);
    },

    async getDocument(request, reply) {
      const data = await documents.read(request.params.asset_id, request.params.document_id);
      if (request.method === 'HEAD') return answerHead(reply);
      return { data } satisfies Reply<'getDocument', 200>;
    },

    async replaceDocument(request) {
      const { asset_id: assetId, document_id: documentId } = request.params;
      const document = await documents.replace(assetId, documentId, callerOf(request), request.body, request.origin);
      return { data: document } satisfies Reply<'replaceDocument', 200>;
    },

    async patchDocument(request) {
      const { asset_id: assetId, document_id: documentId } = request.params;
      return { data: await documents.patch(assetId, documentId, callerOf(request), request.body) } satisfies Reply<
        'patchDocument',
        200
      >;
    },
  };
}
