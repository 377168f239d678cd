/**
 * The one boundary where stored JSON becomes a contract type. Each value is checked by the validator compiled
 * from the contract's own schema (src/domain/validation.ts), a type guard: nothing is asserted. Code-list
 * membership is not checked here: an imported asset may hold the original's codes until a write replaces them. Every stored value
 * passed that contract's checks when it was written, so a failure here is a store that changed under the
 * registry, answered 500 rather than served.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { components } from '../generated/openapi.js';
import { storedValueValidator } from '../domain/validation.js';

type Schemas = components['schemas'];

const isAsset = storedValueValidator<Schemas['Asset']>('Asset');
const isDocument = storedValueValidator<Schemas['Document']>('Document');
const isDocumentWithVersions = storedValueValidator<Schemas['DocumentWithVersions']>('DocumentWithVersions');

/** Thrown for a stored value the contract does not describe (a 500 through the error handler). */
export class StoredValueError extends Error {}

function checked<T>(guard: ValidateFunction<T>, what: string, value: unknown): T {
  if (guard(value)) return value;
  const problems = (guard.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  throw new StoredValueError(`A stored ${what} does not match the contract: ${problems.join('; ')}`);
}

export const servedAsset = (value: unknown): Schemas['Asset'] => checked(isAsset, 'asset', value);
export const servedDocument = (value: unknown): Schemas['Document'] => checked(isDocument, 'document', value);
export const servedDocumentWithVersions = (value: unknown): Schemas['DocumentWithVersions'] =>
  checked(isDocumentWithVersions, 'document', value);
