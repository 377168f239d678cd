/**
 * The four operations on assets. Handlers stay thin: the rules live in src/domain, the data in the store.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AssetRecord, AssetStore } from '../store/types.js';
import { ApiError } from '../domain/errors.js';
import { isJsonObject, type JsonObject } from '../domain/json.js';
import { formatDate, nowMicros } from '../domain/dates.js';
import { formatAssetId, hashToken, newId, newToken, tokenMatches } from '../domain/ids.js';
import { creatableFields, decidePatch, type Role, type Status } from '../domain/workflow.js';
import { applyPatch, buildNewAsset, sameContent, stampWrite } from '../domain/asset.js';
import { buildListingPage, parseListingQuery } from '../domain/listing.js';
import { checkAsset, checkInput } from '../domain/validation.js';
import { notDecodable } from '../plugins/content.js';
import { unauthorized } from '../plugins/auth.js';
import type { components, operations } from '../generated/openapi.js';

export const API_PREFIX = '/api/0.1';
const COLLECTION = `${API_PREFIX}/assets`;
const ITEM = `${COLLECTION}/:asset_id`;

/** How often a PATCH that lost a race is re-applied to the newer version before answering 409. */
const UPDATE_ATTEMPTS = 5;

/** The contract's types of the four operations (src/generated, from openapi/openapi.yaml). */
type Asset = components['schemas']['Asset'];
type ItemParams = operations['getAsset']['parameters']['path'];
type ListingQuery = NonNullable<operations['listAssets']['parameters']['query']>;
type ListingReply = operations['listAssets']['responses'][200]['content']['application/json'];
type CreatedReply = operations['createAsset']['responses'][201]['content']['application/json'];
type AssetReply = operations['getAsset']['responses'][200]['content']['application/json'];
type PatchedReply = operations['patchAsset']['responses'][200]['content']['application/json'];

/** A stored document as the contract types it: every stored asset passed `checkAsset`, compiled from that schema. */
const served = (asset: JsonObject): Asset => asset as unknown as Asset;

/** `{ data: {...} }` with an object `data`, as every write must send (spec: one top-level object named data). */
function requestData(body: unknown): JsonObject {
  if (!isJsonObject(body) || !isJsonObject(body.data)) throw notDecodable();
  return body.data;
}

function rejectInvalid(errors: ReturnType<typeof checkInput>): void {
  if (errors.length > 0) throw new ApiError(422, errors);
}

const notFound = (): ApiError => ApiError.one(404, 'url', 'asset_id', 'Not Found');

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The owner token: `acc_token` query, `X-Access-Token` header, or `access.token` in the body. */
function ownerToken(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown>;
  if (typeof query.acc_token === 'string') return query.acc_token;
  const header = request.headers['x-access-token'];
  if (typeof header === 'string') return header;
  const body = request.body;
  if (isJsonObject(body) && isJsonObject(body.access) && typeof body.access.token === 'string') return body.access.token;
  return undefined;
}

function roleFor(request: FastifyRequest, record: AssetRecord): Role {
  const principal = request.principal;
  if (principal === undefined) throw unauthorized();
  if (principal.role !== 'brokers') return principal.role;
  const token = ownerToken(request);
  const owns = principal.name === record.asset.owner && token !== undefined && tokenMatches(token, record.ownerTokenHash);
  return owns ? 'owner' : 'brokers';
}

function toDraft(record: AssetRecord, asset: JsonObject, modified: number) {
  return {
    id: record.id,
    ownerTokenHash: record.ownerTokenHash,
    transferTokenHash: record.transferTokenHash,
    appliedTransfers: record.appliedTransfers,
    modified,
    listed: asset.status !== 'draft',
    test: asset.mode === 'test',
    asset,
  };
}

