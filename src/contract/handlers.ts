import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from './generated/openapi.js';

export type OperationId = keyof operations;

type ParametersOf<K extends OperationId> = operations[K]['parameters'];

export interface RouteOf<K extends OperationId> {
  Params: NonNullable<ParametersOf<K>['path']>;
  Querystring: NonNullable<ParametersOf<K>['query']>;
  Headers: NonNullable<ParametersOf<K>['header']>;
  /** Read by the services: the body is judged after 404 and 403. */
  Body: unknown;
}

type OperationRequest<K extends OperationId> = FastifyRequest<RouteOf<K>>;

type OperationHandler<K extends OperationId> = (request: OperationRequest<K>, reply: FastifyReply) => Promise<unknown>;

export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };

/** The contract's JSON body of a response: `Reply<'getAsset', 200>`. */
export type Reply<
  K extends OperationId,
  Status extends keyof operations[K]['responses'],
> = operations[K]['responses'][Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;
