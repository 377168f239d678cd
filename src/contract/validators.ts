/** Every validator of the contract, built here only: one Ajv per set of options, since the options are what differ. */
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from './document.js';
import { addRegistryFormats } from './formats.js';
import type { components } from './generated/openapi.js';
import schemas from './generated/schemas.json' with { type: 'json' };

type Schemas = components['schemas'];

function componentsAjv(options: Options, codeLists: boolean): Ajv2020 {
  const ajv = addRegistryFormats(new Ajv2020({ allErrors: true, strict: true, ...options }), { codeLists });
  ajv.addSchema(schemas);
  return ajv;
}

/** Verbose: domain/validation-messages.ts words its messages from the failing value. */
const writes = componentsAjv({ verbose: true }, true);
/** Code lists are a rule of writes, not of what is stored (docs/decisions/0040-what-the-import-keeps.md). */
const stores = componentsAjv({}, false);
/** Safe, since no schema composes others with `oneOf` or `anyOf`. */
const pruning = componentsAjv({ removeAdditional: true }, false);

function component<T>(ajv: Ajv2020, name: string): ValidateFunction<T> {
  const validate = ajv.getSchema<T>(`${schemas.$id}#/$defs/${name}`);
  if (validate === undefined) throw new Error(`No schema named ${name} in the OpenAPI document`);
  return validate;
}

export const componentValidator = <T = unknown>(name: string): ValidateFunction<T> => component<T>(writes, name);

/** Read-only fields allowed: the caller drops them later. */
export const assetAsSent = componentValidator('AssetPatch');
export const assetAsWritten = componentValidator('AssetCreate');
export const ownershipChangeAsSent = componentValidator('OwnershipChange');
/** Generated fields allowed: the caller drops them later. */
export const documentAsSent = componentValidator('DocumentInput');
export const documentAsWritten = componentValidator('Document');

export const storedAsset = component<Schemas['Asset']>(stores, 'Asset');
export const storedDocument = component<Schemas['Document']>(stores, 'Document');
export const storedDocumentWithVersions = component<Schemas['DocumentWithVersions']>(stores, 'DocumentWithVersions');

/** Remove, in place, the members a served asset or document does not have. */
export const pruneToServedAsset = component(pruning, 'Asset');
export const pruneToServedDocument = component(pruning, 'Document');

const DOCUMENT_ID = 'registry-openapi';

/** Built on first use: only with VALIDATE_REPLIES (docs/decisions/0003-replies-checked-against-the-document.md). */
let documentAjv: Ajv2020 | undefined;

function replies(): Ajv2020 {
  if (documentAjv !== undefined) return documentAjv;
  const ajv = addRegistryFormats(new Ajv2020({ strict: true, strictRequired: false, allErrors: true }));
  // OpenAPI keywords that are not JSON Schema are annotations here; the document's top level is not a schema.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  // Mock generators' hints (docs/decisions/0052-dynamic-mock-options-in-the-document.md): annotations here.
  ajv.addVocabulary(['x-faker', 'x-json-schema-faker']);
  ajv.addVocabulary([
    'openapi',
    'info',
    'servers',
    'paths',
    'components',
    'tags',
    'security',
    'webhooks',
    'jsonSchemaDialect',
  ]);
  ajv.addSchema({ ...openApiDocument, $id: DOCUMENT_ID });
  documentAjv = ajv;
  return ajv;
}

const compiledReplies = new Map<string, ValidateFunction>();

export function replyBodyAt(pointer: string): ValidateFunction {
  let validate = compiledReplies.get(pointer);
  if (validate === undefined) {
    validate = replies().compile({ $ref: `${DOCUMENT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
    compiledReplies.set(pointer, validate);
  }
  return validate;
}