export default async function assetRoutes(app: FastifyInstance, options: { config: Config; store: AssetStore }): Promise<void> {
  const { config, store } = options;
  const tz = config.timeZone;

  app.get<{ Querystring: ListingQuery; Reply: ListingReply }>(COLLECTION, async (request) => {
    const params = parseListingQuery(request.query, tz);
    const rows = await store.list({
      after: params.after,
      descending: params.descending,
      limit: params.limit,
      mode: params.mode,
      withAssets: params.fields.length > 0,
    });
    // Listing entries are `id`, `dateModified` and fields of validated assets: the contract's ListingPage.
    return buildListingPage(params, rows, { path: COLLECTION, origin: origin(request) }) as ListingReply;
  });

  app.post<{ Reply: CreatedReply }>(COLLECTION, async (request, reply) => {
    const principal = request.principal;
    if (principal === undefined || principal.role === 'concierge') {
      throw ApiError.one(403, 'url', 'permission', 'Forbidden');
    }
    const data = requestData(request.body);
    rejectInvalid(checkInput(data));

    const id = newId();
    const token = newToken();
    const transfer = newToken();
    const now = nowMicros();
    // Validated before the store's write so that a refusal never holds the write lock or consumes a counter value.
    const candidate = buildNewAsset(creatableFields(data), {
      id,
      owner: principal.name,
      assetID: formatAssetId(config.assetIdPrefix, '2000-01-01', 1),
      now: formatDate(now, tz),
    });
    rejectInvalid(checkAsset(candidate));

    const record = await store.create((stamp) => {
      const at = formatDate(stamp.now, tz);
      const asset: JsonObject = {
        ...candidate,
        assetID: formatAssetId(config.assetIdPrefix, stamp.day, stamp.dayIndex),
        date: at,
        dateModified: at,
      };
      return {
        id,
        ownerTokenHash: hashToken(token),
        transferTokenHash: hashToken(transfer),
        appliedTransfers: [],
        modified: stamp.now,
        listed: false,
        test: asset.mode === 'test',
        asset,
      };
    });
    return reply
      .code(201)
      .header('location', `${origin(request)}${COLLECTION}/${id}`)
      .send({ access: { token, transfer }, data: served(record.asset) });
  });

  app.get<{ Params: ItemParams; Reply: AssetReply }>(ITEM, async (request) => {
    const record = await store.get(request.params.asset_id);
    if (record === undefined) throw notFound();
    return { data: served(record.asset) };
  });

  app.patch<{ Params: ItemParams; Reply: PatchedReply }>(ITEM, async (request) => {
    const data = requestData(request.body);
    // The sent data does not change between attempts: checked once, refused only after 404 and 403 (order of checks).
    const inputErrors = checkInput(data);
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
      const record = await store.get(request.params.asset_id);
      if (record === undefined) throw notFound();
      const current = record.asset.status as Status;
      const decision = decidePatch(roleFor(request, record), current, data);
      if (!decision.allowed) throw ApiError.one(403, 'body', 'data', decision.description);
      rejectInvalid(inputErrors);
      const next = applyPatch(record.asset, decision.changes, decision.target);
      rejectInvalid(checkAsset(next));
      if (sameContent(next, record.asset)) return { data: served(record.asset) };

      const statusChanged = decision.target !== current;
      const saved = await store.update(record.id, record.rev, (stamp) =>
        toDraft(record, stampWrite(next, formatDate(stamp.now, tz), statusChanged), stamp.now),
      );
      if (saved !== 'conflict') return { data: served(saved.asset) };
    }
    throw ApiError.one(409, 'body', 'data', 'The asset was changed by concurrent requests; repeat the request');
  });

  const notAllowed = (allow: string) => async (request: FastifyRequest) => {
    throw new ApiError(
      405,
      [{ location: 'method', name: 'method', description: `${request.method} is not allowed here; this path accepts ${allow}` }],
      { allow },
    );
  };
  app.route({ method: ['PUT', 'DELETE', 'PATCH', 'OPTIONS'], url: COLLECTION, config: { methodNotAllowed: true }, handler: notAllowed('GET, HEAD, POST') });
  app.route({ method: ['PUT', 'DELETE', 'POST', 'OPTIONS'], url: ITEM, config: { methodNotAllowed: true }, handler: notAllowed('GET, HEAD, PATCH') });
}
