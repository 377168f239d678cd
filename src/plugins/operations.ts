/**
 * Serves the document's operations, as fastify-openapi-glue does: each operation of openapi/openapi.yaml becomes
 * a route (method, path under the document's `servers` prefix) with the Fastify schemas of its path parameters,
 * query and headers, and the handler of the same `operationId`. Every other method of a documented path is 405
 * with `Allow` listing the document's methods. Request bodies are not in the route schemas: they are judged by
 * the services after 404 and 403 (decisions.md §8), as are the parameters marked `x-checked-after-lookup`.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { OperationHandlers, OperationId, RouteOf } from '../routes/types.js';
import { allowedMethods, OPERATIONS, type Operation, type Parameter } from './contract.js';

/** Fastify's name of each parameter place, and the error location the envelope gives it. */
const PLACES = {
  path: { schema: 'params', location: 'url' },
  query: { schema: 'querystring', location: 'querystring' },
  header: { schema: 'headers', location: 'header' },
} as const;

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The document's `operationId` of the route. */
    operationId?: string;
    /** Marks the stand-in route that answers 405 for methods a path does not have. */
    methodNotAllowed?: boolean;
  }
}

function objectSchema(parameters: Parameter[], lowerCase: boolean): Record<string, unknown> {
  const name = (parameter: Parameter) => (lowerCase ? parameter.name.toLowerCase() : parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [name(parameter), parameter['x-checked-after-lookup'] === true ? {} : (parameter.schema ?? {})]),
    ),
    required: parameters.filter((parameter) => parameter.required === true).map(name),
  };
}

/** The route schema of an operation: one object schema per parameter place (cookies are the cookie plugin's). */
function routeSchema(operation: Operation): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const [place, { schema: key }] of Object.entries(PLACES)) {
    const parameters = operation.parameters.filter((parameter) => parameter.in === place);
    if (parameters.length > 0) schema[key] = objectSchema(parameters, place === 'header');
  }
  return schema;
}

interface SchemaIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** A parameter that failed its route schema, in the envelope: 400 at the parameter's place and name. */
export function parameterError(context: string | undefined, issues: readonly SchemaIssue[]): ApiError {
  const place = Object.values(PLACES).find((entry) => entry.schema === context) ?? PLACES.query;
  return new ApiError(
    400,
    issues.map((issue) => {
      const name = issue.keyword === 'required' ? String(issue.params.missingProperty) : issue.instancePath.split('/')[1] ?? '';
      const description = issue.keyword === 'required' ? 'This field is required.' : `Invalid ${name}: ${issue.message ?? 'not allowed'}`;
      return { location: place.location, name, description };
    }),
  );
}

function notAllowed(allow: string) {
  return async (request: FastifyRequest) => {
    throw new ApiError(
      405,
      [{ location: 'method', name: 'method', description: `${request.method} is not allowed here; this path accepts ${allow}` }],
      { allow },
    );
  };
}

/** Serves one operation with its handler, typed by the operation (its parameters are the route's generic). */
function addOperation<K extends OperationId>(app: FastifyInstance, operation: Operation, id: K, handlers: OperationHandlers): void {
  app.route<RouteOf<K>>({
    method: operation.method,
    url: operation.url,
    schema: routeSchema(operation),
    config: { operationId: operation.operationId, ...(operation.rateLimited ? {} : { rateLimit: false }) },
    handler: handlers[id],
  });
}

async function operations(app: FastifyInstance, options: { handlers: OperationHandlers }): Promise<void> {
  const { handlers } = options;
  const documented = new Set(OPERATIONS.map((operation) => operation.operationId));
  const missing = [...documented].filter((id) => !Object.hasOwn(handlers, id));
  const extra = Object.keys(handlers).filter((id) => !documented.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`Handlers and the document disagree: no handler for [${missing.join(', ')}], no operation for [${extra.join(', ')}]`);
  }

  const isOperationId = (id: string): id is OperationId => Object.hasOwn(handlers, id);
  for (const operation of OPERATIONS) {
    if (isOperationId(operation.operationId)) addOperation(app, operation, operation.operationId, handlers);
  }

  for (const path of new Set(OPERATIONS.map((operation) => operation.path))) {
    const allow = allowedMethods(path);
    const url = OPERATIONS.find((operation) => operation.path === path)?.url ?? path;
    app.route({
      method: ALL_METHODS.filter((method) => !allow.includes(method)),
      url,
      config: { methodNotAllowed: true },
      handler: notAllowed(allow.join(', ')),
    });
  }
}

export default fp(operations, { name: 'operations', dependencies: ['errors'] });
