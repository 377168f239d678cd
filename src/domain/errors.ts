/** The error envelope of every failed request: `{ status: "error", errors: [{ location, name, description }] }`. */

export type ErrorLocation = 'body' | 'header' | 'querystring' | 'url' | 'cookies' | 'method';

export interface ErrorEntry {
  location: ErrorLocation;
  name: string;
  /** A string, a list of messages, or (nested fields) an object or list of the same shapes. */
  description: unknown;
}

export interface ErrorEnvelope {
  status: 'error';
  errors: ErrorEntry[];
}

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

  static one(statusCode: number, location: ErrorLocation, name: string, description: unknown): ApiError {
    return new ApiError(statusCode, [{ location, name, description }]);
  }
}

export function envelope(errors: ErrorEntry[]): ErrorEnvelope {
  return { status: 'error', errors };
}
