/**
 * The asset state machine and what each role may do, as tables (decisions.md §2–3, behaviour §4.2–4.4).
 * `decidePatch` only reads them; changing a rule means changing a table.
 */
import type { components } from '../generated/openapi.js';
import type { JsonObject } from './json.js';

/** An asset's status, as the contract's `AssetStatus` names them. */
export type Status = components['schemas']['AssetStatus'];
/** A field of an asset, as the contract's `Asset` schema names it: renaming one there fails the type check here. */
export type AssetField = keyof components['schemas']['Asset'];

/** Every status, in workflow order; keyed by `Status` so that a status added to the contract must be placed here. */
const STATUS_ORDER: Readonly<Record<Status, number>> = {
  draft: 0,
  pending: 1,
  verification: 2,
  active: 3,
  complete: 4,
  deleted: 5,
};
export const STATUSES = (Object.keys(STATUS_ORDER) as Status[]).sort((a, b) => STATUS_ORDER[a] - STATUS_ORDER[b]);

/**
 * Who is asking. `owner` is the broker that created the asset, presenting its token; `brokers` is any other
 * broker (or the creator without the right token).
 */
export type Role = 'owner' | 'brokers' | 'concierge' | 'admins';

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** Who may PATCH at all while the asset is in each status (the original's `editing_permissions`). */
export const EDITORS: Readonly<Record<Status, readonly Role[]>> = {
  draft: ['owner', 'admins'],
  pending: ['owner', 'concierge', 'admins'],
  verification: ['concierge', 'admins'],
  active: ['concierge', 'admins'],
  complete: [],
  deleted: [],
};

/** The allowed moves: from → to → who (the original's `STATUS_CHANGES`). Anything absent is refused. */
export const MOVES: Readonly<Record<Status, Readonly<Partial<Record<Status, readonly Role[]>>>>> = {
  draft: { pending: ['owner', 'admins'] },
  pending: { deleted: ['owner', 'admins'], verification: ['concierge', 'admins'] },
  verification: { active: ['concierge', 'admins'], pending: ['concierge', 'admins'] },
  active: { pending: ['concierge', 'admins'], complete: ['concierge', 'admins'] },
  complete: {},
  deleted: {},
};

/** Fields a move removes from the asset, whatever the request sent (behaviour §4.4). */
export const MOVE_CLEARS: Readonly<Record<Status, Readonly<Partial<Record<Status, readonly AssetField[]>>>>> = {
  draft: {},
  pending: {},
  verification: {},
  active: { pending: ['relatedLot'] },
  complete: {},
  deleted: {},
};

/**
 * The fields a role may write with a PATCH; anything else it sends is dropped silently, as in the original.
 * The owner's list is "everything but": which keys are asset fields at all is the validation layer's business
 * (unknown keys are 422 `Rogue field` there). `status` is never a writable field: the move table governs it.
 */
export type FieldRule = { readonly only: readonly AssetField[] } | { readonly allExcept: readonly AssetField[] };

export const WRITABLE_FIELDS: Readonly<Record<Role, FieldRule>> = {
  owner: { allExcept: ['assetType', 'owner', 'date', 'dateModified', 'id', 'assetID', 'documents', 'mode', 'status'] },
  concierge: { only: ['relatedLot'] },
  admins: { only: ['mode', 'relatedLot'] },
  brokers: { only: [] },
};

/** Fields a creation request cannot set: the registry assigns them. */
export const CREATION_IGNORED_FIELDS: readonly AssetField[] = [
  'id',
  'assetID',
  'date',
  'dateModified',
  'owner',
  'status',
  'documents',
];

/**
 * Fields an asset's own POST and PATCH ignore whatever they hold, unchecked: documents are attached through their
 * own endpoints (decisions.md §9).
 */
export const UNCHECKED_FIELDS: readonly AssetField[] = ['documents'];

/** A request's data without the fields it may hold anything in (`UNCHECKED_FIELDS`). */
export function checkedFields(data: JsonObject): JsonObject {
  return pickKeys(data, (key) => !isOneOf(key, UNCHECKED_FIELDS));
}

export type PatchDecision =
  | { allowed: false; description: string }
  | { allowed: true; target: Status; changes: JsonObject };

/**
 * Whether `role` may apply `data` (the PATCH body's `data`) to an asset in status `current`, and if so the
 * status it ends in and the part of `data` the role may write (without `status`). The checks run in the
 * original's order (behaviour §4.2). A `null` status counts as not sent: `null` never changes anything.
 */
export function decidePatch(role: Role, current: Status, data: JsonObject): PatchDecision {
  const refusal = { allowed: false, description: `Can't update asset in current (${current}) status` } as const;
  if (!EDITORS[current].includes(role)) return refusal;

  const requested = Object.hasOwn(data, 'status') ? data.status : null;
  let target: Status = current;
  if (requested !== null && requested !== current) {
    if (requested === 'draft') return { allowed: false, description: "Can't switch asset to draft status" };
    if (!isStatus(requested) || !movers(current, requested).includes(role)) return refusal;
    target = requested;
  }
  return { allowed: true, target, changes: writablePart(WRITABLE_FIELDS[role], data) };
}

/** The fields a move from `from` to `to` removes (none for most moves and for staying put). */
export function fieldsClearedBy(from: Status, to: Status): readonly AssetField[] {
  return MOVE_CLEARS[from][to] ?? [];
}

/** A creation request's data without the fields the registry assigns itself. */
export function creatableFields(data: JsonObject): JsonObject {
  return pickKeys(data, (key) => !isOneOf(key, CREATION_IGNORED_FIELDS));
}

function movers(from: Status, to: Status): readonly Role[] {
  return MOVES[from][to] ?? [];
}

function writablePart(rule: FieldRule, data: JsonObject): JsonObject {
  return pickKeys(data, 'only' in rule ? (key) => isOneOf(key, rule.only) : (key) => !isOneOf(key, rule.allExcept));
}

/** Whether a key sent by a client is one of the listed contract fields. */
function isOneOf(key: string, fields: readonly AssetField[]): boolean {
  return (fields as readonly string[]).includes(key);
}

/** The keys of `data` that pass `keep`, as a new object (values shared, not copied). */
export function pickKeys(data: JsonObject, keep: (key: string) => boolean): JsonObject {
  const result: JsonObject = {};
  for (const key of Object.keys(data)) {
    if (!keep(key)) continue;
    // defineProperty: a `__proto__` key stays data (for validation to refuse), never a prototype.
    Object.defineProperty(result, key, { value: data[key], enumerable: true, writable: true, configurable: true });
  }
  return result;
}
