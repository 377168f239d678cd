/** How an asset document is built and changed: creation defaults, PATCH application, write stamps, test titles. */
import { newId } from './ids.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { mergePatch } from './patch.js';
import { fieldsClearedBy, isStatus, type AssetField, type Status } from './workflow.js';

export interface NewAssetContext {
  id: string;
  owner: string;
  assetID: string;
  /** The creation moment as served (`date` and `dateModified`). */
  now: string;
}

/**
 * A new draft asset from creation data already passed through `creatableFields`: registry-assigned fields,
 * the model defaults (see `fillDefaults`), test titles.
 */
export function buildNewAsset(data: JsonObject, ctx: NewAssetContext): JsonObject {
  const assigned: JsonObject = {
    id: ctx.id,
    assetID: ctx.assetID,
    owner: ctx.owner,
    status: 'draft',
    date: ctx.now,
    dateModified: ctx.now,
  };
  // Registry fields first for a readable document, and again last so that they win over anything in `data`.
  // Merging into an empty document drops `null` members at every depth, as the original never stored None.
  const asset: JsonObject = { ...assigned, ...mergePatch({}, data), ...assigned };

  fillDefaults(asset);
  return applyTestTitles(asset);
}

/**
 * The asset after an allowed PATCH (see `decidePatch`): `changes` merged in, `status` set to `target`, the
 * move's side effects (active → pending drops `relatedLot`), the model defaults (an item the PATCH appended
 * gets its id), test titles. Dates are left to `stampWrite`.
 */
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
 * The original model's defaults, applied in place to a document this module owns: `valueAddedTaxIncluded`
 * true in an object `value` without it, a fresh id for every object item without one. `null` counts as
 * missing. Values of the wrong type are left for validation to refuse.
 */
function fillDefaults(asset: JsonObject): void {
  const value = asset.value;
  if (isJsonObject(value) && (value.valueAddedTaxIncluded ?? null) === null) value.valueAddedTaxIncluded = true;
  if (Array.isArray(asset.items)) {
    for (const item of asset.items) {
      if (isJsonObject(item) && (item.id ?? null) === null) item.id = newId();
    }
  }
}

/** The asset as written at `now`: `dateModified` always, `date` too when the status changed. */
export function stampWrite(asset: JsonObject, now: string, statusChanged: boolean): JsonObject {
  return statusChanged ? { ...asset, date: now, dateModified: now } : { ...asset, dateModified: now };
}

/** The original's title markers for test-mode assets (behaviour §3.5), field → prefix. */
export const TEST_TITLE_PREFIXES: Readonly<Partial<Record<AssetField, string>>> = {
  title: '[ТЕСТУВАННЯ] ',
  title_en: '[TESTING] ',
  title_ru: '[ТЕСТИРОВАНИЕ] ',
};

/**
 * For a `mode: "test"` asset, every title carries its marker: a title without one is prefixed, an absent title
 * becomes the bare prefix (as the original did). A title already starting with its marker is kept, so saving
 * again never doubles it. Titles that are not strings are left for validation to refuse.
 */
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

/** Deep equality of two documents, ignoring key order: a PATCH whose result equals the stored asset changed nothing. */
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
