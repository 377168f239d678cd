/**
 * The state machine and what each role may do, as tables (docs/decisions/0007-workflow-as-tables.md):
 * changing a rule means changing a table.
 */
import type { components } from '../contract/generated/openapi.js';
import type { JsonObject } from './json.js';

export type Status = components['schemas']['AssetStatus'];
/** Renaming a field in the contract fails the type check here. */
export type AssetField = keyof components['schemas']['Asset'];

/** Keyed by `Status`, so a status added to the contract must be placed here. */
const STATUS_ORDER: Readonly<Record<Status, number>> = {
  draft: 0,
  pending: 1,
  verification: 2,
  active: 3,
  complete: 4,
  deleted: 5,
};
export const STATUSES = (Object.keys(STATUS_ORDER) as Status[]).sort((a, b) => STATUS_ORDER[a] - STATUS_ORDER[b]);

/** `owner` is the creating broker presenting its token; `brokers` any other broker (or one without the token). */
export type Role = 'owner' | 'brokers' | 'concierge' | 'admins';

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** The original's `editing_permissions`. */
const EDITORS: Readonly<Record<Status, readonly Role[]>> = {
  draft: ['owner', 'admins'],
  pending: ['owner', 'concierge', 'admins'],
  verification: ['concierge', 'admins'],
  active: ['concierge', 'admins'],
  complete: [],
  deleted: [],
};

/** from → to → who, the original's `STATUS_CHANGES`; anything absent is refused. */
const MOVES: Readonly<Record<Status, Readonly<Partial<Record<Status, readonly Role[]>>>>> = {
  draft: { pending: ['owner', 'admins'] },
  pending: { deleted: ['owner', 'admins'], verification: ['concierge', 'admins'] },
  verification: { active: ['concierge', 'admins'], pending: ['concierge', 'admins'] },
  active: { pending: ['concierge', 'admins'], complete: ['concierge', 'admins'] },
  complete: {},
  deleted: {},
};

/** Fields a move removes, whatever the request sent. */
const MOVE_CLEARS: Readonly<Record<Status, Readonly<Partial<Record<Status, readonly AssetField[]>>>>> = {
  draft: {},
  pending: {},
  verification: {},
  active: { pending: ['relatedLot'] },
  complete: {},
  deleted: {},
};

/** Anything else a role sends is dropped silently, as in the original; MOVES governs `status`. */
type FieldRule = { readonly only: readonly AssetField[] } | { readonly allExcept: readonly AssetField[] };

const WRITABLE_FIELDS: Readonly<Record<Role, FieldRule>> = {
  owner: { allExcept: ['assetType', 'owner', 'date', 'dateModified', 'id', 'assetID', 'documents', 'mode', 'status'] },
  concierge: { only: ['relatedLot'] },
  admins: { only: ['mode', 'relatedLot'] },
  brokers: { only: [] },
};

const CREATION_IGNORED_FIELDS: readonly AssetField[] = [
  'id',
  'assetID',
  'date',
  'dateModified',
  'owner',
  'status',
  'documents',
];

/** Documents have their own endpoints (docs/decisions/0030-documents-inside-the-asset-record.md). */
const UNCHECKED_FIELDS: readonly AssetField[] = ['documents'];

export function checkedFields(data: JsonObject): JsonObject {
  return pickKeys(data, (key) => !isOneOf(key, UNCHECKED_FIELDS));
}

export type PatchDecision =
  | { allowed: false; description: string }
  | { allowed: true; target: Status; changes: JsonObject };

/** The checks run in the original's order; a `null` status counts as not sent. */
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

export function fieldsClearedBy(from: Status, to: Status): readonly AssetField[] {
  return MOVE_CLEARS[from][to] ?? [];
}

export function creatableFields(data: JsonObject): JsonObject {
  return pickKeys(data, (key) => !isOneOf(key, CREATION_IGNORED_FIELDS));
}

function movers(from: Status, to: Status): readonly Role[] {
  return MOVES[from][to] ?? [];
}

function writablePart(rule: FieldRule, data: JsonObject): JsonObject {
  return pickKeys(data, 'only' in rule ? (key) => isOneOf(key, rule.only) : (key) => !isOneOf(key, rule.allExcept));
}

function isOneOf(key: string, fields: readonly AssetField[]): boolean {
  return (fields as readonly string[]).includes(key);
}

/** Values shared, not copied. */
export function pickKeys(data: JsonObject, keep: (key: string) => boolean): JsonObject {
  const result: JsonObject = {};
  for (const key of Object.keys(data)) {
    if (!keep(key)) continue;
    // defineProperty: a `__proto__` key stays data (for validation to refuse), never a prototype.
    Object.defineProperty(result, key, { value: data[key], enumerable: true, writable: true, configurable: true });
  }
  return result;
}
