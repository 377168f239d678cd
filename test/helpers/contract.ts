/**
 * Checks a real response against openapi/openapi.yaml: the status is declared for the operation, the body
 * validates against that response's schema (Ajv 2020 + ajv-formats), and the headers are right
 * (`application/json; charset=utf-8`, `application/javascript; charset=utf-8` for JSONP, `text/html` for the
 * docs page, `X-Content-Type-Options: nosniff` everywhere).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// CJS default-export interop under NodeNext.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

export interface ContractResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: any;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOC_ID = 'https://registry.test/openapi.json';

/** Used for unknown paths and methods when the document names no error schema of its own. */
const FALLBACK_ERROR_SCHEMA = {
  type: 'object',
  required: ['status', 'errors'],
  additionalProperties: false,
  properties: {
    status: { const: 'error' },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['location', 'name', 'description'],
        additionalProperties: false,
        properties: {
          location: { enum: ['body', 'header', 'querystring', 'url', 'cookies', 'method', 'path'] },
          name: { type: 'string' },
          description: {},
        },
      },
    },
  },
};

interface Route {
  template: string;
  regex: RegExp;
  item: Record<string, any>;
  pointer: string;
}

interface Loaded {
  doc: any;
  ajv: InstanceType<typeof Ajv2020>;
  routes: Route[];
  basePath: string;
  errorValidator: ValidateFunction;
  cache: Map<string, ValidateFunction>;
}

let loaded: Loaded | undefined;

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function load(): Loaded {
  if (loaded) return loaded;
  const doc = parseYaml(readFileSync(OPENAPI_PATH, 'utf8'));
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, coerceTypes: false, removeAdditional: false });
  addFormats(ajv);
  // The server validates these code lists itself; here any string passes.
  for (const f of ['cav-code', 'rec20-unit', 'iso4217', 'ora-scheme']) ajv.addFormat(f, () => true);
  ajv.addFormat('md5', /^[0-9a-f]{32}$/i);
  ajv.addFormat('md5-hash', /^md5:[0-9a-f]{32}$/i);
  // OpenAPI keywords that are not JSON Schema: no-ops (annotations) so strict mode stays on for everything else.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'tags', 'security', 'webhooks', 'jsonSchemaDialect']);
  // The whole document as one schema, so `#/components/...` refs resolve; individual schemas are compiled by pointer.
  ajv.addSchema({ ...doc, $id: DOC_ID });

  const serverUrl: string = doc.servers?.[0]?.url ?? '';
  const basePath = serverUrl.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\/$/, '');
  const routes: Route[] = Object.entries<any>(doc.paths ?? {}).map(([template, item]) => {
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return { template, regex: new RegExp(`^${source}$`), item, pointer: `/paths/${escapePointer(template)}` };
  });

  const schemas = doc.components?.schemas ?? {};
  const errorName = ['Error', 'ErrorEnvelope', 'Errors'].find((n) => n in schemas);
  const errorValidator = errorName
    ? ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${errorName}` })
    : ajv.compile(FALLBACK_ERROR_SCHEMA);
  loaded = { doc, ajv, routes, basePath, errorValidator, cache: new Map() };
  return loaded;
}

function deref(doc: any, node: any): { node: any; pointer?: string } {
  let pointer: string | undefined;
  let guard = 0;
  while (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/') && guard++ < 20) {
    pointer = node.$ref.slice(1);
    node = pointer!
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((acc: any, key) => acc?.[key], doc);
  }
  return { node, pointer };
}

function fail(method: string, path: string, res: ContractResponse, why: string): never {
  const body = res.text.length > 600 ? res.text.slice(0, 600) + '…' : res.text;
  throw new Error(`Contract: ${method} ${path} → ${res.status}: ${why}\n  content-type: ${res.headers['content-type']}\n  body: ${body}`);
}

function matchRoute(l: Loaded, pathname: string): Route | undefined {
  const candidates = [pathname];
  if (l.basePath && pathname.startsWith(l.basePath)) candidates.push(pathname.slice(l.basePath.length) || '/');
  for (const p of candidates) {
    const r = l.routes.find((route) => route.regex.test(p));
    if (r) return r;
  }
  return undefined;
}

/** Whether a declared media type or range (`application/pdf`, `image/*`, `*\/*`) covers a response's Content-Type. */
function mediaRangeMatches(declared: string, contentType: string): boolean {
  const actual = contentType.split(';')[0]!.trim().toLowerCase();
  if (declared === '*/*') return actual.includes('/');
  if (declared.endsWith('/*')) return actual.startsWith(declared.slice(0, -1));
  return actual === declared;
}

