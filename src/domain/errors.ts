/** The error envelope of every failed request (docs/decisions/0013-one-error-envelope.md). */
import type { components } from '../contract/generated/openapi.js';

/** The document declares no type for it: generators misread a recursive union. */
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

  static one(
    statusCode: number,
    location: ErrorLocation,
    name: string,
    description: ErrorEntry['description'],
  ): ApiError {
    return new ApiError(statusCode, [{ location, name, description }]);
  }
}

export function envelope(errors: ErrorEntry[]): ErrorEnvelope {
  return { status: 'error', errors };
}

/** Worded as the original's. */
export const refusals = {
  /** A body that is not a JSON object with an object `data`. */
  notDecodable: (): ApiError => ApiError.one(422, 'body', 'data', 'No JSON object could be decoded'),
  unauthorized: (): ApiError =>
    new ApiError(
      401,
      [
        {
          location: 'header',
          name: 'Authorization',
          description: 'A known API key is required (Basic auth user name)',
        },
      ],
      { 'www-authenticate': 'Basic realm="registry"' },
    ),
  forbidden: (): ApiError => ApiError.one(403, 'url', 'permission', 'Forbidden'),
  notFound: (name: string): ApiError => ApiError.one(404, 'url', name, 'Not Found'),
  invalid: (errors: ErrorEntry[]): ApiError => new ApiError(422, errors),
};
