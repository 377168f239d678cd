/**
 * The one boundary where stored JSON becomes a contract type, through the contract's validators of stored values:
 * type guards, nothing asserted. Code lists are not checked (an imported asset may hold the original's codes until a
 * write replaces them). A failure is a store changed under the registry: answered 500, not served.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { components } from '../contract/generated/openapi.js';
import { storedAsset, storedDocument, storedDocumentWithVersions } from '../contract/validators.js';

type Schemas = components['schemas'];

export class StoredValueError extends Error {}

function checked<T>(guard: ValidateFunction<T>, what: string, value: unknown): T {
  if (guard(value)) return value;
  const problems = (guard.errors ?? [])
    .slice(0, 3)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  throw new StoredValueError(`A stored ${what} does not match the contract: ${problems.join('; ')}`);
}

export const servedAsset = (value: unknown): Schemas['Asset'] => checked(storedAsset, 'asset', value);
export const servedDocument = (value: unknown): Schemas['Document'] => checked(storedDocument, 'document', value);
export const servedDocumentWithVersions = (value: unknown): Schemas['DocumentWithVersions'] =>
  checked(storedDocumentWithVersions, 'document', value);
