/** The transfer operations (docs/decisions/0033-ownership-transfer-in-two-writes.md). */
import type { components } from '../contract/generated/openapi.js';
import type { Principal } from '../domain/callers.js';
import type { AssetRecord, AssetStore, RecordDraft, TransferRecord } from '../store/types.js';
import { refusals } from '../domain/errors.js';
import { formatDate, nowMicros } from '../domain/dates.js';
import { hashToken, newId, newToken, tokenMatches } from '../domain/ids.js';
import { stampWrite } from '../domain/asset.js';
import { decideOwnership, TRANSFER_ROLES, transferView, type AssetCredentials } from '../domain/transfers.js';
import { checkOwnershipChange } from '../domain/validation.js';
import { LOST_RACE, recordWrite, requestData, retryLostRaces } from './records.js';
import { servedAsset } from './served.js';

type Asset = components['schemas']['Asset'];
type Transfer = components['schemas']['Transfer'];
type AccessGranted = components['schemas']['AccessGranted'];

export interface TransferSettings {
  timeZone: string;
}

/** 401 without a key: reading a transfer needs one too. */
function known(principal: Principal | undefined): Principal {
  if (principal === undefined) throw refusals.unauthorized();
  return principal;
}

function requireTransferRole(principal: Principal): void {
  if (!TRANSFER_ROLES.has(principal.role)) throw refusals.forbidden();
}

function credentialsOf(record: AssetRecord): AssetCredentials {
  return {
    id: record.id,
    status: record.asset.status,
    transferTokenHash: record.transferTokenHash,
    appliedTransfers: record.appliedTransfers,
  };
}

/** The asset with the transfer applied: its owner and tokens, the transfer in its record, a later `dateModified`. */
function handedOver(record: AssetRecord, transfer: TransferRecord, modified: number, timeZone: string): RecordDraft {
  const applied = record.appliedTransfers.includes(transfer.id)
    ? record.appliedTransfers
    : [...record.appliedTransfers, transfer.id];
  return {
    id: record.id,
    ownerTokenHash: transfer.ownerTokenHash,
    transferTokenHash: transfer.transferTokenHash,
    appliedTransfers: applied,
    documentHistory: record.documentHistory,
    modified,
    listed: record.listed,
    test: record.test,
    asset: stampWrite({ ...record.asset, owner: transfer.owner }, formatDate(modified, timeZone), false),
  };
}

export class TransferService {
  constructor(
    private readonly store: AssetStore,
    private readonly settings: TransferSettings,
  ) {}

  /** A new transfer owned by the caller; its two tokens are returned this once and kept only as hashes. */
  async create(
    principal: Principal | undefined,
    body: unknown,
  ): Promise<{ transfer: Transfer; access: AccessGranted }> {
    const owner = known(principal);
    requireTransferRole(owner);
    requestData(body);
    const token = newToken();
    const transferToken = newToken();
    const record: TransferRecord = {
      id: newId(),
      owner: owner.name,
      ownerTokenHash: hashToken(token),
      transferTokenHash: hashToken(transferToken),
      created: nowMicros(),
      mark: null,
    };
    await this.store.transfers.create(record);
    return { transfer: await this.served(record), access: { token, transfer: transferToken } };
  }

  /** A transfer as served: 401 without a key, 404 when unknown, 403 for the concierge. */
  async read(principal: Principal | undefined, id: string): Promise<Transfer> {
    const caller = known(principal);
    const record = await this.store.transfers.get(id);
    if (record === undefined) throw refusals.notFound('transfer_id');
    requireTransferRole(caller);
    return this.served(record);
  }

  /**
   * 404 for the asset, 403 for the concierge, 422 for the fields, then the checks of domain/transfers.ts in their
   * order. The transfer is marked for the asset, then the asset changes hands; a race lost on either is decided again
   * from fresh reads until the retry budget runs out (409).
   */
  async changeOwnership(principal: Principal | undefined, assetId: string, body: unknown): Promise<Asset> {
    const data = requestData(body);
    // Checked once; refused only after 404 and 403 (order of checks).
    const fieldErrors = checkOwnershipChange(data);
    return retryLostRaces(async () => {
      const record = await this.store.get(assetId);
      if (record === undefined) throw refusals.notFound('asset_id');
      requireTransferRole(known(principal));
      if (fieldErrors.length > 0) throw refusals.invalid(fieldErrors);
      // Strings: checkOwnershipChange found nothing.
      const transferId = data.id as string;
      const sentToken = data.transfer as string;

      const transfer = await this.store.transfers.get(transferId);
      const mark = transfer?.mark ?? null;
      const markedAsset =
        mark === null ? undefined : mark.assetId === record.id ? record : await this.store.get(mark.assetId);
      const decision = decideOwnership({
        asset: credentialsOf(record),
        tokenMatches: record.transferTokenHash !== null && tokenMatches(sentToken, record.transferTokenHash),
        transfer,
        markedAsset: markedAsset && credentialsOf(markedAsset),
      });
      if (!decision.allowed) throw decision.refusal;
      if (decision.unchanged) return servedAsset(record.asset);

      if (decision.mark) {
        const next = { assetId: record.id, fromHash: decision.fromHash, at: nowMicros() };
        if (!(await this.store.transfers.setMark(decision.transfer.id, mark, next))) return LOST_RACE;
      }
      // The caller is the author of the ownership change, whoever the new owner is
      // (docs/decisions/0036-revisions-are-json-patches.md).
      const author = known(principal).name;
      const saved = await this.store.update(record.id, record.rev, (stamp) =>
        recordWrite(record.asset, handedOver(record, decision.transfer, stamp.now, this.settings.timeZone), author),
      );
      return saved === LOST_RACE ? LOST_RACE : servedAsset(saved.asset);
    });
  }

  private async served(record: TransferRecord): Promise<Transfer> {
    const marked = record.mark === null ? undefined : await this.store.get(record.mark.assetId);
    const view = transferView(record, marked && credentialsOf(marked));
    const transfer: Transfer = { id: record.id, date: formatDate(view.date, this.settings.timeZone) };
    if (view.usedFor !== undefined) transfer.usedFor = view.usedFor;
    return transfer;
  }
}
