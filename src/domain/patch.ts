/**
 * The merge of a PATCH, as the original's `apply_data_patch` (docs/decisions/0008-patch-merges-as-the-original.md):
 * objects deep-merge, lists element by element, `null` never clears anything. Members it adds come in JCS order, so
 * an object it creates is in the order the log's entries are written in
 * (docs/decisions/0084-new-objects-in-jcs-key-order.md).
 */
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

/**
 * A new document sharing no objects with its inputs; a `__proto__` key stays data, never a prototype. The target's
 * members keep their order; the patch's new ones follow in JCS order (UTF-16 code units, as `sort` compares).
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result = cloneObject(target);
  for (const key of Object.keys(patch).sort()) {
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

/**
 * A copy of `object` with `key` set, placed before the first member whose key sorts after it: in an object in JCS
 * order, its place in that order.
 */
export function withMember(object: JsonObject, key: string, value: JsonValue): JsonObject {
  const copy: JsonObject = {};
  let placed = false;
  for (const name of Object.keys(object)) {
    if (name === key) continue;
    if (!placed && name > key) {
      setOwn(copy, key, value);
      placed = true;
    }
    setOwn(copy, name, object[name] as JsonValue);
  }
  if (!placed) setOwn(copy, key, value);
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
