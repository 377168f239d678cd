/**
 * The merge a PATCH performs, as the original's `apply_data_patch`: objects deep-merge, lists merge element by
 * element, scalars replace, and `null` never clears anything (the original drops keys whose value is None).
 */
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

/**
 * Merges `patch` into `target` and returns a new document; neither input is mutated and the result shares no
 * objects with them.
 *
 * - an object in the patch merges into the object at the same key (or into an empty object);
 * - a list in the patch gives a list of the patch's length; element `i` merges into the old element `i` when
 *   both are objects, otherwise the patch element replaces it (a `null` element keeps the old one, and is
 *   left out where there is none: stored documents never hold `null`);
 * - `null` at a key leaves the target's value as it was (or absent);
 * - any other value replaces.
 *
 * Keys such as `__proto__` are kept as ordinary own data (the validation layer refuses them as rogue fields),
 * never as a prototype.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result = cloneObject(target);
  for (const key of Object.keys(patch)) {
    const update = patch[key] as JsonValue;
    if (update === null) continue;
    const old = Object.hasOwn(target, key) ? target[key] : undefined;
    setOwn(result, key, mergeValue(old, update));
  }
  return result;
}

function mergeValue(old: JsonValue | undefined, update: JsonValue): JsonValue {
  if (isJsonObject(update)) return mergePatch(isJsonObject(old) ? old : {}, update);
  if (Array.isArray(update)) return mergeList(Array.isArray(old) ? old : [], update);
  return update;
}

function mergeList(old: JsonValue[], update: JsonValue[]): JsonValue[] {
  const merged: JsonValue[] = [];
  update.forEach((element, index) => {
    const previous = index < old.length ? old[index] : undefined;
    if (element !== null) merged.push(mergeValue(previous, element));
    else if (previous !== undefined) merged.push(cloneJson(previous));
  });
  return merged;
}

/** A deep copy of JSON data, safe for any key. */
export function cloneJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isJsonObject(value)) return cloneObject(value);
  return value;
}

function cloneObject(source: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(source)) setOwn(copy, key, cloneJson(source[key] as JsonValue));
  return copy;
}

/** Plain assignment to `__proto__` would replace the prototype instead of creating a key. */
function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}
