/**
 * Ownership transfer in two writes (docs/decisions/0033-ownership-transfer-in-two-writes.md): the transfer is
 * marked for the asset, then the asset lists it in `appliedTransfers`. The asset's write decides. A mark the asset
 * does not list is `pending` while the asset still has the token the mark was made with (sending the call again
 * finishes it), else a lost race and the transfer is free.
 */
import type { ApiRole } from './callers.js';
import { ApiError } from './errors.js';
import { isStatus, type Status } from './workflow.js';

/** Create, read and apply transfers; the concierge may not. */
export const TRANSFER_ROLES: ReadonlySet<ApiRole> = new Set<ApiRole>(['brokers', 'admins']);

const TRANSFERABLE: Readonly<Record<Status, boolean>> = {
  draft: true,
  pending: true,
  verification: true,
  active: true,
  complete: false,
  deleted: false,
};

/** A call is applying (or has applied) the transfer to `assetId`. */
export interface TransferMark {
  assetId: string;
  /** The asset's transfer token hash the call proved. */
  fromHash: string;
  /** Microseconds. */
  at: number;
}

export interface AssetCredentials {
  id: string;
  status: unknown;
  /** `null` for assets created before transfers existed: no token matches it. */
  transferTokenHash: string | null;
  appliedTransfers: readonly string[];
}

export interface TransferState {
  id: string;
  transferTokenHash: string;
  mark: TransferMark | null;
}

export type Standing = 'unused' | 'pending' | 'used';

function transferable(status: unknown): boolean {
  return isStatus(status) && TRANSFERABLE[status];
}

/** `marked`: the record of the asset the mark names. */
export function standingOf(transfer: TransferState, marked: AssetCredentials | undefined): Standing {
  const mark = transfer.mark;
  if (mark === null || marked === undefined || marked.id !== mark.assetId) return 'unused';
  if (marked.appliedTransfers.includes(transfer.id)) return 'used';
  if (marked.transferTokenHash === mark.fromHash && transferable(marked.status)) return 'pending';
  return 'unused';
}

/** `date` is the mark's while used or pending, as the original stamps a transfer when it is used. */
export function transferView(
  transfer: TransferState & { created: number },
  marked: AssetCredentials | undefined,
): { date: number; usedFor?: string } {
  const mark = transfer.mark;
  if (mark === null || standingOf(transfer, marked) === 'unused') return { date: transfer.created };
  return { date: mark.at, usedFor: `/assets/${mark.assetId}` };
}

/** Read by the service beforehand. */
export interface OwnershipFacts<T extends TransferState = TransferState> {
  asset: AssetCredentials;
  /** Whether the `transfer` token sent hashes to the asset's transfer token hash. */
  tokenMatches: boolean;
  transfer: T | undefined;
  /** The asset the transfer's mark names; absent without a mark. */
  markedAsset: AssetCredentials | undefined;
}

export type OwnershipDecision<T extends TransferState = TransferState> =
  | { allowed: false; refusal: ApiError }
  /** The asset already has this transfer's tokens: nothing to write. */
  | { allowed: true; unchanged: true }
  /** `mark`: mark it with `fromHash` first, as it is neither used nor pending for the asset yet. */
  | { allowed: true; unchanged: false; transfer: T; fromHash: string; mark: boolean };

interface OwnershipCheck {
  refuses(facts: OwnershipFacts): boolean;
  refusal(facts: OwnershipFacts): ApiError;
}

/** The checks after the asset's existence, the caller's role and the fields, in the record's order. */
const OWNERSHIP_CHECKS: readonly OwnershipCheck[] = [
  {
    refuses: (facts) => !transferable(facts.asset.status),
    refusal: (facts) =>
      ApiError.one(
        403,
        'body',
        'data',
        `Can't update credentials in current (${String(facts.asset.status)}) asset status`,
      ),
  },
  {
    refuses: (facts) => !facts.tokenMatches,
    refusal: () => ApiError.one(403, 'body', 'transfer', 'Invalid transfer'),
  },
  {
    refuses: (facts) => facts.transfer === undefined,
    refusal: () => ApiError.one(404, 'body', 'id', 'Not Found'),
  },
  {
    refuses: ({ transfer, asset, markedAsset }) =>
      transfer !== undefined &&
      transfer.mark !== null &&
      transfer.mark.assetId !== asset.id &&
      standingOf(transfer, markedAsset) !== 'unused',
    refusal: () => ApiError.one(403, 'body', 'transfer', 'Transfer already used'),
  },
];

export function decideOwnership<T extends TransferState>(facts: OwnershipFacts<T>): OwnershipDecision<T> {
  const failed = OWNERSHIP_CHECKS.find((check) => check.refuses(facts));
  if (failed !== undefined) return { allowed: false, refusal: failed.refusal(facts) };
  const { transfer, asset } = facts;
  if (transfer === undefined || asset.transferTokenHash === null) {
    throw new Error('the checks let through a missing transfer or an asset without a transfer token');
  }
  if (asset.transferTokenHash === transfer.transferTokenHash) return { allowed: true, unchanged: true };
  const mark = standingOf(transfer, facts.markedAsset) === 'unused';
  return { allowed: true, unchanged: false, transfer, fromHash: asset.transferTokenHash, mark };
}
