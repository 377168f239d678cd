import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/json.js';
import { creatableFields, decidePatch, STATUSES, type Role, type Status } from '../../src/domain/workflow.js';

const ROLES: Role[] = ['owner', 'brokers', 'concierge', 'admins'];

// docs/decisions/0007-workflow-as-tables.md, written out move by move.
const ALLOWED_MOVES = new Set([
  'draft>pending:owner',
  'draft>pending:admins',
  'pending>deleted:owner',
  'pending>deleted:admins',
  'pending>verification:concierge',
  'pending>verification:admins',
  'verification>active:concierge',
  'verification>active:admins',
  'verification>pending:concierge',
  'verification>pending:admins',
  'active>pending:concierge',
  'active>pending:admins',
  'active>complete:concierge',
  'active>complete:admins',
]);

const EDITS_ALLOWED = new Set([
  'draft:owner',
  'draft:admins',
  'pending:owner',
  'pending:concierge',
  'pending:admins',
  'verification:concierge',
  'verification:admins',
  'active:concierge',
  'active:admins',
]);

const refusedIn = (status: Status) => ({
  allowed: false,
  description: `Can't update asset in current (${status}) status`,
});

describe('decidePatch: the state table', () => {
  for (const from of STATUSES) {
    for (const to of STATUSES) {
      for (const role of ROLES) {
        it(`${role}: ${from} → ${to}`, () => {
          const decision = decidePatch(role, from, { status: to });
          if (!EDITS_ALLOWED.has(`${from}:${role}`)) {
            expect(decision).toEqual(refusedIn(from));
          } else if (to === from) {
            expect(decision).toEqual({ allowed: true, target: from, changes: {} });
          } else if (to === 'draft') {
            expect(decision).toEqual({ allowed: false, description: "Can't switch asset to draft status" });
          } else if (ALLOWED_MOVES.has(`${from}>${to}:${role}`)) {
            expect(decision).toEqual({ allowed: true, target: to, changes: {} });
          } else {
            expect(decision).toEqual(refusedIn(from));
          }
        });
      }
    }
  }

  it('refuses an edit before looking at the requested status', () => {
    // A broker without the token asking for draft in pending: not an editor, so not the draft message.
    expect(decidePatch('brokers', 'pending', { status: 'draft' })).toEqual(refusedIn('pending'));
    expect(decidePatch('concierge', 'draft', { status: 'draft' })).toEqual(refusedIn('draft'));
  });

  it('says "switch to draft" before checking the move table', () => {
    expect(decidePatch('admins', 'active', { status: 'draft' })).toEqual({
      allowed: false,
      description: "Can't switch asset to draft status",
    });
  });

  it('refuses unknown and non-string statuses with 403 wording, not a validation error', () => {
    for (const status of ['archived', 'Pending', '', '__proto__', 'constructor', 1, true, [], { a: 1 }]) {
      expect(decidePatch('admins', 'pending', { status } as JsonObject)).toEqual(refusedIn('pending'));
    }
  });

  it('treats a null status as not sent', () => {
    expect(decidePatch('owner', 'draft', { status: null, title: 'x' })).toEqual({
      allowed: true,
      target: 'draft',
      changes: { title: 'x' },
    });
  });

  it('refuses every edit of a final asset, even without a status', () => {
    for (const role of ROLES) {
      expect(decidePatch(role, 'deleted', { title: 'x' })).toEqual(refusedIn('deleted'));
      expect(decidePatch(role, 'complete', {})).toEqual(refusedIn('complete'));
    }
  });
});

describe('decidePatch: writable fields', () => {
  const everything: JsonObject = {
    status: 'pending',
    title: 'New title',
    description: 'd',
    value: { amount: 5 },
    items: [{ quantity: 2 }],
    relatedLot: 'a'.repeat(32),
    mode: 'test',
    assetType: 'other',
    owner: 'someone',
    date: '2020-01-01T00:00:00+02:00',
    dateModified: '2020-01-01T00:00:00+02:00',
    id: 'b'.repeat(32),
    assetID: 'UA-1',
    documents: [],
  };

  it('lets the owner write the asset fields but not the registry-assigned ones or mode', () => {
    const decision = decidePatch('owner', 'pending', everything);
    expect(decision).toEqual({
      allowed: true,
      target: 'pending',
      changes: {
        title: 'New title',
        description: 'd',
        value: { amount: 5 },
        items: [{ quantity: 2 }],
        relatedLot: 'a'.repeat(32),
      },
    });
  });

  it('lets the concierge write relatedLot only', () => {
    expect(decidePatch('concierge', 'pending', { ...everything, status: 'verification' })).toEqual({
      allowed: true,
      target: 'verification',
      changes: { relatedLot: 'a'.repeat(32) },
    });
  });

  it('lets admins write mode and relatedLot', () => {
    expect(decidePatch('admins', 'draft', { ...everything, status: 'draft' })).toEqual({
      allowed: true,
      target: 'draft',
      changes: { relatedLot: 'a'.repeat(32), mode: 'test' },
    });
  });

  it('passes unknown keys to the owner for validation to refuse as rogue fields', () => {
    const decision = decidePatch('owner', 'draft', { bogus: 1 });
    expect(decision).toEqual({ allowed: true, target: 'draft', changes: { bogus: 1 } });
  });

  it('keeps a __proto__ key as data', () => {
    const decision = decidePatch('owner', 'draft', JSON.parse('{"__proto__": {"x": 1}}') as JsonObject);
    expect(decision.allowed).toBe(true);
    if (decision.allowed) {
      expect(Object.keys(decision.changes)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(decision.changes)).toBe(Object.prototype);
    }
  });

  it('does not mutate the data', () => {
    const data: JsonObject = { status: 'pending', title: 't', id: 'x' };
    decidePatch('owner', 'draft', data);
    expect(data).toEqual({ status: 'pending', title: 't', id: 'x' });
  });
});

describe('creatableFields', () => {
  it('drops the fields the registry assigns and keeps the rest, mode and relatedLot included', () => {
    const data: JsonObject = {
      id: 'x',
      assetID: 'y',
      date: 'd',
      dateModified: 'm',
      owner: 'o',
      status: 'active',
      documents: [],
      title: 't',
      mode: 'test',
      relatedLot: 'a'.repeat(32),
      assetType: 'claimRights',
      bogus: 1,
    };
    expect(creatableFields(data)).toEqual({
      title: 't',
      mode: 'test',
      relatedLot: 'a'.repeat(32),
      assetType: 'claimRights',
      bogus: 1,
    });
    expect(data.id).toBe('x');
  });
});
