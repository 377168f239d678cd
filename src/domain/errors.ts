/** The error envelope of every failed request: `{ status: "error", errors: [{ location, name, description }] }`. */
import type { components } from '../generated/openapi.js';

/**
 * What is wrong, in the shapes the document's `ErrorDescription` describes in words (it declares no type: a union
 * of a string, lists and a recursive object is what generators misread).
 */
export type ErrorDescription = string | (string | string[] | ErrorFieldDescriptions)[] | ErrorFieldDescriptions;
export interface ErrorFieldDescriptions {
  [field: string]: ErrorDescription;
}
export type ErrorEntry = Omit<components['schemas']['ErrorEntry'], 'description'> & { description: ErrorDescription };
export type ErrorLocation = ErrorEntry['location'];
export type ErrorEnvelope = Omit<components['schemas']['Error'], 'errors'> & { errors: ErrorEntry[] };

/** A refusal with its HTTP status; thrown anywhere, rendered by plugins/errors.ts. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errors: ErrorEntry[];
  readonly headers: Record<string, string>;

  constructor(statusCode: number, errors: ErrorEntry[], headers: Record<string, string> = {}) {
    super(typeof errors[0]?.description === 'string' ? errors[0].description : `HTTP ${statusCode}`);
    this.statusCode = statusCode;
    this.errors = errors;
    this.headers = headers;
  }

  static one(statusCode: number, location: ErrorLocation, name: string, description: ErrorEntry['description']): ApiError {
    return new ApiError(statusCode, [{ location, name, description }]);
  }
}

export function envelope(errors: ErrorEntry[]): ErrorEnvelope {
  return { status: 'error', errors };
}

/** The refusals several operations share, worded as the original's. */
export const refusals = {
  /** A body that is not a JSON object with an object `data` (spec: one top-level object named data). */
  notDecodable: (): ApiError => ApiError.one(422, 'body', 'data', 'No JSON object could be decoded'),
  /** A write without a known key (also when an operation needs the key's holder). */
  unauthorized: (): ApiError =>
    new ApiError(
      401,
      [{ location: 'header', name: 'Authorization', description: 'A known API key is required (Basic auth user name)' }],
      { 'www-authenticate': 'Basic realm="registry"' },
    ),
  /** A key whose role may not call the operation at all. */
  forbidden: (): ApiError => ApiError.one(403, 'url', 'permission', 'Forbidden'),
  /** An unknown id in the URL. */
  notFound: (name: string): ApiError => ApiError.one(404, 'url', name, 'Not Found'),
  /** Field validation failed: one entry per top-level field. */
  invalid: (errors: ErrorEntry[]): ApiError => new ApiError(422, errors),
};
