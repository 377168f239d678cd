/**
 * The OpenAPI document as the server reads it: the API prefix (`servers`), and every operation with its method,
 * path, parameters, request body types and declared responses. Read from src/generated/openapi.json (written by
 * `npm run generate` from openapi/openapi.yaml), so the wiring, the reply checks and the served document are
 * one and the same text.
 */
import document from '../generated/openapi.json' with { type: 'json' };

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
  /** The document's example value (tests build requests from it). */
  example?: unknown;
  /**
   * `x-checked-after-lookup: true`: the operation reads the parameter itself once the asset is known to exist (404
   * before 400, decisions.md §12), so the route does not check it against its schema first.
   */
  'x-checked-after-lookup'?: boolean;
  /** JSONP: answered as `mediaType`, the `wraps` answer of the operation wrapped (on `opt_jsonp`). */
  'x-jsonp'?: { mediaType: string; wraps: string };
}

export interface Operation {
  operationId: string;
  /** Upper case, as Fastify and HTTP spell it. */
  method: string;
  /** The document's path template, without the prefix (`/assets/{asset_id}`). */
  path: string;
  /** The route as Fastify takes it, prefix included (`/api/0.1/assets/:asset_id`). */
  url: string;
  parameters: Parameter[];
  /** Media types the request body may have; empty when the operation takes no body. */
  requestTypes: string[];
  /** `x-rate-limit: false` exempts an operation from the rate limit (the health probe). */
  rateLimited: boolean;
  /** JSON pointer (inside the document) of each declared response, by status code (`200`, `4XX`, `default`). */
  responses: Record<string, string>;
}

type Node = Record<string, unknown>;

export const openApiDocument: Node = document as Node;

/** A JSON pointer segment (`~` → `~0`, `/` → `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows local `$ref`s to the node they name, with the pointer of the final node. */
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

/** The path every operation is served under: the first server's URL, which the document keeps relative. */
export const API_PREFIX = new URL(
  ((openApiDocument.servers as Node[] | undefined)?.[0]?.url as string | undefined) ?? '/',
  'http://registry.invalid',
).pathname.replace(/\/$/, '');

const PLACES: readonly Parameter['in'][] = ['path', 'query', 'header', 'cookie'];
const isPlace = (place: unknown): place is Parameter['in'] => PLACES.some((known) => known === place);
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parameter object of the document, read field by field. */
function toParameter(node: Node): Parameter {
  const { name, in: place, required, schema } = node;
  const jsonp = node['x-jsonp'];
  if (typeof name !== 'string' || !isPlace(place)) throw new Error(`Not a parameter of the document: ${JSON.stringify(node)}`);
  const parameter: Parameter = { name, in: place, required: required === true };
  if (isNode(schema)) parameter.schema = schema;
  if (node.example !== undefined) parameter.example = node.example;
  if (node['x-checked-after-lookup'] === true) parameter['x-checked-after-lookup'] = true;
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
      const body = operation.requestBody === undefined ? undefined : resolve(operation.requestBody, `${opPointer}/requestBody`).node;
      operations.push({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        url: API_PREFIX + path.replace(/\{([^}]+)\}/g, ':$1'),
        parameters: parametersOf(item.parameters as unknown[] | undefined, operation.parameters as unknown[] | undefined),
        requestTypes: Object.keys((body?.content as Node | undefined) ?? {}),
        rateLimited: operation['x-rate-limit'] !== false,
        responses,
      });
    }
  }
  return operations;
}

export const OPERATIONS: readonly Operation[] = operationsOf();

/** The document's methods of one path template, for 405's `Allow` (HEAD goes with GET, as Fastify serves it). */
export function allowedMethods(path: string): string[] {
  const methods = OPERATIONS.filter((operation) => operation.path === path).map((operation) => operation.method);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  return methods;
}

