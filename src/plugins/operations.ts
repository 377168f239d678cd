/**
 * A route per operation of the document, as fastify-openapi-glue does, and 405 for a path's other methods. Bodies
 * are not in the route schemas: the services judge them after 404 and 403 (docs/decisions/0014-order-of-checks.md).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { OperationHandlers, OperationId, RouteOf } from '../contract/handlers.js';
import { allowedMethods, OPERATIONS, type Operation, type Parameter } from '../contract/document.js';

const PLACES = {
  path: { schema: 'params', location: 'url' },
  query: { schema: 'querystring', location: 'querystring' },
  header: { schema: 'headers', location: 'header' },
} as const;

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
    /** The stand-in route that answers 405. */
    methodNotAllowed?: boolean;
  }
}

function objectSchema(parameters: Parameter[], lowerCase: boolean): Record<string, unknown> {
  const name = (parameter: Parameter) => (lowerCase ? parameter.name.toLowerCase() : parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        name(parameter),
        parameter['x-checked-after-lookup'] === true ? {} : (parameter.schema ?? {}),
      ]),
    ),
    required: parameters.filter((parameter) => parameter.required === true).map(name),
  };
}

/** Cookies are the cookie plugin's. */
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

export function parameterError(context: string | undefined, issues: readonly SchemaIssue[]): ApiError {
  const place = Object.values(PLACES).find((entry) => entry.schema === context) ?? PLACES.query;
  return new ApiError(
    400,
    issues.map((issue) => {
      const name =
        issue.keyword === 'required' ? String(issue.params.missingProperty) : (issue.instancePath.split('/')[1] ?? '');
      const description =
        issue.keyword === 'required' ? 'This field is required.' : `Invalid ${name}: ${issue.message ?? 'not allowed'}`;
      return { location: place.location, name, description };
    }),
  );
}

function notAllowed(allow: string) {
  return async (request: FastifyRequest) => {
    throw new ApiError(
      405,
      [
        {
          location: 'method',
          name: 'method',
          description: `${request.method} is not allowed here; this path accepts ${allow}`,
        },
      ],
      { allow },
    );
  };
}

function addOperation<K extends OperationId>(
  app: FastifyInstance,
  operation: Operation,
  id: K,
  handlers: OperationHandlers,
): void {
  const rest = operation.parameters.find((parameter) => parameter['x-rest-of-path'] === true)?.name;
  app.route<RouteOf<K>>({
    method: operation.method,
    url: operation.url,
    schema: routeSchema(operation),
    // The wildcard's value under the parameter's own name, before the parameters are checked.
    ...(rest === undefined
      ? {}
      : {
          preValidation: async (request: FastifyRequest) => {
            const params = request.params as Record<string, string | undefined>;
            params[rest] = params['*'];
            delete params['*'];
          },
        }),
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
    throw new Error(
      `Handlers and the document disagree: no handler for [${missing.join(', ')}], no operation for [${extra.join(', ')}]`,
    );
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
