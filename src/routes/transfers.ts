import type { TransferService } from '../services/transfers.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';

export function transferHandlers(
  transfers: TransferService,
): Pick<OperationHandlers, 'createTransfer' | 'getTransfer' | 'changeAssetOwnership'> {
  return {
    async createTransfer(request, reply) {
      const { transfer, access } = await transfers.create(request.principal, request.body);
      const body: Reply<'createTransfer', 201> = { access, data: transfer };
      const location = `${request.origin}${request.routeOptions.url ?? ''}/${transfer.id}`;
      return reply.code(201).header('location', location).send(body);
    },

    async getTransfer(request) {
      return { data: await transfers.read(request.principal, request.params.transfer_id) } satisfies Reply<
        'getTransfer',
        200
      >;
    },

    async changeAssetOwnership(request) {
      const asset = await transfers.changeOwnership(request.principal, request.params.asset_id, request.body);
      return { data: asset } satisfies Reply<'changeAssetOwnership', 200>;
    },
  };
}
