/** The asset operations: the caller's role, the checks in their order (docs/decisions/0014-order-of-checks.md). */
import type { components } from '../contract/generated/openapi.js';
import type { AssetRecord, AssetStore, AssetText, CreateStamp, WriteStamp } from '../store/types.js';
import type { Principal } from '../domain/callers.js';
import { ApiError, refusals } from '../domain/errors.js';
import type { JsonBytes, JsonObject, JsonText } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import { formatDate, nowMicros } from '../domain/dates.js';
import { formatAssetId, hashToken, newId, newToken, tokenMatches } from '../domain/ids.js';
import { creatableFields, decidePatch, isStatus, type Role, type Status } from '../domain/workflow.js';
import { applyPatch, buildNewAsset, sameContent, stampWrite } from '../domain/asset.js';
import { fieldsToRead, listingPageText, parseListingQuery, type ListedRow } from '../domain/listing.js';
import { checkAsset, checkInput } from '../domain/validation.js';
import {
  LOST_RACE,
  recordDraft,
  recordWrite,
  rememberingText,
  requestData,
  retryLostRaces,
  type KeptParts,
} from './records.js';
import { StoredValueError } from './served.js';

type Asset = components['schemas']['Asset'];
type ListingPage = components['schemas']['ListingPage'];

export interface AssetJson {
  id: string;
  text: JsonText<Asset>;
}

const MAX_PAGES_PER_ROWS = 16;

export interface AssetSettings {
  timeZone: string;
  assetIdPrefix: string;
}

/** Who asks: the key's holder, and the owner token when one was sent (query, header or body). */
export interface Caller {
  principal: Principal | undefined;
  token: string | undefined;
}

export interface LinkBase {
  path: string;
  origin: string;
}

/** A broker is the asset's owner only with its owner token. */
export function roleFor(caller: Caller, record: AssetRecord): Role {
  const { principal, token } = caller;
  if (principal === undefined) throw refusals.unauthorized();
  if (principal.role !== 'brokers') return principal.role;
  const owns =
    principal.name === record.asset.owner && token !== undefined && tokenMatches(token, record.ownerTokenHash);
  return owns ? 'owner' : 'brokers';
}

/** The name of the caller's API key (401 without one). */
export function authorOf(caller: Caller): string {
  if (caller.principal === undefined) throw refusals.unauthorized();
  return caller.principal.name;
}

export class AssetService {
  /** Keyed by the rows a store read: pages go with their rows. */
  private readonly pagesWritten = new WeakMap<readonly ListedRow[], Map<string, JsonBytes<ListingPage>>>();

  constructor(
    private readonly store: AssetStore,
    private readonly settings: AssetSettings,
  ) {}

  /** A page is a pure function of the rows read, the query and the links' base: written once per query and rows. */
  /** HEAD of a listing page: the query's refusals only, nothing read. */
  checkList(query: Record<string, unknown>): void {
    parseListingQuery(query, this.settings.timeZone);
  }

  async list(query: Record<string, unknown>, links: LinkBase): Promise<JsonBytes<ListingPage>> {
    const params = parseListingQuery(query, this.settings.timeZone);
    const fields = fieldsToRead(params.fields);
    const rows = await this.store.list({
      after: params.after,
      descending: params.descending,
      limit: params.limit,
      mode: params.mode,
      fields,
    });
    let written = this.pagesWritten.get(rows);
    if (written === undefined) {
      written = new Map();
      this.pagesWritten.set(rows, written);
    }
    const key = `${links.origin}|${links.path}|${params.offset}|${params.limitParam ?? ''}|${params.modeParam ?? ''}|${params.descending}|${params.fields.join(',')}`;
    let page = written.get(key);
    if (page === undefined) {
      page = Buffer.from(listingPageText(params, fields, rows, links));
      // Few ways of asking for the same rows are in use at once; the spellings of an offset are many.
      if (written.size >= MAX_PAGES_PER_ROWS) written.clear();
      written.set(key, page);
    }
    return page;
  }

