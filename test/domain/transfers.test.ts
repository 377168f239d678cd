/** The transfer rules of docs/decisions/0033-ownership-transfer-in-two-writes.md. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { STATUSES } from '../../src/domain/workflow.js';
import {
  decideOwnership,
  standingOf,
  transferView,
  TRANSFER_ROLES,
  type AssetCredentials,
  type OwnershipFacts,
  type TransferState,
} from '../../src/domain/transfers.js';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const T = '7'.repeat(32);
const H_CREATED = 'h0'.padEnd(64, '0');
const H_OTHER = 'h9'.padEnd(64, '9');
const H_T = 'ht'.padEnd(64, 't');

function asset(overrides: Partial<AssetCredentials> = {}): AssetCredentials {
  return { id: A, status: 'pending', transferTokenHash: H_CREATED, appliedTransfers: [], ...overrides };
}

function transfer(mark: TransferState['mark'] = null): TransferState & { created: number } {
  return { id: T, transferTokenHash: H_T, mark, created: 1_000 };
}

const markOn = (assetId: string, fromHash: string) => ({ assetId, fromHash, at: 2_000 });

function facts(overrides: Partial<OwnershipFacts> = {}): OwnershipFacts {
  return { asset: asset(), tokenMatches: true, transfer: transfer(), markedAsset: undefined, ...overrides };
}

function refusal(facts: OwnershipFacts): { status: number; entry: unknown } {
  const decision = decideOwnership(facts);
  if (decision.allowed) throw new Error(`expected a refusal, got ${JSON.stringify(decision)}`);
  expect(decision.refusal).toBeInstanceOf(ApiError);
  return { status: decision.refusal.statusCode, entry: decision.refusal.errors };
}

describe('standingOf: the asset decides', () => {
  it('is unused without a mark', () => {
    expect(standingOf(transfer(), undefined)).toBe('unused');
  });

  it('is used once the marked asset lists the transfer, whatever its token and status now', () => {
    const marked = asset({ appliedTransfers: [T], transferTokenHash: H_OTHER, status: 'complete' });
    expect(standingOf(transfer(markOn(A, H_CREATED)), marked)).toBe('used');
  });

  it('is pending while the marked asset still has the token the mark was made with (a call cut short)', () => {
    expect(standingOf(transfer(markOn(A, H_CREATED)), asset())).toBe('pending');
  });

  it('is unused when the marked asset moved on to another token without it (a race lost)', () => {
    expect(
      standingOf(transfer(markOn(A, H_CREATED)), asset({ transferTokenHash: H_OTHER, appliedTransfers: ['x'] })),
    ).toBe('unused');
  });

  it('is unused when the marked asset ended before the call was finished', () => {
    for (const status of ['deleted', 'complete']) {
      expect(standingOf(transfer(markOn(A, H_CREATED)), asset({ status })), status).toBe('unused');
    }
  });

  it('is unused when the marked asset is not there', () => {
    expect(standingOf(transfer(markOn(A, H_CREATED)), undefined)).toBe('unused');
    expect(standingOf(transfer(markOn(A, H_CREATED)), asset({ id: B }))).toBe('unused');
  });
});

describe('transferView', () => {
  it('shows the creation date and no usedFor while unused', () => {
    expect(transferView(transfer(), undefined)).toEqual({ date: 1_000 });
    expect(transferView(transfer(markOn(A, H_CREATED)), asset({ transferTokenHash: H_OTHER }))).toEqual({
      date: 1_000,
    });
  });

  it('shows the asset and the moment of the mark once used or pending', () => {
    expect(transferView(transfer(markOn(A, H_CREATED)), asset())).toEqual({ date: 2_000, usedFor: `/assets/${A}` });
    expect(
      transferView(transfer(markOn(A, H_CREATED)), asset({ appliedTransfers: [T], transferTokenHash: H_T })),
    ).toEqual({
      date: 2_000,
      usedFor: `/assets/${A}`,
    });
  });
});

// docs/decisions/0033-ownership-transfer-in-two-writes.md
describe('decideOwnership: the checks of record 0033, in their order', () => {
  it('lets brokers and admins call, not the concierge', () => {
    expect([...TRANSFER_ROLES].sort()).toEqual(['admins', 'brokers']);
  });

  it('refuses deleted and complete assets first, whatever else is wrong', () => {
    for (const status of STATUSES) {
      const ended = status === 'deleted' || status === 'complete';
      expect(refusal(facts({ asset: asset({ status }), tokenMatches: false, transfer: undefined })), status).toEqual({
        status: 403,
        entry: [
          ended
            ? {
                location: 'body',
                name: 'data',
                description: `Can't update credentials in current (${status}) asset status`,
              }
            : { location: 'body', name: 'transfer', description: 'Invalid transfer' },
        ],
      });
    }
  });

  it('then a wrong transfer token, before an unknown transfer', () => {
    expect(refusal(facts({ tokenMatches: false, transfer: undefined }))).toEqual({
      status: 403,
      entry: [{ location: 'body', name: 'transfer', description: 'Invalid transfer' }],
    });
  });

  it('then an unknown transfer: 404 body / id', () => {
    expect(refusal(facts({ transfer: undefined }))).toEqual({
      status: 404,
      entry: [{ location: 'body', name: 'id', description: 'Not Found' }],
    });
  });

  it('then a transfer used or pending for another asset', () => {
    const elsewhere = transfer(markOn(B, H_OTHER));
    const usedThere = asset({ id: B, appliedTransfers: [T], transferTokenHash: H_T });
    const pendingThere = asset({ id: B, transferTokenHash: H_OTHER });
    for (const markedAsset of [usedThere, pendingThere]) {
      expect(refusal(facts({ transfer: elsewhere, markedAsset }))).toEqual({
        status: 403,
        entry: [{ location: 'body', name: 'transfer', description: 'Transfer already used' }],
      });
    }
  });

  it('applies an unused transfer, marking it first, from the token the caller proved', () => {
    expect(decideOwnership(facts())).toEqual({
      allowed: true,
      unchanged: false,
      transfer: transfer(),
      fromHash: H_CREATED,
      mark: true,
    });
  });

  it('takes a transfer whose mark on another asset nothing can finish (a lost race), marking it anew', () => {
    const lost = transfer(markOn(B, H_OTHER));
    const movedOn = asset({ id: B, transferTokenHash: 'z'.repeat(64), appliedTransfers: ['x'] });
    expect(decideOwnership(facts({ transfer: lost, markedAsset: movedOn }))).toMatchObject({
      allowed: true,
      mark: true,
    });
  });

  it('finishes a call cut short: the transfer is pending for this asset, no new mark', () => {
    const cutShort = transfer(markOn(A, H_CREATED));
    expect(decideOwnership(facts({ transfer: cutShort, markedAsset: asset() }))).toMatchObject({
      allowed: true,
      unchanged: false,
      mark: false,
    });
  });

  it('changes nothing when the asset already has the transfer’s tokens', () => {
    const applied = asset({ transferTokenHash: H_T, appliedTransfers: [T] });
    const used = transfer(markOn(A, H_CREATED));
    expect(decideOwnership(facts({ asset: applied, transfer: used, markedAsset: applied }))).toEqual({
      allowed: true,
      unchanged: true,
    });
  });

  it('refuses every call on an asset without a transfer token (created before transfers existed) as Invalid transfer', () => {
    expect(refusal(facts({ asset: asset({ transferTokenHash: null }), tokenMatches: false })).entry).toEqual([
      { location: 'body', name: 'transfer', description: 'Invalid transfer' },
    ]);
  });
});