function decodeJsonp(text: string): unknown {
  const m = /^(?:\/\*\*\/)?\s*[$A-Za-z_][$0-9A-Za-z_.[\]]*\(([\s\S]*)\);?\s*$/.exec(text);
  if (!m) throw new Error('not a JSONP call');
  return JSON.parse(m[1]!);
}

/** Throws a readable error when `res` breaks the OpenAPI document. */
export function checkContract(method: string, path: string, res: ContractResponse): void {
  method = method.toUpperCase();
  const l = load();
  const url = new URL(path, 'http://x');
  const pathname = url.pathname;
  const ctype = res.headers['content-type'] ?? '';
  const isHead = method === 'HEAD';

  if ((res.headers['x-content-type-options'] ?? '').toLowerCase() !== 'nosniff') {
    fail(method, path, res, 'X-Content-Type-Options: nosniff missing');
  }

  const route = matchRoute(l, pathname);
  const opKey = method === 'HEAD' && route && !route.item.head ? 'get' : method.toLowerCase();
  const operation = route && METHODS.includes(opKey) ? route.item[opKey] : undefined;

  if (!operation) {
    // Unknown path or method: only errors are possible, in the envelope.
    if (res.status < 400 || res.status >= 600) fail(method, path, res, `no operation in the document, yet status ${res.status}`);
    if (route && res.status === 405 && !res.headers['allow']) fail(method, path, res, '405 without Allow');
    if (isHead) return;
    if (ctype !== 'application/json; charset=utf-8') fail(method, path, res, 'content-type is not application/json; charset=utf-8');
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      fail(method, path, res, 'body is not JSON');
    }
    if (!l.errorValidator(body)) fail(method, path, res, 'error envelope: ' + l.ajv.errorsText(l.errorValidator.errors));
    return;
  }

  const responses = operation.responses ?? {};
  const statusKey = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find((k) => k in responses);
  if (!statusKey) {
    fail(method, path, res, `status not declared for ${method} ${route!.template} (declared: ${Object.keys(responses).join(', ')})`);
  }
  const opPointer = `${route!.pointer}/${opKey}`;
  const { node: response, pointer: responsePointerRef } = deref(l.doc, responses[statusKey]);
  const responsePointer = responsePointerRef ?? `${opPointer}/responses/${escapePointer(statusKey)}`;
  const content: Record<string, any> = response?.content ?? {};
  const mediaTypes = Object.keys(content);
  if (isHead || res.status === 204 || res.status === 304) return;

  const jsonp = url.searchParams.has('opt_jsonp') && res.status < 300 && ctype.startsWith('application/javascript');
  let body: unknown;
  let mediaType: string;
  if (jsonp) {
    if (ctype !== 'application/javascript; charset=utf-8') fail(method, path, res, 'JSONP content-type is not application/javascript; charset=utf-8');
    try {
      body = decodeJsonp(res.text);
    } catch (e) {
      fail(method, path, res, `JSONP body not understood (${(e as Error).message})`);
    }
    mediaType = mediaTypes.includes('application/javascript') ? 'application/javascript' : 'application/json';
    if (!content[mediaType]) mediaType = 'application/json';
  } else if (ctype.startsWith('text/html')) {
    if (!mediaTypes.includes('text/html')) fail(method, path, res, `text/html not declared (declared: ${mediaTypes.join(', ')})`);
    return;
  } else if (mediaTypes.length > 0 && !mediaTypes.includes('application/json')) {
    // A non-JSON document (e.g. YAML): the declared type, schema not checked.
    const declared = mediaTypes.find((m) => mediaRangeMatches(m, ctype));
    if (!declared) fail(method, path, res, `content-type not declared (declared: ${mediaTypes.join(', ')})`);
    return;
  } else {
    if (ctype !== 'application/json; charset=utf-8') fail(method, path, res, 'content-type is not application/json; charset=utf-8');
    mediaType = 'application/json';
    try {
      body = JSON.parse(res.text);
    } catch {
      fail(method, path, res, 'body is not JSON');
    }
  }
  const schema = content[mediaType]?.schema;
  if (schema === undefined) {
    if (res.status >= 400) {
      if (!l.errorValidator(body)) fail(method, path, res, 'error envelope: ' + l.ajv.errorsText(l.errorValidator.errors));
    }
    return;
  }
  const schemaPointer = `${responsePointer}/content/${escapePointer(mediaType)}/schema`;
  let cached = l.cache.get(schemaPointer);
  if (!cached) {
    cached = l.ajv.compile({ $ref: `${DOC_ID}#${schemaPointer.split('/').map(encodeURIComponent).join('/')}` });
    l.cache.set(schemaPointer, cached);
  }
  const validate: ValidateFunction = cached;
  if (!validate(body)) {
    const errs = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    fail(method, path, res, `body does not match ${schemaPointer}:\n    ${errs.join('\n    ')}`);
  }
}
