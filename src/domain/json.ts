/** JSON values as they travel through the registry. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * JSON text already in the wire format, holding a `T`: served as it is, without parsing and writing it again
 * (the read path, domain/listing.ts, stores' `getText`).
 */
export type JsonText<T> = string & { readonly jsonOf?: T };
/** The same as UTF-8 bytes (as a store hands them out). */
export type JsonBytes<T> = Buffer & { readonly jsonOf?: T };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
