import type { FastifyRequest } from 'fastify';
import type { AssetService } from '../services/assets.js';
import type { JsonText } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import { answerHead, callerOf, notModified, sendJsonText } from './http.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';

/** `{"data":` … `}` around an asset's stored bytes. */
const DATA_OPENING = Buffer.from('{"data":');
const DATA_CLOSING = Buffer.from('}');

/** The path of the collection, as this request reached it (the document's prefix included). */
function collectionPath(request: FastifyRequest): string {
  return request.routeOptions.url?.replace(/\/:asset_id$/, '') ?? '';
}

export function assetHandlers(
  assets: AssetService,
): Pick<OperationHandlers, 'listAssets' | 'createAsset' | 'getAsset' | 'patchAsset'> {
  return {
    async listAssets(request, reply) {
      if (request.method === 'HEAD') {
        assets.checkList(request.query);
        return answerHead(reply);
      }
      const page = await assets.list(request.query, { path: collectionPath(request), origin: request.origin });
      return sendJsonText<Reply<'listAssets', 200>>(reply, page);
    },

    async createAsset(request, reply) {
      const { token, transfer, asset } = await assets.create(request.principal, request.body);
      const body: JsonText<Reply<'createAsset', 201>> =
        `{"access":${toJson({ token, transfer })},"data":${asset.text}}`;
      reply.code(201).header('location', `${request.origin}${collectionPath(request)}/${asset.id}`);
      return sendJsonText(reply, body);
    },

    async getAsset(request, reply) {
      const { bytes, modified } = await assets.read(request.params.asset_id);
      if (notModified(request, reply, modified)) return reply;
      if (request.method === 'HEAD') return answerHead(reply);
      return sendJsonText<Reply<'getAsset', 200>>(reply, Buffer.concat([DATA_OPENING, bytes, DATA_CLOSING]));
    },

    async patchAsset(request, reply) {
      const asset = await assets.patch(request.params.asset_id, callerOf(request), request.body);
      return sendJsonText<Reply<'patchAsset', 200>>(reply, `{"data":${asset.text}}`);
    },
  };
}
