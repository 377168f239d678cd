/**
 * The published document holds nothing that common generators, validators and mocks misread (docs/openapi-rules.md):
 * every schema is typed with one type, combinators only narrow a schema of the same type, no schema refers to
 * itself through any chain of `$ref`s, formats are the standard ones, answers have one JSON media type, and every
 * schema and parameter has an example (an optional parameter's in its description: record 0051). The walk covers the whole served document, so operations added later are
 * held to the same rules.
 */
import { describe, expect, it } from 'vitest';
import served from '../../src/contract/generated/openapi.json' with { type: 'json' };

type Node = Record<string, unknown>;

/** How a description states the example a docs page must not pre-fill (docs/decisions/0051-docs-page-pre-fills-no-example.md). */
const EXAMPLE_IN_TEXT = /(?:^|\s)Example: `[^`]+`\.(?:\s|$)/;

/** Format names of JSON Schema 2020-12 and the OpenAPI format registry's common ones, which every tool knows. */
const STANDARD_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);

/**
 * Schemas that declare no type on purpose, and why. A value of several JSON types can only be a union, which
 * generators misread; such a schema says its shapes in its description and is `unknown` to a client.
 */
const UNTYPED = new Map([
  ['#/components/schemas/ErrorDescription', 'an error message, a list of them, or one per sub-field'],
  ['#/components/schemas/ChangeOperation/properties/value', "a JSON Patch operation's value: any member of an asset"],
]);

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords a generator reads as "anything" or ignores: conditionals, negation, dependent schemas. */
const CONDITIONALS = ['if', 'then', 'else', 'not', 'dependentSchemas', 'dependentRequired', 'unevaluatedProperties'];

/** Subschemas of a schema, with the pointer of each. */
function children(schema: Node, at: string): [string, Node][] {
  const out: [string, Node][] = [];
  for (const key of ['properties', 'patternProperties', '$defs']) {
    for (const [name, child] of Object.entries((schema[key] as Record<string, Node> | undefined) ?? {}))
      out.push([`${at}/${key}/${name}`, child]);
  }
  for (const key of ['items', 'additionalProperties', 'contains', 'propertyNames', ...CONDITIONALS]) {
    if (typeof schema[key] === 'object' && schema[key] !== null) out.push([`${at}/${key}`, schema[key] as Node]);
  }
  for (const key of [...COMBINATORS, 'prefixItems']) {
    for (const [index, child] of ((schema[key] as Node[] | undefined) ?? []).entries())
      out.push([`${at}/${key}/${index}`, child]);
  }
  return out;
}

/** Every schema object in the document (components, parameters, headers, bodies and answers), with its pointer. */
function allSchemas(): [string, Node][] {
  const roots: [string, Node][] = [];
  const visit = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example') continue;
      if (key === 'schema' && typeof value === 'object' && value !== null) roots.push([`${at}/schema`, value as Node]);
      else if (key === 'schemas' && at === '#/components') {
        for (const [name, schema] of Object.entries(value as Record<string, Node>))
          roots.push([`${at}/schemas/${name}`, schema]);
      } else visit(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  visit(served, '#');
  const all: [string, Node][] = [];
  const walk = (at: string, schema: Node): void => {
    all.push([at, schema]);
    for (const [where, child] of children(schema, at)) walk(where, child);
  };
  for (const [at, schema] of roots) walk(at, schema);
  return all;
}

function resolve(ref: string): Node {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Node)[key.replace(/~1/g, '/').replace(/~0/g, '~')], served) as Node;
}

/** The type a schema declares, following a bare reference. */
function typeOf(schema: Node): unknown {
  return typeof schema.$ref === 'string' ? typeOf(resolve(schema.$ref)) : schema.type;
}

const schemas = allSchemas();

describe('the served document reads the same in every common tool', () => {
  it('walks a good part of the document (the walk itself is not empty)', () => {
    expect(schemas.length).toBeGreaterThan(300);
  });

  it('types every schema with one type (or a reference), except the few untyped on purpose', () => {
    const untyped = schemas
      .filter(([at, s]) => typeof s.$ref !== 'string' && !UNTYPED.has(at) && !('const' in s))
      .filter(([, s]) => typeof s.type !== 'string')
      .map(([at, s]) => `${at}: type ${JSON.stringify(s.type)}`);
    expect(untyped).toEqual([]);
    for (const at of UNTYPED.keys())
      expect(
        schemas.map(([where]) => where),
        at,
      ).toContain(at);
  });

  it('has no allOf, anyOf or oneOf that changes a type: every branch has the type of the schema that holds it', () => {
    const changing: string[] = [];
    for (const [at, schema] of schemas) {
      for (const key of COMBINATORS) {
        for (const [index, branch] of ((schema[key] as Node[] | undefined) ?? []).entries()) {
          if (schema.type === undefined || typeOf(branch) !== schema.type) changing.push(`${at}/${key}/${index}`);
        }
      }
    }
    expect(changing).toEqual([]);
  });

  it('has no conditional schema (if/then/else, not, dependent schemas, unevaluatedProperties): rules go to openapi/rules.yaml', () => {
    const conditional = schemas.flatMap(([at, s]) =>
      CONDITIONALS.filter((key) => key in s).map((key) => `${at}/${key}`),
    );
    expect(conditional).toEqual([]);
  });

  it('has no $ref cycle: no schema refers to itself through any chain of references', () => {
    const refsOf = (node: unknown): string[] =>
      typeof node !== 'object' || node === null
        ? []
        : Object.entries(node).flatMap(([key, value]) =>
            key === '$ref' && typeof value === 'string'
              ? [value]
              : key === 'examples' || key === 'example'
                ? []
                : refsOf(value),
          );
    const cycles: string[] = [];
    const search = (ref: string, chain: string[]): void => {
      if (chain.includes(ref)) {
        cycles.push([...chain.slice(chain.indexOf(ref)), ref].join(' → '));
        return;
      }
      for (const next of new Set(refsOf(resolve(ref)))) search(next, [...chain, ref]);
    };
    for (const name of Object.keys(served.components.schemas)) search(`#/components/schemas/${name}`, []);
    expect([...new Set(cycles)]).toEqual([]);
  });

  it('uses standard format names only', () => {
    const odd = schemas
      .filter(([, s]) => typeof s.format === 'string' && !STANDARD_FORMATS.has(s.format))
      .map(([at, s]) => `${at}: ${String(s.format)}`);
    expect(odd).toEqual([]);
  });

  it('gives every JSON answer one media type: JSONP is declared on opt_jsonp, not beside application/json', () => {
    const mixed: string[] = [];
    for (const [path, item] of Object.entries<Node>(served.paths)) {
      for (const [method, operation] of Object.entries<Node>(item as Record<string, Node>)) {
        for (const [status, response] of Object.entries<Node>(
          (operation.responses as Record<string, Node> | undefined) ?? {},
        )) {
          const types = Object.keys((response.content as Node | undefined) ?? {});
          if (types.includes('application/json') && types.length > 1)
            mixed.push(`${method} ${path} ${status}: ${types.join(', ')}`);
        }
      }
    }
    expect(mixed).toEqual([]);
    expect(served.components.parameters.OptJsonp['x-jsonp']).toEqual({
      mediaType: 'application/javascript',
      wraps: 'application/json',
      body: '/**/<callback>(<json>);',
    });
  });

  it('gives every parameter an example, inline ones included', () => {
    const parameters: [string, Node][] = Object.entries<Node>(served.components.parameters).map(([name, p]) => [
      name,
      p,
    ]);
    for (const [path, item] of Object.entries<Node>(served.paths)) {
      for (const [method, operation] of Object.entries<Node>(item as Record<string, Node>)) {
        const own =
          method === 'parameters'
            ? (operation as unknown as Node[])
            : ((operation.parameters as Node[] | undefined) ?? []);
        for (const p of own.filter((p) => typeof p.$ref !== 'string')) {
          parameters.push([`${method} ${path} ${String(p.name)}`, p]);
        }
      }
    }
    const without = parameters
      .filter(
        ([, p]) => p.example === undefined && p.examples === undefined && !EXAMPLE_IN_TEXT.test(String(p.description)),
      )
      .map(([name]) => name);
    expect(without).toEqual([]);
  });

  it("pre-fills nothing in a docs page that changes the answer: an optional parameter's example is text (record 0051)", () => {
    const prefilled = Object.entries<Node>(served.components.parameters)
      .filter(([, p]) => p.required !== true && (p.example !== undefined || p.examples !== undefined))
      .filter(([, p]) => p.example !== (p.schema as Node).default)
      .map(([name]) => name);
    expect(prefilled).toEqual([]);
  });

  it('keeps exclusive bounds right in the 3.0 rendition: numeric in 3.1, minimum + boolean in 3.0', async () => {
    const { default: down } = await import('../../src/contract/generated/openapi-3.0.json', { with: { type: 'json' } });
    const amount31 = served.components.schemas.Value.properties.amount;
    const amount30 = (down as any).components.schemas.Value.properties.amount;
    expect(amount31).toMatchObject({ exclusiveMinimum: 0 });
    expect(amount30).toMatchObject({ minimum: 0, exclusiveMinimum: true });
    expect((down as any).openapi).toBe('3.0.3');
  });
});
