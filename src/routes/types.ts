/** Handlers typed by the contract: each operation's path parameters, query and headers as the document declares. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../generated/openapi.js';

export type OperationId = keyof operations;

type ParametersOf<K extends OperationId> = operations[K]['parameters'];

/** Fastify's route generic of an operation: its parameters as the document declares them. */
export interface RouteOf<K extends OperationId> {
  Params: NonNullable<ParametersOf<K>['path']>;
  Querystring: NonNullable<ParametersOf<K>['query']>;
  Headers: NonNullable<ParametersOf<K>['header']>;
  /** Read by the services in the order of checks (the body is judged after 404 and 403). */
  Body: unknown;
}

export type OperationRequest<K extends OperationId> = FastifyRequest<RouteOf<K>>;

export type OperationHandler<K extends OperationId> = (request: OperationRequest<K>, reply: FastifyReply) => Promise<unknown>;

/** One handler per operation of the document, found by its `operationId`. */
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };

/** The contract's JSON body of a response: `Reply<'getAsset', 200>`. */
export type Reply<K extends OperationId, Status extends keyof operations[K]['responses']> = operations[K]['responses'][Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;
