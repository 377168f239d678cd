/** The OpenAPI document as the server reads it (docs/decisions/0001-openapi-document-is-the-contract.md). */
import document from './generated/openapi.json' with { type: 'json' };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
  example?: unknown;
  /** Checked by the operation after the lookup: 404 before 400 (docs/decisions/0014-order-of-checks.md). */
  'x-checked-after-lookup'?: boolean;
  /** The path's last parameter, across segments (a tlog-tiles index): the route ends in a wildcard for it. */
  'x-rest-of-path'?: boolean;
  'x-jsonp'?: { mediaType: string; wraps: string };
}

export interface Operation {
  operationId: string;
  /** Upper case, as Fastify and HTTP spell it. */
  method: string;
  /** `/assets/{asset_id}` */
  path: string;
  /** `/api/0.1/assets/:asset_id` */
  url: string;
  parameters: Parameter[];
  requestTypes: string[];
  rateLimited: boolean;
  /** The JSON pointer of each declared response, by status code (`200`, `4XX`, `default`). */
  responses: Record<string, string>;
}

type Node = Record<string, unknown>;

export const openApiDocument: Node = document as Node;

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function resolve(node: unknown, pointer: string): { node: Node; pointer: string } {
  let current = node as Node;
  let at = pointer;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
    at = (current.$ref as string).slice(1);
    current = at
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((value, key) => (value as Node | undefined)?.[key], openApiDocument) as Node;
  }
  return { node: current, pointer: at };
}

/** The first server's URL, which the document keeps relative. */
export const API_PREFIX = new URL(
  ((openApiDocument.servers as Node[] | undefined)?.[0]?.url as string | undefined) ?? '/',
  'http://registry.invalid',
).pathname.replace(/\/$/, '');

const PLACES: readonly Parameter['in'][] = ['path', 'query', 'header', 'cookie'];
const isPlace = (place: unknown): place is Parameter['in'] => PLACES.some((known) => known === place);
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function toParameter(node: Node): Parameter {
  const { name, in: place, required, schema } = node;
  const jsonp = node['x-jsonp'];
  if (typeof name !== 'string' || !isPlace(place))
    throw new Error(`Not a parameter of the document: ${JSON.stringify(node)}`);
  const parameter: Parameter = { name, in: place, required: required === true };
  if (isNode(schema)) parameter.schema = schema;
  if (node.example !== undefined) parameter.example = node.example;
  if (node['x-checked-after-lookup'] === true) parameter['x-checked-after-lookup'] = true;
  if (node['x-rest-of-path'] === true) parameter['x-rest-of-path'] = true;
  if (isNode(jsonp) && typeof jsonp.mediaType === 'string' && typeof jsonp.wraps === 'string') {
    parameter['x-jsonp'] = { mediaType: jsonp.mediaType, wraps: jsonp.wraps };
  }
  return parameter;
}

/** Path-level parameters, overridden by the operation's own of the same name and place. */
function parametersOf(shared: unknown[] | undefined, own: unknown[] | undefined): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const entry of [...(shared ?? []), ...(own ?? [])]) {
    const parameter = toParameter(resolve(entry, '').node);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

function operationsOf(): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(openApiDocument.paths as Record<string, Node>)) {
    const pathPointer = `/paths/${escapePointer(path)}`;
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (operation === undefined) continue;
      const opPointer = `${pathPointer}/${method}`;
      const responses = Object.fromEntries(
        Object.entries(operation.responses as Node).map(([status, response]) => [
          status,
          resolve(response, `${opPointer}/responses/${escapePointer(status)}`).pointer,
        ]),
      );
      const body =
        operation.requestBody === undefined
          ? undefined
          : resolve(operation.requestBody, `${opPointer}/requestBody`).node;
      const parameters = parametersOf(
        item.parameters as unknown[] | undefined,
        operation.parameters as unknown[] | undefined,
      );
      const rest = parameters.find((parameter) => parameter['x-rest-of-path'] === true)?.name;
      operations.push({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        url: API_PREFIX + path.replace(/\{([^}]+)\}/g, (_whole, name: string) => (name === rest ? '*' : `:${name}`)),
        parameters,
        requestTypes: Object.keys((body?.content as Node | undefined) ?? {}),
        rateLimited: operation['x-rate-limit'] !== false,
        responses,
      });
    }
  }
  return operations;
}

export const OPERATIONS: readonly Operation[] = operationsOf();

/** For 405's `Allow`; HEAD goes with GET, as Fastify serves it. */
export function allowedMethods(path: string): string[] {
  const methods = OPERATIONS.filter((operation) => operation.path === path).map((operation) => operation.method);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  return methods;
}
