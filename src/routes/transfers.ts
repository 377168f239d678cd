/** The transfer operations (decisions.md §10): HTTP in, a TransferService call, HTTP out. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../generated/openapi.js';
import type { TransferService } from '../services/transfers.js';

type Json<K extends keyof operations, S extends keyof operations[K]['responses']> = operations[K]['responses'][S] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

type TransferParams = operations['getTransfer']['parameters']['path'];
type AssetParams = operations['changeAssetOwnership']['parameters']['path'];

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function transferHandlers(transfers: TransferService) {
  return {
    async createTransfer(request: FastifyRequest, reply: FastifyReply) {
      const { transfer, access } = await transfers.create(request.principal, request.body);
      const body: Json<'createTransfer', 201> = { access, data: transfer };
      return reply.code(201).header('location', `${origin(request)}${request.routeOptions.url}/${transfer.id}`).send(body);
    },

    async getTransfer(request: FastifyRequest<{ Params: TransferParams }>) {
      return { data: await transfers.read(request.principal, request.params.transfer_id) } satisfies Json<'getTransfer', 200>;
    },

    async changeAssetOwnership(request: FastifyRequest<{ Params: AssetParams }>) {
      const asset = await transfers.changeOwnership(request.principal, request.params.asset_id, request.body);
      return { data: asset } satisfies Json<'changeAssetOwnership', 200>;
    },
  };
}