  async read(id: string): Promise<AssetText & { bytes: JsonBytes<Asset> }> {
    const asset = await this.store.getText(id);
    if (asset === undefined) throw refusals.notFound('asset_id');
    return asset;
  }

  /** The owner token and the transfer token are returned this once and kept only as hashes. */
  async create(
    principal: Principal | undefined,
    body: unknown,
  ): Promise<{ token: string; transfer: string; asset: AssetJson }> {
    if (principal === undefined || principal.role === 'concierge') throw refusals.forbidden();
    const data = requestData(body);
    rejectInvalid(checkInput(data));

    const { timeZone, assetIdPrefix } = this.settings;
    const id = newId();
    const token = newToken();
    const transfer = newToken();
    // Validated before the store's write, so that a refusal never holds the write lock or uses up a day number.
    const candidate = buildNewAsset(creatableFields(data), {
      id,
      owner: principal.name,
      assetID: formatAssetId(assetIdPrefix, '2000-01-01', 1),
      now: formatDate(nowMicros(), timeZone),
    });
    rejectInvalid(checkAsset(candidate));
    const kept: KeptParts = {
      id,
      ownerTokenHash: hashToken(token),
      transferTokenHash: hashToken(transfer),
      appliedTransfers: [],
      documentHistory: [],
    };
    const creation = rememberingText((stamp: CreateStamp) => {
      const at = formatDate(stamp.now, timeZone);
      const asset: JsonObject = {
        ...candidate,
        assetID: formatAssetId(assetIdPrefix, stamp.day, stamp.dayIndex),
        date: at,
        dateModified: at,
      };
      return recordWrite({}, recordDraft(kept, asset, stamp.now), principal.name);
    });
    await this.store.create(creation.build);
    return { token, transfer, asset: { id, text: creation.text() } };
  }

  /** 404, the role and the move (403), the fields (422); a lost race is decided again on the newer version, or 409. */
  async patch(id: string, caller: Caller, body: unknown): Promise<AssetJson> {
    const data = requestData(body);
    // The sent data does not change between attempts: checked once, refused only after 404 and 403.
    const inputErrors = checkInput(data);
    return retryLostRaces(async () => {
      const record = await this.store.get(id);
      if (record === undefined) throw refusals.notFound('asset_id');
      const current = statusOf(record.asset);
      const decision = decidePatch(roleFor(caller, record), current, data);
      if (!decision.allowed) throw ApiError.one(403, 'body', 'data', decision.description);
      rejectInvalid(inputErrors);
      const next = applyPatch(record.asset, decision.changes, decision.target);
      rejectInvalid(checkAsset(next));
      if (sameContent(next, record.asset)) return assetJson(record.asset);

      const statusChanged = decision.target !== current;
      const author = authorOf(caller);
      const update = rememberingText((stamp: WriteStamp) =>
        recordWrite(
          record.asset,
          recordDraft(
            record,
            stampWrite(next, formatDate(stamp.now, this.settings.timeZone), statusChanged),
            stamp.now,
          ),
          author,
        ),
      );
      const saved = await this.store.update(record.id, record.rev, update.build);
      return saved === LOST_RACE ? LOST_RACE : { id, text: update.text() };
    });
  }
}

/** Not checked again: a write just judged it (`checkAsset`) or kept it, and reads serve stored text unchecked too. */
function assetJson(asset: JsonObject): AssetJson {
  return { id: String(asset.id), text: toJson(asset) };
}

/** A stored asset without one changed under the registry (500). */
function statusOf(asset: JsonObject): Status {
  if (!isStatus(asset.status))
    throw new StoredValueError(`A stored asset has no workflow status: ${String(asset.status)}`);
  return asset.status;
}

function rejectInvalid(errors: ReturnType<typeof checkInput>): void {
  if (errors.length > 0) throw refusals.invalid(errors);
}
