/** The import keeps what the registry serves and reports the rest (docs/decisions/0040-what-the-import-keeps.md). */
import { pruneToServedAsset, pruneToServedDocument } from '../contract/validators.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

const PRUNE_TO_SERVED = { Asset: pruneToServedAsset, Document: pruneToServedDocument };

/** The value without the members the schema does not describe, at any depth, and their JSON Pointers. */
export function withoutUnservedMembers(
  schemaName: 'Asset' | 'Document',
  value: JsonObject,
): { value: JsonObject; dropped: string[] } {
  const kept = structuredClone(value);
  PRUNE_TO_SERVED[schemaName](kept);
  return { value: kept, dropped: membersGone(value, kept, '') };
}

function membersGone(before: JsonValue, after: JsonValue | undefined, at: string): string[] {
  if (after === undefined) return [at];
  if (Array.isArray(before) && Array.isArray(after))
    return before.flatMap((item, i) => membersGone(item, after[i], `${at}/${i}`));
  if (!isJsonObject(before) || !isJsonObject(after)) return [];
  return Object.entries(before).flatMap(([key, item]) =>
    membersGone(
      item,
      Object.hasOwn(after, key) ? after[key] : undefined,
      `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    ),
  );
}
