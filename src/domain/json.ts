type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Wire-format text holding a `T`, served as it is (docs/decisions/0027-stored-wire-text-served-as-is.md). */
export type JsonText<T> = string & { readonly jsonOf?: T };
export type JsonBytes<T> = Buffer & { readonly jsonOf?: T };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
