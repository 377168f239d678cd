/**
 * Ownership transfer (decisions.md §10) as pure rules: who may call, in which statuses an asset may change hands,
 * the order of the checks of `POST /assets/{id}/ownership`, and where a transfer stands.
 *
 * Applying a transfer takes two writes. First the transfer is marked for the asset (a compare-and-set on the
 * transfer), then the asset takes the transfer's owner and tokens and lists the transfer in its
 * `appliedTransfers` (a compare-and-set on the asset's revision). The asset's write decides: a transfer is used
 * for an asset when that asset lists it. A mark the asset does not list is one of two things:
 * - a call cut short between the writes: the asset still has the transfer token the mark was made with, so the
 *   same call sent again finishes the job. Until then the transfer counts as used (`pending`) and shows `usedFor`;
 * - a race lost (or a call cut short whose asset has moved on since): the asset has another transfer token now,
 *   or has ended, so no call can finish the mark any more. The transfer is not used; it may be applied elsewhere.
 */
import type { ApiRole } from './callers.js';
import { ApiError } from './errors.js';
import { isStatus, type Status } from './workflow.js';

/** The roles that may create, read and apply transfers; the concierge may not (decisions.md §10). */
export const TRANSFER_ROLES: ReadonlySet<ApiRole> = new Set<ApiRole>(['brokers', 'admins']);

/** Whether an asset in each status may change hands: not once it is deleted or complete. */
export const TRANSFERABLE: Readonly<Record<Status, boolean>> = {
  draft: true,
  pending: true,
  verification: true,
  active: true,
  complete: false,
  deleted: false,
};

/** A transfer's mark: a call is applying (or has applied) it to `assetId`. */
export interface TransferMark {
  assetId: string;
  /** The asset's transfer token hash that the call proved when it made the mark. */
  fromHash: string;
  /** When the mark was made, microseconds since the epoch. */
  at: number;
}

/** What the rules need of an asset's record. */
export interface AssetCredentials {
  id: string;
  status: unknown;
  /** `null` for assets created before transfers existed: no token matches it. */
  transferTokenHash: string | null;
  appliedTransfers: readonly string[];
}

/** What the rules need of a transfer's record. */
export interface TransferState {
  id: string;
  transferTokenHash: string;
  mark: TransferMark | null;
}

/**
 * `used`: the marked asset lists the transfer. `pending`: a call was cut short and sending it again finishes it.
 * `unused`: no mark, or a mark nothing can finish any more (the transfer is free).
 */
export type Standing = 'unused' | 'pending' | 'used';

function transferable(status: unknown): boolean {
  return isStatus(status) && TRANSFERABLE[status];
}

/** Where a transfer stands, from its mark and the record of the asset the mark names (absent when none). */
export function standingOf(transfer: TransferState, marked: AssetCredentials | undefined): Standing {
  const mark = transfer.mark;
  if (mark === null || marked === undefined || marked.id !== mark.assetId) return 'unused';
  if (marked.appliedTransfers.includes(transfer.id)) return 'used';
  if (marked.transferTokenHash === mark.fromHash && transferable(marked.status)) return 'pending';
  return 'unused';
}

/**
 * What a transfer shows besides its id: `usedFor`, the marked asset's path while the transfer is used or pending,
 * and `date`, the moment of that mark (as the original stamps a transfer when it is used), else its creation.
 */
export function transferView(
  transfer: TransferState & { created: number },
  marked: AssetCredentials | undefined,
): { date: number; usedFor?: string } {
  const mark = transfer.mark;
  if (mark === null || standingOf(transfer, marked) === 'unused') return { date: transfer.created };
  return { date: mark.at, usedFor: `/assets/${mark.assetId}` };
}

/** Everything the checks of an ownership change look at, read by the caller (service) beforehand. */
export interface OwnershipFacts<T extends TransferState = TransferState> {
  asset: AssetCredentials;
  /** Whether the `transfer` token sent hashes to the asset's transfer token hash. */
  tokenMatches: boolean;
  /** The transfer named by `id`; absent when there is none. */
  transfer: T | undefined;
  /** The asset the transfer's mark names (this asset's record when it names this one); absent without a mark. */
  markedAsset: AssetCredentials | undefined;
}

export type OwnershipDecision<T extends TransferState = TransferState> =
  | { allowed: false; refusal: ApiError }
  /** The asset already has this transfer's tokens: nothing to write. */
  | { allowed: true; unchanged: true }
  /**
   * Apply `transfer`. `mark`: it must first be marked for the asset, with `fromHash` (the asset's transfer token
   * hash, which the caller proved), as it is neither used nor pending for the asset yet.
   */
  | { allowed: true; unchanged: false; transfer: T; fromHash: string; mark: boolean };

interface OwnershipCheck {
  refuses(facts: OwnershipFacts): boolean;
  refusal(facts: OwnershipFacts): ApiError;
}

/** The checks after the asset's existence, the caller's role and the fields, in the order of decisions.md §10. */
export const OWNERSHIP_CHECKS: readonly OwnershipCheck[] = [
  {
    refuses: (facts) => !transferable(facts.asset.status),
    refusal: (facts) =>
      ApiError.one(403, 'body', 'data', `Can't update credentials in current (${String(facts.asset.status)}) asset status`),
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

/** The first check that refuses, or what applying the transfer takes. */
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
