import { newId } from './ids.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { mergePatch, withMember } from './patch.js';
import { fieldsClearedBy, isStatus, type AssetField, type Status } from './workflow.js';

export interface NewAssetContext {
  id: string;
  owner: string;
  assetID: string;
  now: string;
}

/** `data` already passed through `creatableFields`. */
export function buildNewAsset(data: JsonObject, ctx: NewAssetContext): JsonObject {
  const assigned: JsonObject = {
    id: ctx.id,
    assetID: ctx.assetID,
    owner: ctx.owner,
    status: 'draft',
    date: ctx.now,
    dateModified: ctx.now,
  };
  // Registry fields first for a readable document, and again last to win over `data`. Merging into `{}` drops
  // `null` members at every depth: the original never stored None.
  const asset: JsonObject = { ...assigned, ...mergePatch({}, data), ...assigned };

  fillDefaults(asset);
  return applyTestTitles(asset);
}

/** After `decidePatch` allowed it; dates are left to `stampWrite`. */
export function applyPatch(current: JsonObject, changes: JsonObject, target: Status): JsonObject {
  const merged = mergePatch(current, changes);
  merged.status = target;
  const from = current.status;
  if (isStatus(from)) {
    for (const field of fieldsClearedBy(from, target)) delete merged[field];
  }
  fillDefaults(merged);
  return applyTestTitles(merged);
}

/**
 * The original model's defaults, in place, each in its member's JCS place (as the merge adds members); values of the
 * wrong type are left for validation to refuse.
 */
function fillDefaults(asset: JsonObject): void {
  const value = asset.value;
  if (isJsonObject(value) && (value.valueAddedTaxIncluded ?? null) === null)
    asset.value = withMember(value, 'valueAddedTaxIncluded', true);
  const items = asset.items;
  if (Array.isArray(items)) {
    items.forEach((item, i) => {
      if (isJsonObject(item) && (item.id ?? null) === null) items[i] = withMember(item, 'id', newId());
    });
  }
}

export function stampWrite(asset: JsonObject, now: string, statusChanged: boolean): JsonObject {
  return statusChanged ? { ...asset, date: now, dateModified: now } : { ...asset, dateModified: now };
}

/** The original's title markers of test-mode assets. */
const TEST_TITLE_PREFIXES: Readonly<Partial<Record<AssetField, string>>> = {
  title: '[ТЕСТУВАННЯ] ',
  title_en: '[TESTING] ',
  title_ru: '[ТЕСТИРОВАНИЕ] ',
};

/** An absent title becomes the bare prefix, as the original did; saving again never doubles a marker. */
export function applyTestTitles(asset: JsonObject): JsonObject {
  if (asset.mode !== 'test') return asset;
  const result: JsonObject = { ...asset };
  for (const [field, prefix] of Object.entries(TEST_TITLE_PREFIXES)) {
    const title = result[field] ?? null;
    if (title === null) result[field] = prefix;
    else if (typeof title === 'string' && !title.startsWith(prefix.trimEnd())) result[field] = prefix + title;
  }
  return result;
}

/** Ignoring key order: a PATCH whose result equals the stored asset changed nothing. */
export function sameContent(a: JsonObject, b: JsonObject): boolean {
  return sameValue(a, b);
}

function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((element, index) => sameValue(element, b[index]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return false;
}
