/** The asset operations: HTTP in, a service call, HTTP out. */
import type { FastifyRequest } from 'fastify';
import type { AssetService, Caller } from '../services/assets.js';
import { isJsonObject } from '../domain/json.js';
import type { OperationHandlers, OperationRequest, Reply } from './types.js';

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The path of the collection, as this request reached it (the document's prefix included). */
function collectionPath(request: FastifyRequest): string {
  return request.routeOptions.url?.replace(/\/:asset_id$/, '') ?? '';
}

/** The key's holder, and the owner token from the `acc_token` query, the `X-Access-Token` header or `access.token`. */
function callerOf(request: OperationRequest<'patchAsset'>): Caller {
  const body = request.body;
  const fromBody = isJsonObject(body) && isJsonObject(body.access) && typeof body.access.token === 'string' ? body.access.token : undefined;
  return { principal: request.principal, token: request.query.acc_token ?? request.headers['x-access-token'] ?? fromBody };
}

export function assetHandlers(assets: AssetService): Pick<OperationHandlers, 'listAssets' | 'createAsset' | 'getAsset' | 'patchAsset'> {
  return {
    async listAssets(request) {
      return assets.list(request.query, { path: collectionPath(request), origin: origin(request) }) satisfies Promise<Reply<'listAssets', 200>>;
    },

    async createAsset(request, reply) {
      const { token, asset } = await assets.create(request.principal, request.body);
      const body: Reply<'createAsset', 201> = { access: { token }, data: asset };
      return reply.code(201).header('location', `${origin(request)}${collectionPath(request)}/${asset.id}`).send(body);
    },

    async getAsset(request) {
      return { data: await assets.read(request.params.asset_id) } satisfies Reply<'getAsset', 200>;
    },

    async patchAsset(request) {
      return { data: await assets.patch(request.params.asset_id, callerOf(request), request.body) } satisfies Reply<'patchAsset', 200>;
    },
  };
}
