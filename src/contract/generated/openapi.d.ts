// generated from openapi/openapi.yaml by scripts/generate.ts — do not edit; run `npm run generate`
export interface paths {
    "/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assets, oldest change first
         * @description A feed of every asset that has left `draft`, ordered by `dateModified`. Each entry holds `id` and
         *     `dateModified`, plus the fields named in `opt_fields`. Follow `next_page` to read on; at the end of the
         *     feed `data` is empty and `next_page` repeats the same offset, which the client polls again later. A client
         *     that follows `next_page` from the start sees the final `dateModified` of every listed asset, none skipped
         *     and none listed twice at the same `dateModified`. Deleted assets are listed, drafts never.
         */
        get: operations["listAssets"];
        put?: never;
        /**
         * Create an asset
         * @description Creates a `draft` asset owned by the API key's holder (role `brokers`) and returns it with its owner token
         *     and its transfer token (see `POST /assets/{asset_id}/ownership`), which are shown this once. `status` sent
         *     here is ignored. Fields that are generated (`id`, `assetID`, `date`, `dateModified`, `owner`) are accepted
         *     and ignored, and so is `documents` whatever it holds (documents are attached with
         *     `POST /assets/{asset_id}/documents`); unknown fields are refused.
         */
        post: operations["createAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the feed as a stream of Server-Sent Events
         * @description The listing feed, pushed: a `text/event-stream` (Server-Sent Events) that sends every change of a listed asset
         *     as an event, within a second of the answer to the write (100 ms at p99 on one node is the target). The stream
         *     shows exactly what following `next_page` of the listing shows, in the same order: the feed entry of each
         *     asset with its `dateModified` at the time it is sent. An asset written several times between two events may
         *     be sent once, with its latest `dateModified`.
         *
         *     **Where it starts.** After `Last-Event-ID` (the header browsers resend on reconnect; it wins over the query),
         *     else after `offset`, else at the start of the feed. Both take a `dateModified` value, as the listing's
         *     `offset` does; an event's id is one. A position later than both the newest entry of the feed and the
         *     server's clock is refused with 400 (`header` / `Last-Event-ID`, or `querystring` / `offset`): no event would
         *     ever come.
         *
         *     **Events.** The stream opens with `retry: 1000` (reconnect after one second), then each event is
         *
         *     ```
         *     id: 2018-01-09T18:31:03.936033+02:00
         *     data: {"id":"6aa3093c0b00447abefcacf9a11da277","dateModified":"2018-01-09T18:31:03.936033+02:00"}
         *
         *     ```
         *
         *     where `data` is one line of JSON shaped as a listing entry (the `ListingItem` schema: `id`, `dateModified`
         *     and the fields named in `opt_fields`) and `id` is its `dateModified`. Event ids strictly increase. A stream
         *     that has nothing to send sends a comment line (`: keep-alive`) at least every 15 seconds, so that proxies
         *     keep an idle stream open.
         *
         *     **Nothing skipped, nothing twice.** A client that reconnects with its last event id (to the same node or
         *     another, before or after a restart) sees every change after it: none skipped, none twice. A change written
         *     on any node reaches the streams of every node.
         *
         *     **Limits.** At most `STREAM_MAX_CLIENTS` streams per node (1000 unless set), and `STREAM_MAX_PER_CLIENT`
         *     per client address (100 unless set): beyond, 503 with `Retry-After`. A client that leaves more than 1 MiB
         *     unread for 30 seconds is disconnected (it resumes with `Last-Event-ID`); nothing is buffered for it without
         *     bound, and no more than one event beyond that bound is ever written to it. When the node shuts down, its streams end
         *     cleanly and clients reconnect. The cluster cookie, rate limit and key rules are those of any GET.
         */
        get: operations["streamAssetChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{asset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        /**
         * Read one asset
         * @description The whole asset as it stands now. No key is needed and drafts are readable by id. `opt_fields` is
         *     ignored here.
         *
         *     The answer carries the asset's version as a weak `ETag`. A reader that keeps assets (a mirror) sends the
         *     tag back in `If-None-Match` and, while the asset is unchanged, gets `304 Not Modified` without a body.
         */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an asset or move it along its workflow
         * @description Merges `data` into the asset: objects merge deeply, lists merge element by element (the result has the
         *     sent list's length), `null` does not clear. Sending `status` moves the asset:
         *
         *     | From | To | Who |
         *     |---|---|---|
         *     | draft | pending | owner, admins |
         *     | pending | deleted | owner, admins |
         *     | pending | verification | concierge, admins |
         *     | verification | active (needs `relatedLot`) | concierge, admins |
         *     | verification | pending | concierge, admins |
         *     | active | pending (clears `relatedLot`) | concierge, admins |
         *     | active | complete | concierge, admins |
         *
         *     The owner (the creating broker with the owner token) edits fields in `draft` and `pending`; the concierge
         *     may write only `status` and `relatedLot`; admins `status`, `mode` and `relatedLot`. Fields a role may not
         *     write are ignored. `dateModified` changes only when something changed; `date` changes on every move.
         *
         *     The owner token may be given as the `acc_token` query parameter, the `X-Access-Token` header or
         *     `access.token` in the body.
         */
        patch: operations["patchAsset"];
        trace?: never;
    };
    "/assets/{asset_id}/ownership": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hand the asset to the owner of a transfer
         * @description Applies a transfer to the asset: `owner` becomes the broker who created the transfer, and the transfer's
         *     tokens (`access.token` and `access.transfer` of its creation answer) become the asset's owner token and
         *     transfer token. The old owner token stops working. The asset's `dateModified` moves (it is listed again);
         *     `date` and everything else stay. The transfer is then used for this asset (`usedFor`) and for no other.
         *
         *     Any broker or admin may call it; no owner token is needed, the asset's transfer token is the proof. The
         *     checks, in this order, come after the cluster cookie, rate, key, body and the asset's existence:
         *
         *     | Check | Answer |
         *     |---|---|
         *     | the caller is the concierge | 403 `url` / `permission` / `Forbidden` |
         *     | `id` or `transfer` missing, or not a non-empty string | 422, one entry per field (`This field is required.` when missing) |
         *     | the asset is `deleted` or `complete` | 403 `body` / `data` / `Can't update credentials in current (<status>) asset status` |
         *     | `transfer` is not the asset's transfer token | 403 `body` / `transfer` / `Invalid transfer` |
         *     | no transfer with this `id` | 404 `body` / `id` / `Not Found` |
         *     | the transfer is used for another asset | 403 `body` / `transfer` / `Transfer already used` |
         *
         *     Assets created before ownership transfers existed have no transfer token: every call on them is
         *     `Invalid transfer`.
         *
         *     A call cut short (the registry stopped after marking the transfer and before changing the asset) is
         *     finished by sending it again: the asset's transfer token has not changed yet and the transfer names this
         *     asset. Once the call has been answered 200, the same call again is `Invalid transfer` (the token it carries
         *     is no longer the asset's) and changes nothing. When two transfers race for one asset, one is applied and
         *     the other is answered `Invalid transfer`; the losing transfer is not used and can be applied elsewhere.
         *     A 409 (the asset kept changing under the call) may leave the transfer marked for the asset, as a call cut
         *     short does: repeat it.
         */
        post: operations["changeAssetOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{asset_id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        /**
         * Read an asset's history, oldest revision first
         * @description Every change of what `GET /assets/{asset_id}` serves, one revision per write: the creation (revision 1), a
         *     PATCH that changed something, a document added or changed, an ownership change. Each holds who made it,
         *     when, and the JSON Patch (RFC 6902) that turns the asset as served before into the asset as served after;
         *     applying the `changes` of revisions 1 … n in order to `{}` gives the asset as served after revision n. No
         *     key is needed, drafts included.
         *
         *     Pages follow `next_page`, as in the listing: its `offset` is the last `rev` of the page (the same `offset`
         *     when the page is empty), so a client that keeps polling it sees each new revision once. An unknown asset is
         *     404 before `limit` and `offset` are read.
         *
         *     A page is also bounded in bytes: it ends before the revision that would take the answer (compact JSON,
         *     before `opt_pretty` or `opt_jsonp`) past 4 MiB (the `HISTORY_PAGE_BYTES` setting), so it may hold fewer
         *     than `limit` revisions while more follow; it always holds at least one when one is left, however large.
         *     `limit` stays an upper bound. Read on from `next_page` until a page comes back empty.
         */
        get: operations["listAssetRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{asset_id}/revisions/{rev}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description A revision's number (`rev`), a whole number from 1 without leading zeros; anything else is 400.
                 * @example 2
                 */
                rev: components["parameters"]["RevisionPath"];
            };
            cookie?: never;
        };
        /**
         * Read an asset as it was after one revision
         * @description The asset exactly as `GET /assets/{asset_id}` served it right after revision `rev` (its `changes` applied
         *     to the revisions before it); for the last revision, the asset as it is now. No key is needed. `opt_fields`
         *     does not apply. The registry keeps the asset whole every 100 revisions, so this reads at most 99
         *     revisions' changes however long the history.
         */
        get: operations["getAssetRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/log/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The transparency log's latest checkpoint
         * @description The latest checkpoint of the log of every revision (C2SP tlog-checkpoint: the origin, the tree size, the
         *     base64 RFC 6962 root hash, a line each) as a C2SP signed note, signed with the log's Ed25519 key. Verify it
         *     with the verifier key obtained out of band (`GET /log/vkey` only says which key the registry claims), then
         *     read the tree from the tiles. A revision is in a checkpoint within 2 s of the answer to its write; a later
         *     checkpoint is always consistent with every earlier one. 404 `url` / `checkpoint` / `Not Found` before the
         *     first one is signed. No key is needed.
         */
        get: operations["getLogCheckpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/log/vkey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The verifier key the log's checkpoints are signed with
         * @description The note verifier key of the log (`<origin>+<8 hex digits of key id>+<base64 of 0x01 and the Ed25519 public
         *     key>`, as golang.org/x/mod/sumdb/note reads it). Its name is the checkpoints' origin. A verifier must not
         *     take it from here: a registry that rewrote its history would serve the key of its new log. Compare it with
         *     the key published out of band (the operator's own channel); it is served for that comparison.
         */
        get: operations["getLogVerifierKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/log/tile/{level}/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The tile's level, a whole number from 0 written without leading zeros.
                 * @example 0
                 */
                level: components["parameters"]["LogTileLevel"];
                /**
                 * @description The tile's index as tlog-tiles writes it, across path segments: groups of three digits, all but the last
                 *     prefixed with `x` (`1234067` is `x001/x234/067`), followed by `.p/<W>` (W from 1 to 255) for the first `W`
                 *     entries of a partial tile.
                 * @example 000.p/1
                 */
                index: components["parameters"]["LogTileIndex"];
            };
            cookie?: never;
        };
        /**
         * A hash tile of the log
         * @description A hash tile of height 8 (C2SP tlog-tiles): the 256 hashes of level `level` from 256 × `index` on, 32
         *     bytes each, or, at `<index>.p/<W>`, the first `W` of them. Level 0 holds the RFC 6962 leaf hashes
         *     (SHA-256 of a zero byte and the entry), level `L` the roots of the complete subtrees of 256^L entries. A
         *     tile the latest checkpoint does not cover (yet) is 404 `url` / `tile` / `Not Found`; a path tlog-tiles
         *     would not write is 404 as any unknown path. Full tiles never change and may be cached for ever.
         */
        get: operations["getLogHashTile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/log/tile/entries/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The tile's index as tlog-tiles writes it, across path segments: groups of three digits, all but the last
                 *     prefixed with `x` (`1234067` is `x001/x234/067`), followed by `.p/<W>` (W from 1 to 255) for the first `W`
                 *     entries of a partial tile.
                 * @example 000.p/1
                 */
                index: components["parameters"]["LogTileIndex"];
            };
            cookie?: never;
        };
        /**
         * An entry bundle of the log
         * @description The entries 256 × `index` … 256 × `index` + 255 of the log (C2SP tlog-tiles), or at `<index>.p/<W>` the
         *     first `W` of them, each as a big-endian 16-bit length followed by its bytes. An entry is the UTF-8 of the
         *     RFC 8785 (JCS) serialisation of `{"asset", "rev", "date", "author", "changes"}`: a revision of
         *     `GET /assets/{asset_id}/revisions` with its `changes` replaced by the hex SHA-256 of their JCS
         *     serialisation. Entries are in the order the registry committed the revisions (an asset's in `rev` order);
         *     a revision's `logIndex` is its place. 404 as for the hash tiles.
         */
        get: operations["getLogEntryBundle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a transfer
         * @description Creates a transfer owned by the API key's holder (brokers and admins; the concierge gets 403): the broker
         *     who will own an asset once the transfer is applied to it. The answer holds the transfer's two tokens,
         *     shown this once and kept only as hashes: `access.token` becomes the asset's owner token and
         *     `access.transfer` its transfer token (to hand it on later). Fields sent in `data` are ignored. There is no
         *     listing of transfers (`GET /transfers` is 405).
         */
        post: operations["createTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transfers/{transfer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The transfer's `id`, 32 lowercase hexadecimal characters.
                 * @example f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
                 */
                transfer_id: components["parameters"]["TransferIdPath"];
            };
            cookie?: never;
        };
        /**
         * Read one transfer
         * @description The transfer's id, its date and, once it has been applied, the asset it was used for. Unlike assets,
         *     reading a transfer needs a key (brokers and admins): no key or an unknown one is 401, the concierge 403.
         *     The tokens are never shown again.
         */
        get: operations["getTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{asset_id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        /**
         * List an asset's documents
         * @description The latest version of each document of the asset, ordered by `dateModified` (oldest first). With `all`,
         *     every version of every document instead, in the order they were written. No key is needed.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Attach a document to an asset
         * @description Attaches a file already stored by the document service: `url` and `hash` are those `POST /ds/upload`
         *     answered, `title` and `format` usually too. The registry generates `id`, `datePublished`, `dateModified`
         *     (the same moment, which also becomes the asset's `dateModified`) and `author` (`asset_owner` for the owner,
         *     `admins` for an administrator); sent values of these are ignored. `documentOf` defaults to `asset`.
         *
         *     Who and when: the owner (the creating broker with the owner token, given as `acc_token`, `X-Access-Token`
         *     or `access.token`) and admins, while the asset is `draft` or `pending`. Anyone else is refused with 403
         *     `url` / `permission` / `Forbidden`; another status with 403 `body` / `data` / `Can't update document in
         *     current (<status>) asset status`.
         *
         *     The `url` must come from a document service: this registry's own (`<origin>/api/0.1/ds/get/<key>` with
         *     exactly the query parameters `KeyID` and `Signature`, on the origin the request came in by or on the
         *     `PUBLIC_URL` setting) or the external one named by the `DS_DOWNLOAD_URL` setting
         *     (`<DS_DOWNLOAD_URL>/get/<key>?KeyID=…&Signature=…`). These checks come after field validation:
         *
         *     | Problem | Status | Error |
         *     |---|---|---|
         *     | a URL of another place or shape | 403 | `body` / `url` / `Can add document only from document service.` |
         *     | a `KeyID` the registry does not know | 422 | `body` / `url` / `Document url expired.` |
         *     | a `Signature` that is not base64 | 422 | `body` / `url` / `Document url signature invalid.` |
         *     | a signature that does not verify for the key and `hash` | 422 | `body` / `url` / `Document url invalid.` |
         */
        post: operations["createDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{asset_id}/documents/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description The document's `id`, 32 lowercase hexadecimal characters.
                 * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
                 */
                document_id: components["parameters"]["DocumentIdPath"];
            };
            cookie?: never;
        };
        /**
         * Read one document, with its history
         * @description The latest version of the document. `previousVersions` lists its older versions, oldest first; it is
         *     absent until the document's first new version (`PUT`). No key is needed.
         */
        get: operations["getDocument"];
        /**
         * Upload a new version of a document
         * @description Adds a new version of the document: the same `id`, `datePublished` and `author`, a new `dateModified`
         *     (also the asset's). `title`, `format`, `url` and `hash` must be sent again; other fields not sent are
         *     kept from the previous version. The previous version stays readable in `previousVersions`.
         *
         *     Who and when, and the document service checks on `url`, as for `POST`; in addition only the author of the
         *     document may give it a new version (403 `url` / `role` / `Can update document only author`).
         */
        put: operations["replaceDocument"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a document's description
         * @description Edits the latest version of the document in place: its titles, descriptions, `format`, `documentType`,
         *     `documentOf`, `relatedItem` and `language`. `url`, `hash`, `id`, the dates and `author` are ignored (a new
         *     file is a new version: `PUT`). The document's own `dateModified` stays; the asset's `dateModified` moves
         *     when something changed. Who and when as for `PUT`, the author rule included.
         */
        patch: operations["patchDocument"];
        trace?: never;
    };
    "/ds/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a file
         * @description Stores the bytes of the multipart part named `file` and answers the `url`, `hash`, `format` and `title`
         *     to attach it to an asset with (`POST /assets/{asset_id}/documents`). `format` is the part's content type
         *     without parameters (`text/plain` when it has none, as RFC 7578 says; `application/octet-stream` when it is
         *     not a media type), `title` its file name as sent (an HTTP quoted-string, `\"` for a quote, or `filename*`),
         *     without percent-decoding, without directory parts and without control characters (U+0000–U+001F, U+007F),
         *     `hash` `md5:` and the MD5 of the bytes. The `url` is permanent and signed (Ed25519, see `GET /ds/get/{key}`); it is on the
         *     origin the upload came in by, or on the `PUBLIC_URL` setting. Other parts are ignored.
         *
         *     Needs a broker or admin key (the concierge: 403). A file larger than the `DS_MAX_BYTES` setting
         *     (50 MiB by default) is refused with 413 and nothing is kept; a request without a `file` part with a file
         *     name is refused with 404 `body` / `file` / `Not Found`, as the original document service did.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ds/get/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The stored file's key, 32 lowercase hexadecimal characters (the last path segment of its `url`).
                 * @example 0f1e2d3c4b5a69788796a5b4c3d2e1f0
                 */
                key: components["parameters"]["FileKeyPath"];
            };
            cookie?: never;
        };
        /**
         * Download a stored file
         * @description The bytes of a file stored by `POST /ds/upload`, with the content type it was uploaded with and a
         *     `Content-Disposition` naming the file. No key is needed: the signature is the permission. `Signature` is
         *     the base64 Ed25519 signature of `<key>`, a zero byte and the file's MD5 in hex, by the key pair of the
         *     `DS_KEY_FILE` setting; `KeyID` is the first 8 hexadecimal characters of its public key.
         *
         *     An unknown `key` is 404 `url` / `key` / `Not Found`. For a known one, a missing or unknown `KeyID` is 403
         *     `querystring` / `KeyID` / `Key Id does not exist`; a missing `Signature` 403 `querystring` / `Signature` /
         *     `Not Found`, one that is not base64 `Signature invalid`, one that does not verify `Signature does not match`.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document, as JSON
         * @description The OpenAPI 3.1 description of the registry that this page was built from.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi-3.0.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as OpenAPI 3.0.3, as JSON
         * @description The same contract as `GET /openapi.json`, converted to OpenAPI 3.0.3 for tools that read 3.0 only (written
         *     from the 3.1 document by @apiture/openapi-down-convert at `npm run generate`): `examples` become
         *     `example`, `const` a one-value `enum`, numeric `exclusiveMinimum` the 3.0 `minimum` with
         *     `exclusiveMinimum: true`.
         */
        get: operations["getOpenApi30Document"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Human-readable documentation
         * @description An HTML page (Swagger UI) rendering this document. Its script, style sheets and icons are served by the registry itself under `/docs/`; the page loads nothing from any other host.
         */
        get: operations["getDocsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Is the registry able to serve?
         * @description Answers 200 when the store answers a ping, 503 when it does not, and 503 from the moment the node starts
         *     shutting down, so that a load balancer takes it out before it stops. While reads are served but writes are
         *     refused (a full file system), it stays 200 and says so in `writes`. Load balancers
         *     probe it every second, so it is not counted against the rate limit.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AssetCreateRequest
         * @description The body of `POST /assets`.
         * @example {
         *       "data": {
         *         "assetType": "claimRights",
         *         "title": "Земля для космодрому",
         *         "classification": {
         *           "scheme": "CAV",
         *           "id": "39513200-3",
         *           "description": "Земельні ділянки"
         *         },
         *         "value": {
         *           "amount": 100,
         *           "currency": "UAH"
         *         },
         *         "unit": {
         *           "code": "H87",
         *           "name": "item"
         *         },
         *         "quantity": 5,
         *         "assetCustodian": {
         *           "name": "Державне управління справами",
         *           "identifier": {
         *             "scheme": "UA-EDR",
         *             "id": "00037256"
         *           },
         *           "address": {
         *             "countryName": "Україна"
         *           },
         *           "contactPoint": {
         *             "name": "Державне управління справами",
         *             "telephone": "0440000000"
         *           }
         *         }
         *       },
         *       "options": {
         *         "pretty": true
         *       }
         *     }
         */
        AssetCreateRequest: {
            data: components["schemas"]["AssetCreate"];
            options?: components["schemas"]["Options"];
            access?: components["schemas"]["AccessInput"];
        };
        /**
         * AssetPatchRequest
         * @description The body of `PATCH /assets/{asset_id}`.
         * @example {
         *       "data": {
         *         "status": "pending"
         *       },
         *       "access": {
         *         "token": "431a00c918cd47d48d6f37d62f631c37"
         *       }
         *     }
         */
        AssetPatchRequest: {
            data: components["schemas"]["AssetPatch"];
            options?: components["schemas"]["Options"];
            access?: components["schemas"]["AccessInput"];
        };
        /**
         * AccessInput
         * @description The owner token sent in a body, as an alternative to `acc_token` or `X-Access-Token`.
         * @example {
         *       "token": "431a00c918cd47d48d6f37d62f631c37"
         *     }
         */
        AccessInput: {
            /**
             * @description The owner token returned when the asset was created.
             * @example 431a00c918cd47d48d6f37d62f631c37
             */
            token?: string;
        };
        /**
         * Options
         * @description Output options sent in the body beside `data`; they win over the `opt_*` query parameters.
         * @example {
         *       "pretty": true
         *     }
         */
        Options: {
            /**
             * @description Indent the JSON by four spaces.
             * @example true
             */
            pretty?: boolean;
            /**
             * @description Wrap the response as a call of this JavaScript function (see `opt_jsonp`).
             * @example callback
             */
            jsonp?: string;
            /**
             * @description Comma-separated fields for listing entries; ignored on a single asset.
             * @example status
             */
            fields?: string;
        };
        /**
         * AssetResponse
         * @description One asset.
         * @example {
         *       "data": {
         *         "id": "6aa3093c0b00447abefcacf9a11da277",
         *         "assetID": "UA-AR-DGF-2018-01-09-000001",
         *         "date": "2018-01-09T18:31:03.835865+02:00",
         *         "dateModified": "2018-01-09T18:31:03.842028+02:00",
         *         "owner": "broker",
         *         "status": "draft",
         *         "assetType": "claimRights",
         *         "title": "Земля для космодрому",
         *         "classification": {
         *           "scheme": "CAV",
         *           "id": "39513200-3",
         *           "description": "Земельні ділянки"
         *         },
         *         "value": {
         *           "amount": 100,
         *           "currency": "UAH",
         *           "valueAddedTaxIncluded": true
         *         },
         *         "unit": {
         *           "code": "H87",
         *           "name": "item"
         *         },
         *         "quantity": 5,
         *         "assetCustodian": {
         *           "name": "Державне управління справами",
         *           "identifier": {
         *             "scheme": "UA-EDR",
         *             "id": "00037256"
         *           },
         *           "address": {
         *             "countryName": "Україна"
         *           },
         *           "contactPoint": {
         *             "name": "Державне управління справами",
         *             "telephone": "0440000000"
         *           }
         *         }
         *       }
         *     }
         */
        AssetResponse: {
            data: components["schemas"]["Asset"];
        };
        /**
         * AssetCreated
         * @description The answer to a creation, with the owner token and the transfer token.
         * @example {
         *       "access": {
         *         "token": "431a00c918cd47d48d6f37d62f631c37",
         *         "transfer": "7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b"
         *       },
         *       "data": {
         *         "id": "6aa3093c0b00447abefcacf9a11da277",
         *         "assetID": "UA-AR-DGF-2018-01-09-000001",
         *         "date": "2018-01-09T18:31:03.835865+02:00",
         *         "dateModified": "2018-01-09T18:31:03.842028+02:00",
         *         "owner": "broker",
         *         "status": "draft",
         *         "assetType": "claimRights",
         *         "title": "Земля для космодрому",
         *         "classification": {
         *           "scheme": "CAV",
         *           "id": "39513200-3",
         *           "description": "Земельні ділянки"
         *         },
         *         "value": {
         *           "amount": 100,
         *           "currency": "UAH",
         *           "valueAddedTaxIncluded": true
         *         },
         *         "unit": {
         *           "code": "H87",
         *           "name": "item"
         *         },
         *         "quantity": 5,
         *         "assetCustodian": {
         *           "name": "Державне управління справами",
         *           "identifier": {
         *             "scheme": "UA-EDR",
         *             "id": "00037256"
         *           },
         *           "address": {
         *             "countryName": "Україна"
         *           },
         *           "contactPoint": {
         *             "name": "Державне управління справами",
         *             "telephone": "0440000000"
         *           }
         *         }
         *       }
         *     }
         */
        AssetCreated: {
            access: components["schemas"]["AccessGranted"];
            data: components["schemas"]["Asset"];
        };
        /**
         * AccessGranted
         * @description The tokens of a new asset or transfer. They are shown once; the registry keeps only their hashes. A
         *     transfer's tokens become an asset's when the transfer is applied to it.
         * @example {
         *       "token": "431a00c918cd47d48d6f37d62f631c37",
         *       "transfer": "7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b"
         *     }
         */
        AccessGranted: {
            /**
             * @description The owner token, 32 lowercase hexadecimal characters; with the owner's key it edits the asset.
             * @example 431a00c918cd47d48d6f37d62f631c37
             */
            token: string;
            /**
             * @description The transfer token, 32 lowercase hexadecimal characters: whoever holds it may hand the asset to the
             *     owner of a transfer (`POST /assets/{asset_id}/ownership`). The owner gives it to the next owner.
             * @example 7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b
             */
            transfer: string;
        };
        /**
         * TransferCreateRequest
         * @description The body of `POST /transfers`.
         * @example {
         *       "data": {}
         *     }
         */
        TransferCreateRequest: {
            /**
             * @description Usually empty; whatever it holds is ignored.
             * @example {}
             */
            data: Record<string, never>;
            options?: components["schemas"]["Options"];
        };
        /**
         * TransferCreated
         * @description The answer to the creation of a transfer, with its two tokens.
         * @example {
         *       "access": {
         *         "token": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",
         *         "transfer": "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"
         *       },
         *       "data": {
         *         "id": "f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b",
         *         "date": "2018-01-09T18:31:06.204108+02:00"
         *       }
         *     }
         */
        TransferCreated: {
            access: components["schemas"]["AccessGranted"];
            data: components["schemas"]["Transfer"];
        };
        /**
         * TransferResponse
         * @description One transfer.
         * @example {
         *       "data": {
         *         "id": "f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b",
         *         "date": "2018-01-09T18:31:07.338513+02:00",
         *         "usedFor": "/assets/6aa3093c0b00447abefcacf9a11da277"
         *       }
         *     }
         */
        TransferResponse: {
            data: components["schemas"]["Transfer"];
        };
        /**
         * Transfer
         * @description A transfer as the registry serves it; its owner and tokens are never shown.
         * @example {
         *       "id": "f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b",
         *       "date": "2018-01-09T18:31:06.204108+02:00"
         *     }
         */
        Transfer: {
            /**
             * @description Generated identifier, 32 lowercase hexadecimal characters.
             * @example f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
             */
            id: string;
            /**
             * Format: date-time
             * @description When the transfer was created; once it is used, when it was marked used for its asset.
             * @example 2018-01-09T18:31:06.204108+02:00
             */
            date: string;
            /**
             * @description The asset the transfer was applied to, as `/assets/<id>`; absent while it is unused. A transfer is used
             *     for one asset only. It shows as soon as the transfer is marked for the asset, which a call cut short
             *     (before the asset changed) leaves behind too: sending that call again finishes it.
             * @example /assets/6aa3093c0b00447abefcacf9a11da277
             */
            usedFor?: string;
        };
        /**
         * OwnershipChangeRequest
         * @description The body of `POST /assets/{asset_id}/ownership`.
         * @example {
         *       "data": {
         *         "id": "f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b",
         *         "transfer": "7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b"
         *       }
         *     }
         */
        OwnershipChangeRequest: {
            data: components["schemas"]["OwnershipChange"];
            options?: components["schemas"]["Options"];
        };
        /**
         * OwnershipChange
         * @description Which transfer to apply, and the proof that the caller may hand the asset on. Other fields are ignored.
         * @example {
         *       "id": "f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b",
         *       "transfer": "7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b"
         *     }
         */
        OwnershipChange: {
            /**
             * @description The `id` of the transfer to apply (its owner becomes the asset's owner).
             * @example f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
             */
            id: string;
            /**
             * @description The asset's current transfer token (`access.transfer` of the answer that gave the asset to its owner).
             * @example 7c1e5a3f9b2d4e6a8c0b1d3f5a7c9e2b
             */
            transfer: string;
        };
        /**
         * ListingPage
         * @description One page of the listing feed.
         * @example {
         *       "data": [
         *         {
         *           "id": "6aa3093c0b00447abefcacf9a11da277",
         *           "dateModified": "2018-01-09T18:31:03.936033+02:00"
         *         }
         *       ],
         *       "next_page": {
         *         "path": "/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00",
         *         "uri": "http://127.0.0.1:6543/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00",
         *         "offset": "2018-01-09T18:31:03.936033+02:00"
         *       }
         *     }
         */
        ListingPage: {
            /**
             * @description The entries of this page, ordered by `dateModified` (newest first when `descending`).
             * @example [
             *       {
             *         "id": "6aa3093c0b00447abefcacf9a11da277",
             *         "dateModified": "2018-01-09T18:31:03.936033+02:00"
             *       }
             *     ]
             */
            data: components["schemas"]["ListingItem"][];
            next_page: components["schemas"]["Page"];
            prev_page?: components["schemas"]["Page"];
        };
        /**
         * RevisionPage
         * @description One page of an asset's history, oldest revision first.
         * @example {
         *       "data": [
         *         {
         *           "rev": 2,
         *           "date": "2018-01-09T18:35:12.114211+02:00",
         *           "author": "broker",
         *           "changes": [
         *             {
         *               "op": "replace",
         *               "path": "/status",
         *               "value": "pending"
         *             },
         *             {
         *               "op": "replace",
         *               "path": "/date",
         *               "value": "2018-01-09T18:35:12.114211+02:00"
         *             },
         *             {
         *               "op": "replace",
         *               "path": "/dateModified",
         *               "value": "2018-01-09T18:35:12.114211+02:00"
         *             }
         *           ]
         *         }
         *       ],
         *       "next_page": {
         *         "path": "/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?limit=1&offset=2",
         *         "uri": "http://127.0.0.1:6543/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?limit=1&offset=2",
         *         "offset": 2
         *       }
         *     }
         */
        RevisionPage: {
            /**
             * @description The revisions of this page, by `rev` ascending; empty past the last one.
             * @example [
             *       {
             *         "rev": 2,
             *         "date": "2018-01-09T18:35:12.114211+02:00",
             *         "author": "broker",
             *         "changes": [
             *           {
             *             "op": "replace",
             *             "path": "/status",
             *             "value": "pending"
             *           },
             *           {
             *             "op": "replace",
             *             "path": "/dateModified",
             *             "value": "2018-01-09T18:35:12.114211+02:00"
             *           }
             *         ]
             *       }
             *     ]
             */
            data: components["schemas"]["Revision"][];
            next_page: components["schemas"]["RevisionPageLink"];
        };
        /**
         * RevisionPageLink
         * @description Where the next page of the history is. Its query keeps `limit`.
         * @example {
         *       "path": "/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?offset=2",
         *       "uri": "http://127.0.0.1:6543/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?offset=2",
         *       "offset": 2
         *     }
         */
        RevisionPageLink: {
            /**
             * @description The page's path and query.
             * @example /api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?offset=2
             */
            path: string;
            /**
             * Format: uri
             * @description The same page as an absolute URL.
             * @example http://127.0.0.1:6543/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/revisions?offset=2
             */
            uri: string;
            /**
             * Format: int64
             * @description The `rev` of the last revision of this page; on an empty page, the requested offset.
             * @example 2
             */
            offset: number;
        };
        /**
         * Revision
         * @description One change of what the asset serves: who made it, when, and how. Tokens and anything else the asset does
         *     not serve never appear in it.
         * @example {
         *       "rev": 2,
         *       "date": "2018-01-09T18:35:12.114211+02:00",
         *       "author": "broker",
         *       "changes": [
         *         {
         *           "op": "replace",
         *           "path": "/title",
         *           "value": "Нова назва"
         *         },
         *         {
         *           "op": "remove",
         *           "path": "/description"
         *         },
         *         {
         *           "op": "add",
         *           "path": "/items/1",
         *           "value": {
         *             "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *             "description": "Друга вимога",
         *             "quantity": 1
         *           }
         *         },
         *         {
         *           "op": "replace",
         *           "path": "/dateModified",
         *           "value": "2018-01-09T18:35:12.114211+02:00"
         *         }
         *       ]
         *     }
         */
        Revision: {
            /**
             * Format: int64
             * @description The revision's number, 1, 2, 3 … per asset, without gaps, in the order of the writes.
             * @example 2
             */
            rev: number;
            /**
             * Format: date-time
             * @description The `dateModified` the write gave the asset.
             * @example 2018-01-09T18:35:12.114211+02:00
             */
            date: string;
            /**
             * @description The name of the API key that made the write (as `owner` names one); for an ownership change its caller,
             *     who need not be the new owner.
             * @example broker
             */
            author: string;
            /**
             * Format: int64
             * @description The revision's index in the transparency log (`GET /log/tile/entries/…`), once its entry is in the latest
             *     checkpoint (within 2 s of the write); absent before.
             * @example 41
             */
            logIndex?: number;
            /**
             * @description A JSON Patch (RFC 6902) turning the asset as served before the write into the asset as served after it
             *     (from `{}` for revision 1). It touches only members whose value changed, and never the whole document
             *     (no path `""`).
             * @example [
             *       {
             *         "op": "replace",
             *         "path": "/title",
             *         "value": "Нова назва"
             *       },
             *       {
             *         "op": "replace",
             *         "path": "/dateModified",
             *         "value": "2018-01-09T18:35:12.114211+02:00"
             *       }
             *     ]
             */
            changes: components["schemas"]["ChangeOperation"][];
        };
        /**
         * ChangeOperation
         * @description One operation of a JSON Patch (RFC 6902): `add` and `replace` carry the member's new `value`, `remove` none.
         *     `path` is a JSON Pointer (RFC 6901) into the asset: `/title`, `/items/0/quantity`.
         * @example {
         *       "op": "replace",
         *       "path": "/title",
         *       "value": "Нова назва"
         *     }
         * @example {
         *       "op": "remove",
         *       "path": "/description"
         *     }
         */
        ChangeOperation: {
            /**
             * @description What the operation does to the member at `path`.
             * @example replace
             * @enum {string}
             */
            op: "add" | "remove" | "replace";
            /**
             * @description The member, as a JSON Pointer (RFC 6901; `~1` for `/` and `~0` for `~` in a name).
             * @example /title
             */
            path: string;
            /**
             * @description The member's new value (`add`, `replace`), any JSON value.
             * @example Нова назва
             */
            value?: unknown;
        };
        /**
         * LogCheckpoint
         * @description A C2SP signed note holding a C2SP tlog-checkpoint: the origin, the tree size and the base64 root hash, a
         *     line each; a blank line; then `— <origin> <base64 of the 4-byte key id and the Ed25519 signature>`.
         * @example registry.example.org/api/0.1/log
         *     3
         *     egus9/VA42N8+xIwG2TnlqR8EmDvrjQP1weMk5SZIxA=
         *
         *     — registry.example.org/api/0.1/log Qn1ffzMWC7UCghLjV/ki6V8t/2P8gdltH2sx719evC+6TI1XpjW/HLU8rqU6UGYOQBiEeSpw7Jlw63HAMbQbkVZWOgQ=
         */
        LogCheckpoint: string;
        /**
         * LogVerifierKey
         * @description `<origin>+<key id, 8 hex digits>+<base64 of 0x01 and the 32-byte Ed25519 public key>`.
         * @example registry.example.org/api/0.1/log+427d5f7f+AXXiZGTlrxLksmXqhztL8qUJgQAdfRRXvoynsxJ757G7
         */
        LogVerifierKey: string;
        /**
         * LogHashTile
         * Format: binary
         * @description Up to 256 SHA-256 hashes of 32 bytes, one after the other.
         * @example <32 × W bytes>
         */
        LogHashTile: string;
        /**
         * LogEntryBundle
         * Format: binary
         * @description Up to 256 entries, each a big-endian 16-bit length followed by that many bytes.
         * @example <for each entry: 2 bytes of length, the entry>
         */
        LogEntryBundle: string;
        /**
         * AssetAtRevision
         * @description The asset as served right after one revision.
         * @example {
         *       "data": {
         *         "id": "6aa3093c0b00447abefcacf9a11da277",
         *         "assetID": "UA-AR-DGF-2018-01-09-000001",
         *         "date": "2018-01-09T18:31:03.835865+02:00",
         *         "dateModified": "2018-01-09T18:31:03.842028+02:00",
         *         "owner": "broker",
         *         "status": "draft",
         *         "assetType": "claimRights",
         *         "title": "Земля для космодрому",
         *         "classification": {
         *           "scheme": "CAV",
         *           "id": "39513200-3",
         *           "description": "Земельні ділянки"
         *         },
         *         "value": {
         *           "amount": 100,
         *           "currency": "UAH",
         *           "valueAddedTaxIncluded": true
         *         },
         *         "unit": {
         *           "code": "H87",
         *           "name": "item"
         *         },
         *         "quantity": 5,
         *         "assetCustodian": {
         *           "name": "Державне управління справами",
         *           "identifier": {
         *             "scheme": "UA-EDR",
         *             "id": "00037256"
         *           },
         *           "address": {
         *             "countryName": "Україна"
         *           },
         *           "contactPoint": {
         *             "name": "Державне управління справами",
         *             "telephone": "0440000000"
         *           }
         *         }
         *       }
         *     }
         */
        AssetAtRevision: {
            data: components["schemas"]["Asset"];
        };
        /**
         * Page
         * @description Where the next (or previous) page of the feed is. Its query keeps `limit`, `descending`, `mode` and `opt_fields`.
         * @example {
         *       "path": "/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00",
         *       "uri": "http://127.0.0.1:6543/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00",
         *       "offset": "2018-01-09T18:31:03.936033+02:00"
         *     }
         */
        Page: {
            /**
             * @description The page's path and query, with `offset` percent-encoded.
             * @example /api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00
             */
            path: string;
            /**
             * Format: uri
             * @description The same page as an absolute URL.
             * @example http://127.0.0.1:6543/api/0.1/assets?offset=2018-01-09T18%3A31%3A03.936033%2B02%3A00
             */
            uri: string;
            /**
             * @description The `dateModified` of the last entry of this page (the first for `prev_page`) as plain text; on an empty
             *     page, the requested offset (empty when none was given).
             * @example 2018-01-09T18:31:03.936033+02:00
             */
            offset: string;
        };
        /**
         * ChangeStream
         * @description A Server-Sent Events stream (UTF-8 text). It opens with `retry: 1000`; then, separated by blank lines, events
         *     of two lines, `id: <dateModified>` and `data: <ListingItem as one line of JSON>`, and comment lines
         *     (`: keep-alive`) when there is nothing to send.
         * @example retry: 1000
         *
         *     id: 2018-01-09T18:31:03.936033+02:00
         *     data: {"id":"6aa3093c0b00447abefcacf9a11da277","dateModified":"2018-01-09T18:31:03.936033+02:00"}
         *
         *     id: 2018-01-09T18:31:04.100517+02:00
         *     data: {"id":"0b2d6d1b8d7a4b6e9a2f3c4d5e6f7a8b","dateModified":"2018-01-09T18:31:04.100517+02:00"}
         *
         *     : keep-alive
         */
        ChangeStream: string;
        /**
         * Health
         * @description The registry and its store serve reads. `writes` says whether the store takes writes: `refused` from the
         *     moment one was refused for the store's state (its file system full, its engine unreachable), with the
         *     reason in `writesRefused`, until one succeeds again (no restart is needed). Reads go on meanwhile, so the
         *     answer stays 200.
         * @example {
         *       "status": "ok",
         *       "writes": "accepted"
         *     }
         * @example {
         *       "status": "ok",
         *       "writes": "refused",
         *       "writesRefused": "Storage full"
         *     }
         */
        Health: {
            /**
             * @description Always `ok`.
             * @example ok
             * @constant
             */
            status: "ok";
            /**
             * @description Whether the store takes writes, as the node's last write found.
             * @example accepted
             * @enum {string}
             */
            writes: "accepted" | "refused";
            /**
             * @description Why writes are refused, as their 503 says it (`Storage full`, `The store does not answer`); only with
             *     `writes: refused`.
             * @example Storage full
             */
            writesRefused?: string;
        };
        /**
         * OpenApiDocument
         * @description An OpenAPI document (this one, as 3.1 or 3.0.3).
         * @example {
         *       "openapi": "3.1.0",
         *       "info": {
         *         "title": "Claim-right asset registry",
         *         "version": "0.1"
         *       },
         *       "paths": {}
         *     }
         */
        OpenApiDocument: {
            /**
             * @description The OpenAPI version of the document.
             * @example 3.1.0
             */
            openapi: string;
            /**
             * @description Title, version and description of the API.
             * @example {
             *       "title": "Claim-right asset registry",
             *       "version": "0.1"
             *     }
             */
            info: Record<string, never>;
            /**
             * @description The operations, by path.
             * @example {}
             */
            paths: Record<string, never>;
        };
        /**
         * Error
         * @description The envelope of every failed request.
         * @example {
         *       "status": "error",
         *       "errors": [
         *         {
         *           "location": "url",
         *           "name": "asset_id",
         *           "description": "Not Found"
         *         }
         *       ]
         *     }
         */
        Error: {
            /**
             * @description Always `error`.
             * @example error
             * @constant
             */
            status: "error";
            /**
             * @description What went wrong; at least one entry, one per failing top-level field for field errors.
             * @example [
             *       {
             *         "location": "url",
             *         "name": "asset_id",
             *         "description": "Not Found"
             *       }
             *     ]
             */
            errors: components["schemas"]["ErrorEntry"][];
        };
        /**
         * ErrorEntry
         * @description One problem with the request.
         * @example {
         *       "location": "body",
         *       "name": "title",
         *       "description": [
         *         "This field is required."
         *       ]
         *     }
         */
        ErrorEntry: {
            location: components["schemas"]["ErrorLocation"];
            /**
             * @description The header, query parameter, cookie, path parameter or top-level body field at fault.
             * @example assetCustodian
             */
            name: string;
            description: components["schemas"]["ErrorDescription"];
        };
        /**
         * ErrorLocation
         * @description The part of the request at fault.
         * @example body
         * @enum {string}
         */
        ErrorLocation: "body" | "header" | "querystring" | "url" | "cookies" | "method";
        /**
         * ErrorDescription
         * @description What is wrong, as JSON of one of these shapes (declared without a type, since no one type holds them and
         *     generators misread a union): a message (a string: `Rogue field` for an unknown key), a list of messages,
         *     or for a nested field an object keyed by sub-field whose values have these same shapes (for a list field,
         *     a list holding one such object, or the element's own messages, per failing element), with lists of
         *     messages at the leaves.
         * @example [
         *       "This field is required."
         *     ]
         * @example {
         *       "contactPoint": {
         *         "email": [
         *           "telephone or email should be present"
         *         ]
         *       }
         *     }
         * @example Not Found
         */
        ErrorDescription: unknown;
        /**
         * AssetStatus
         * @description Where the asset is in its workflow. A new asset is `draft` and is not listed; `pending` and later are
         *     listed; `deleted` and `complete` are final.
         * @example pending
         * @enum {string}
         */
        AssetStatus: "draft" | "pending" | "verification" | "active" | "deleted" | "complete";
        /**
         * AssetType
         * @description The asset type; this registry keeps claim rights only.
         * @example claimRights
         * @enum {string}
         */
        AssetType: "claimRights";
        /**
         * AssetMode
         * @description `test` marks a test asset: it is listed only with `mode=test` or `mode=_all_`, and its titles get the
         *     prefixes `[ТЕСТУВАННЯ] `, `[TESTING] ` and `[ТЕСТИРОВАНИЕ] `. Set at creation or by admins.
         * @example test
         * @enum {string}
         */
        AssetMode: "test";
        /**
         * AssetId
         * @description An asset's generated identifier, 32 lowercase hexadecimal characters.
         * @example 6aa3093c0b00447abefcacf9a11da277
         */
        AssetId: string;
        /**
         * AssetHumanId
         * @description An asset's human-facing identifier (`assetID`): the `ASSET_ID_PREFIX`, the creation day in the registry's
         *     time zone and a six-digit counter of that day starting at 000001, gap-free across the cluster.
         * @example UA-AR-DGF-2018-01-09-000001
         */
        AssetHumanId: string;
        /**
         * AssetDate
         * Format: date-time
         * @description An asset's `date`, set at creation and again on every status change.
         * @example 2018-01-09T18:31:03.835865+02:00
         */
        AssetDate: string;
        /**
         * AssetDateModified
         * Format: date-time
         * @description The moment of an asset's last change; unique across the registry, later changes get later values.
         * @example 2018-01-09T18:31:03.842028+02:00
         */
        AssetDateModified: string;
        /**
         * AssetOwner
         * @description Name of the API key holder that created the asset (or received it by a transfer).
         * @example broker
         */
        AssetOwner: string;
        /**
         * AssetTitle
         * @description Name of the asset, in Ukrainian.
         * @example Земля для космодрому
         */
        AssetTitle: string;
        /**
         * Quantity
         * @description Number of units.
         * @example 5
         */
        Quantity: number;
        /**
         * AssetPatch
         * @description Any subset of the asset's fields, merged into the asset; nested objects may be partial too, and the merged
         *     asset must still be complete and valid (the rules of `AssetCreate`, `related-lot-when-active` among them).
         *     The generated fields (`id`, `assetID`, `date`, `dateModified`, `owner`, `documents`) are read-only: sent
         *     in a request they are checked and ignored. Which other fields a caller may write depends on its role (see
         *     `PATCH`); the others are ignored too.
         * @example {
         *       "status": "pending"
         *     }
         * @example {
         *       "value": {
         *         "amount": 120.5,
         *         "currency": "UAH"
         *       },
         *       "title": "Земля для космодрому (друга черга)"
         *     }
         */
        AssetPatch: {
            id?: components["schemas"]["AssetId"];
            assetID?: components["schemas"]["AssetHumanId"];
            date?: components["schemas"]["AssetDate"];
            dateModified?: components["schemas"]["AssetDateModified"];
            owner?: components["schemas"]["AssetOwner"];
            /**
             * @description The workflow state. Ignored at creation; in a PATCH it asks for a move, and a move the caller may not
             *     make (an unknown status included) is refused with 403.
             */
            status?: components["schemas"]["AssetStatus"];
            /** @description Must be `claimRights`; written at creation only. */
            assetType?: components["schemas"]["AssetType"];
            mode?: components["schemas"]["AssetMode"];
            title?: components["schemas"]["AssetTitle"];
            /**
             * @description Name of the asset, in English.
             * @example Land for a spaceport
             */
            title_en?: string;
            /**
             * @description Name of the asset, in Russian.
             * @example Земля для космодрома
             */
            title_ru?: string;
            /**
             * @description Description of the asset, in Ukrainian.
             * @example Права вимоги за кредитним договором
             */
            description?: string;
            /**
             * @description Description in English (the original registry's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            description_en?: string;
            /**
             * @description Description in Russian (the original registry's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            description_ru?: string;
            /**
             * @description Description in English (the specification's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            decription_en?: string;
            /**
             * @description Description in Russian (the specification's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            decription_ru?: string;
            classification?: components["schemas"]["Classification"];
            /**
             * @description Further classifications in other schemes.
             * @example [
             *       {
             *         "scheme": "ДКПП",
             *         "id": "17.21.1",
             *         "description": "папір і картон гофровані"
             *       }
             *     ]
             */
            additionalClassifications?: components["schemas"]["AdditionalClassification"][];
            value?: components["schemas"]["Value"];
            unit?: components["schemas"]["Unit"];
            quantity?: components["schemas"]["Quantity"];
            address?: components["schemas"]["Address"];
            location?: components["schemas"]["Location"];
            /**
             * @description The assets the claim right covers.
             * @example [
             *       {
             *         "description": "футляри до державних нагород",
             *         "classification": {
             *           "scheme": "CAV",
             *           "id": "39513200-3",
             *           "description": "Cartons"
             *         },
             *         "unit": {
             *           "code": "H87",
             *           "name": "item"
             *         },
             *         "quantity": 5
             *       }
             *     ]
             */
            items?: components["schemas"]["Item"][];
            debt?: components["schemas"]["Debt"];
            assetCustodian?: components["schemas"]["Organization"];
            /**
             * @description `id` of the lot the asset belongs to, 32 hexadecimal characters. Required while `active`; cleared by the
             *     move from `active` back to `pending`.
             */
            relatedLot?: components["schemas"]["Md5"];
            /**
             * @description The latest version of each document attached to the asset, oldest `dateModified` first; older versions
             *     are on `GET /assets/{asset_id}/documents`. Documents are attached there: `documents` sent in the
             *     asset's own POST or PATCH is ignored, whatever it holds.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentType": "notice",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            readonly documents?: components["schemas"]["Document"][];
        };
        /**
         * AssetCreate
         * @description The fields of a new asset. `assetType`, `title`, `classification`, `value`, `unit`, `quantity` and
         *     `assetCustodian` are required; `status` is ignored (a new asset is `draft`). Rule
         *     `related-lot-when-active`: a complete asset whose `status` is `active` must name its lot in `relatedLot`
         *     (422 otherwise); a plain schema cannot say so, the registry checks it (openapi/rules.yaml).
         * @example {
         *       "assetType": "claimRights",
         *       "title": "Земля для космодрому",
         *       "classification": {
         *         "scheme": "CAV",
         *         "id": "39513200-3",
         *         "description": "Земельні ділянки"
         *       },
         *       "value": {
         *         "amount": 100,
         *         "currency": "UAH"
         *       },
         *       "unit": {
         *         "code": "H87",
         *         "name": "item"
         *       },
         *       "quantity": 5,
         *       "debt": {
         *         "agreementNumber": "42",
         *         "dateSigned": "2017-08-16T12:30:17.615196+03:00",
         *         "debtorType": "legalPerson",
         *         "value": {
         *           "amount": 1,
         *           "currency": "UAH"
         *         },
         *         "debtCurrencyValue": {
         *           "amount": 100,
         *           "currency": "USD"
         *         }
         *       },
         *       "assetCustodian": {
         *         "name": "Державне управління справами",
         *         "identifier": {
         *           "scheme": "UA-EDR",
         *           "id": "00037256",
         *           "uri": "http://www.dus.gov.ua/"
         *         },
         *         "address": {
         *           "countryName": "Україна",
         *           "postalCode": "01220",
         *           "locality": "м. Київ"
         *         },
         *         "contactPoint": {
         *           "name": "Державне управління справами",
         *           "telephone": "0440000000"
         *         }
         *       }
         *     }
         */
        AssetCreate: {
            id?: components["schemas"]["AssetId"];
            assetID?: components["schemas"]["AssetHumanId"];
            date?: components["schemas"]["AssetDate"];
            dateModified?: components["schemas"]["AssetDateModified"];
            owner?: components["schemas"]["AssetOwner"];
            /**
             * @description The workflow state. Ignored at creation; in a PATCH it asks for a move, and a move the caller may not
             *     make (an unknown status included) is refused with 403.
             */
            status?: components["schemas"]["AssetStatus"];
            /** @description Must be `claimRights`; written at creation only. */
            assetType: components["schemas"]["AssetType"];
            mode?: components["schemas"]["AssetMode"];
            title: components["schemas"]["AssetTitle"];
            /**
             * @description Name of the asset, in English.
             * @example Land for a spaceport
             */
            title_en?: string;
            /**
             * @description Name of the asset, in Russian.
             * @example Земля для космодрома
             */
            title_ru?: string;
            /**
             * @description Description of the asset, in Ukrainian.
             * @example Права вимоги за кредитним договором
             */
            description?: string;
            /**
             * @description Description in English (the original registry's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            description_en?: string;
            /**
             * @description Description in Russian (the original registry's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            description_ru?: string;
            /**
             * @description Description in English (the specification's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            decription_en?: string;
            /**
             * @description Description in Russian (the specification's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            decription_ru?: string;
            classification: components["schemas"]["Classification"];
            /**
             * @description Further classifications in other schemes.
             * @example [
             *       {
             *         "scheme": "ДКПП",
             *         "id": "17.21.1",
             *         "description": "папір і картон гофровані"
             *       }
             *     ]
             */
            additionalClassifications?: components["schemas"]["AdditionalClassification"][];
            value: components["schemas"]["Value"];
            unit: components["schemas"]["Unit"];
            quantity: components["schemas"]["Quantity"];
            address?: components["schemas"]["Address"];
            location?: components["schemas"]["Location"];
            /**
             * @description The assets the claim right covers.
             * @example [
             *       {
             *         "description": "футляри до державних нагород",
             *         "classification": {
             *           "scheme": "CAV",
             *           "id": "39513200-3",
             *           "description": "Cartons"
             *         },
             *         "unit": {
             *           "code": "H87",
             *           "name": "item"
             *         },
             *         "quantity": 5
             *       }
             *     ]
             */
            items?: components["schemas"]["Item"][];
            debt?: components["schemas"]["Debt"];
            assetCustodian: components["schemas"]["Organization"];
            /**
             * @description `id` of the lot the asset belongs to, 32 hexadecimal characters. Required while `active`; cleared by the
             *     move from `active` back to `pending`.
             */
            relatedLot?: components["schemas"]["Md5"];
            /**
             * @description The latest version of each document attached to the asset, oldest `dateModified` first; older versions
             *     are on `GET /assets/{asset_id}/documents`. Documents are attached there: `documents` sent in the
             *     asset's own POST or PATCH is ignored, whatever it holds.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentType": "notice",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            readonly documents?: components["schemas"]["Document"][];
        };
        /**
         * Asset
         * @description A claim-right asset as the registry serves it. Fields without a value are left out. An `active` asset
         *     names its lot in `relatedLot` (rule `related-lot-when-active`).
         * @example {
         *       "id": "b1845029a72a4077aeff912604721ee7",
         *       "assetID": "UA-AR-DGF-2018-01-09-000003",
         *       "date": "2018-01-09T18:31:05.191861+02:00",
         *       "dateModified": "2018-01-09T18:31:05.192219+02:00",
         *       "owner": "broker",
         *       "status": "complete",
         *       "relatedLot": "b5ca6aa850694154b6a5f6db4e65f5da",
         *       "assetType": "claimRights",
         *       "title": "Земля для космодрому",
         *       "classification": {
         *         "scheme": "CAV",
         *         "id": "39513200-3",
         *         "description": "Земельні ділянки"
         *       },
         *       "value": {
         *         "amount": 100,
         *         "currency": "UAH",
         *         "valueAddedTaxIncluded": true
         *       },
         *       "unit": {
         *         "code": "H87",
         *         "name": "item"
         *       },
         *       "quantity": 5,
         *       "address": {
         *         "countryName": "Україна",
         *         "postalCode": "79000",
         *         "region": "м. Київ",
         *         "streetAddress": "вул. Банкова 1",
         *         "locality": "м. Київ"
         *       },
         *       "items": [
         *         {
         *           "id": "ecc9f4ec8b524f51a21c2736724f7848",
         *           "description": "футляри до державних нагород",
         *           "classification": {
         *             "scheme": "CAV",
         *             "id": "39513200-3",
         *             "description": "Cartons"
         *           },
         *           "additionalClassifications": [
         *             {
         *               "scheme": "ДКПП",
         *               "id": "17.21.1",
         *               "description": "папір і картон гофровані, паперова й картонна тара"
         *             }
         *           ],
         *           "unit": {
         *             "code": "H87",
         *             "name": "item"
         *           },
         *           "quantity": 5
         *         }
         *       ],
         *       "debt": {
         *         "agreementNumber": "42",
         *         "dateSigned": "2017-08-16T12:30:17.615196+03:00",
         *         "debtorType": "legalPerson",
         *         "value": {
         *           "amount": 1,
         *           "currency": "UAH"
         *         },
         *         "debtCurrencyValue": {
         *           "amount": 100,
         *           "currency": "USD"
         *         }
         *       },
         *       "assetCustodian": {
         *         "name": "Державне управління справами",
         *         "identifier": {
         *           "scheme": "UA-EDR",
         *           "id": "00037256",
         *           "uri": "http://www.dus.gov.ua/"
         *         },
         *         "address": {
         *           "countryName": "Україна",
         *           "postalCode": "01220",
         *           "region": "м. Київ",
         *           "streetAddress": "вул. Банкова, 11, корпус 1",
         *           "locality": "м. Київ"
         *         },
         *         "contactPoint": {
         *           "name": "Державне управління справами",
         *           "telephone": "0440000000"
         *         }
         *       }
         *     }
         */
        Asset: {
            id: components["schemas"]["AssetId"];
            assetID: components["schemas"]["AssetHumanId"];
            date: components["schemas"]["AssetDate"];
            dateModified: components["schemas"]["AssetDateModified"];
            owner: components["schemas"]["AssetOwner"];
            /**
             * @description The workflow state. Ignored at creation; in a PATCH it asks for a move, and a move the caller may not
             *     make (an unknown status included) is refused with 403.
             */
            status: components["schemas"]["AssetStatus"];
            /** @description Must be `claimRights`; written at creation only. */
            assetType: components["schemas"]["AssetType"];
            mode?: components["schemas"]["AssetMode"];
            title: components["schemas"]["AssetTitle"];
            /**
             * @description Name of the asset, in English.
             * @example Land for a spaceport
             */
            title_en?: string;
            /**
             * @description Name of the asset, in Russian.
             * @example Земля для космодрома
             */
            title_ru?: string;
            /**
             * @description Description of the asset, in Ukrainian.
             * @example Права вимоги за кредитним договором
             */
            description?: string;
            /**
             * @description Description in English (the original registry's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            description_en?: string;
            /**
             * @description Description in Russian (the original registry's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            description_ru?: string;
            /**
             * @description Description in English (the specification's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            decription_en?: string;
            /**
             * @description Description in Russian (the specification's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            decription_ru?: string;
            classification: components["schemas"]["Classification"];
            /**
             * @description Further classifications in other schemes.
             * @example [
             *       {
             *         "scheme": "ДКПП",
             *         "id": "17.21.1",
             *         "description": "папір і картон гофровані"
             *       }
             *     ]
             */
            additionalClassifications?: components["schemas"]["AdditionalClassification"][];
            value: components["schemas"]["Value"];
            unit: components["schemas"]["Unit"];
            quantity: components["schemas"]["Quantity"];
            address?: components["schemas"]["Address"];
            location?: components["schemas"]["Location"];
            /**
             * @description The assets the claim right covers.
             * @example [
             *       {
             *         "description": "футляри до державних нагород",
             *         "classification": {
             *           "scheme": "CAV",
             *           "id": "39513200-3",
             *           "description": "Cartons"
             *         },
             *         "unit": {
             *           "code": "H87",
             *           "name": "item"
             *         },
             *         "quantity": 5
             *       }
             *     ]
             */
            items?: components["schemas"]["Item"][];
            debt?: components["schemas"]["Debt"];
            assetCustodian: components["schemas"]["Organization"];
            /**
             * @description `id` of the lot the asset belongs to, 32 hexadecimal characters. Required while `active`; cleared by the
             *     move from `active` back to `pending`.
             */
            relatedLot?: components["schemas"]["Md5"];
            /**
             * @description The latest version of each document attached to the asset, oldest `dateModified` first; older versions
             *     are on `GET /assets/{asset_id}/documents`. Documents are attached there: `documents` sent in the
             *     asset's own POST or PATCH is ignored, whatever it holds.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentType": "notice",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            readonly documents?: components["schemas"]["Document"][];
        };
        /**
         * ListingItem
         * @description One listed asset: `id` and `dateModified`, plus the asset fields requested with `opt_fields` (those the
         *     asset has).
         * @example {
         *       "id": "6aa3093c0b00447abefcacf9a11da277",
         *       "dateModified": "2018-01-09T18:31:03.936033+02:00",
         *       "status": "pending"
         *     }
         */
        ListingItem: {
            id: components["schemas"]["AssetId"];
            assetID?: components["schemas"]["AssetHumanId"];
            date?: components["schemas"]["AssetDate"];
            dateModified: components["schemas"]["AssetDateModified"];
            owner?: components["schemas"]["AssetOwner"];
            /**
             * @description The workflow state. Ignored at creation; in a PATCH it asks for a move, and a move the caller may not
             *     make (an unknown status included) is refused with 403.
             */
            status?: components["schemas"]["AssetStatus"];
            /** @description Must be `claimRights`; written at creation only. */
            assetType?: components["schemas"]["AssetType"];
            mode?: components["schemas"]["AssetMode"];
            title?: components["schemas"]["AssetTitle"];
            /**
             * @description Name of the asset, in English.
             * @example Land for a spaceport
             */
            title_en?: string;
            /**
             * @description Name of the asset, in Russian.
             * @example Земля для космодрома
             */
            title_ru?: string;
            /**
             * @description Description of the asset, in Ukrainian.
             * @example Права вимоги за кредитним договором
             */
            description?: string;
            /**
             * @description Description in English (the original registry's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            description_en?: string;
            /**
             * @description Description in Russian (the original registry's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            description_ru?: string;
            /**
             * @description Description in English (the specification's spelling; kept as sent).
             * @example Claim rights under a loan agreement
             */
            decription_en?: string;
            /**
             * @description Description in Russian (the specification's spelling; kept as sent).
             * @example Права требования по кредитному договору
             */
            decription_ru?: string;
            classification?: components["schemas"]["Classification"];
            /**
             * @description Further classifications in other schemes.
             * @example [
             *       {
             *         "scheme": "ДКПП",
             *         "id": "17.21.1",
             *         "description": "папір і картон гофровані"
             *       }
             *     ]
             */
            additionalClassifications?: components["schemas"]["AdditionalClassification"][];
            value?: components["schemas"]["Value"];
            unit?: components["schemas"]["Unit"];
            quantity?: components["schemas"]["Quantity"];
            address?: components["schemas"]["Address"];
            location?: components["schemas"]["Location"];
            /**
             * @description The assets the claim right covers.
             * @example [
             *       {
             *         "description": "футляри до державних нагород",
             *         "classification": {
             *           "scheme": "CAV",
             *           "id": "39513200-3",
             *           "description": "Cartons"
             *         },
             *         "unit": {
             *           "code": "H87",
             *           "name": "item"
             *         },
             *         "quantity": 5
             *       }
             *     ]
             */
            items?: components["schemas"]["Item"][];
            debt?: components["schemas"]["Debt"];
            assetCustodian?: components["schemas"]["Organization"];
            /**
             * @description `id` of the lot the asset belongs to, 32 hexadecimal characters. Required while `active`; cleared by the
             *     move from `active` back to `pending`.
             */
            relatedLot?: components["schemas"]["Md5"];
            /**
             * @description The latest version of each document attached to the asset, oldest `dateModified` first; older versions
             *     are on `GET /assets/{asset_id}/documents`. Documents are attached there: `documents` sent in the
             *     asset's own POST or PATCH is ignored, whatever it holds.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentType": "notice",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            readonly documents?: components["schemas"]["Document"][];
        };
        /**
         * Md5
         * @description An identifier of 32 hexadecimal characters, either case (as the original registry's MD5 type).
         * @example b5ca6aa850694154b6a5f6db4e65f5da
         */
        Md5: string;
        /**
         * CavCode
         * @description A code of the CAV classifier of assets (2,252 codes such as `39513200-3`). The pattern is the codes'
         *     shape; the registry also refuses a code that is not in the list.
         * @example 39513200-3
         */
        CavCode: string;
        /**
         * UnitCode
         * @description A UN/CEFACT Recommendation 20 unit code, such as `H87` (piece) or `MTK` (square metre): every write must
         *     send one in the list. An asset imported from the original registry may hold another code (the original
         *     took any text, such as the CAV code `39513200-3`) until a write replaces it.
         * @example H87
         */
        UnitCode: string;
        /**
         * CurrencyCode
         * @description An ISO 4217 alphabetic currency code, such as `UAH` or `USD`. The pattern is the codes' shape; the
         *     registry also refuses a code that is not in the list.
         * @example UAH
         */
        CurrencyCode: string;
        /**
         * RegistrationAgencyCode
         * @description An organisation registration agency code from the org-id.guide list (126 codes), such as `UA-EDR` for
         *     organisations registered in Ukraine. The pattern is the codes' shape; the registry also refuses a code
         *     that is not in the list.
         * @example UA-EDR
         */
        RegistrationAgencyCode: string;
        /**
         * DebtorType
         * @description Whether the debtor is a person or an organisation.
         * @example legalPerson
         * @enum {string}
         */
        DebtorType: "naturalPerson" | "legalPerson";
        /**
         * Classification
         * @description The asset's (or item's) primary classification, a code of the CAV classifier.
         * @example {
         *       "scheme": "CAV",
         *       "id": "39513200-3",
         *       "description": "Земельні ділянки"
         *     }
         */
        Classification: {
            /**
             * @description The code list; always `CAV`.
             * @example CAV
             * @enum {string}
             */
            scheme: "CAV";
            id: components["schemas"]["CavCode"];
            /**
             * @description The code's text.
             * @example Земельні ділянки
             */
            description: string;
            /**
             * @description The code's text in English.
             * @example Land plots
             */
            description_en?: string;
            /**
             * @description The code's text in Russian.
             * @example Земельные участки
             */
            description_ru?: string;
            /**
             * Format: uri
             * @description A URI identifying the code.
             * @example http://example.org/cav/39513200-3
             */
            uri?: string;
        };
        /**
         * AdditionalClassification
         * @description A classification in any other scheme (for example CAVS, ДКПП or koatuu).
         * @example {
         *       "scheme": "ДКПП",
         *       "id": "17.21.1",
         *       "description": "папір і картон гофровані, паперова й картонна тара"
         *     }
         */
        AdditionalClassification: {
            /**
             * @description The code list.
             * @example ДКПП
             */
            scheme: string;
            /**
             * @description The code in that list.
             * @example 17.21.1
             */
            id: string;
            /**
             * @description The code's text.
             * @example папір і картон гофровані
             * @example паперова й картонна тара
             */
            description: string;
            /**
             * @description The code's text in English.
             * @example Corrugated paper and paperboard
             */
            description_en?: string;
            /**
             * @description The code's text in Russian.
             * @example Бумага и картон гофрированные
             */
            description_ru?: string;
            /**
             * Format: uri
             * @description A URI identifying the code.
             * @example http://example.org/dkpp/17.21.1
             */
            uri?: string;
        };
        /**
         * Unit
         * @description The unit the quantity counts.
         * @example {
         *       "code": "H87",
         *       "name": "item"
         *     }
         */
        Unit: {
            code: components["schemas"]["UnitCode"];
            /**
             * @description The unit's name.
             * @example item
             */
            name?: string;
            /**
             * @description The unit's name in English.
             * @example piece
             */
            name_en?: string;
            /**
             * @description The unit's name in Russian.
             * @example штука
             */
            name_ru?: string;
        };
        /**
         * Value
         * @description The estimated value of the claim right.
         * @example {
         *       "amount": 100,
         *       "currency": "UAH",
         *       "valueAddedTaxIncluded": true
         *     }
         */
        Value: {
            /**
             * @description The amount, greater than 0; written as a floating-point number (`100.0`).
             * @example 100
             */
            amount: number;
            currency: components["schemas"]["CurrencyCode"];
            /**
             * @description Whether the amount includes VAT; `true` when not sent (the registry always serves it).
             * @example true
             */
            valueAddedTaxIncluded?: boolean;
        };
        /**
         * Debt
         * @description The debt the claim right stands for.
         * @example {
         *       "agreementNumber": "42",
         *       "dateSigned": "2017-08-16T12:30:17.615196+03:00",
         *       "debtorType": "legalPerson",
         *       "value": {
         *         "amount": 1,
         *         "currency": "UAH"
         *       },
         *       "debtCurrencyValue": {
         *         "amount": 100,
         *         "currency": "USD"
         *       }
         *     }
         */
        Debt: {
            /**
             * @description Number of the signed agreement.
             * @example 42
             */
            agreementNumber?: string;
            /**
             * @description Date of the agreement (of the last signature when there were several); kept as sent.
             * @example 2017-08-16T12:30:17.615196+03:00
             */
            dateSigned?: components["schemas"]["LocalDateTime"];
            debtorType?: components["schemas"]["DebtorType"];
            value?: components["schemas"]["DebtValue"];
            debtCurrencyValue?: components["schemas"]["DebtCurrencyValue"];
        };
        /**
         * LocalDateTime
         * @description An ISO 8601 date and time whose offset may be left out (then it is the registry's time zone); the
         *     registry also refuses a date that does not exist (`2017-02-30`).
         * @example 2017-08-16T12:30:17.615196+03:00
         */
        LocalDateTime: string;
        /**
         * DebtValue
         * @description The whole indebtedness, in hryvnias.
         * @example {
         *       "amount": 1,
         *       "currency": "UAH"
         *     }
         */
        DebtValue: {
            /**
             * @description The amount, 0 or more.
             * @example 1
             */
            amount: number;
            /**
             * @description Always `UAH`.
             * @example UAH
             * @enum {string}
             */
            currency: "UAH";
        };
        /**
         * DebtCurrencyValue
         * @description The whole indebtedness, in the currency of the debt.
         * @example {
         *       "amount": 100,
         *       "currency": "USD"
         *     }
         */
        DebtCurrencyValue: {
            /**
             * @description The amount, 0 or more.
             * @example 100
             */
            amount: number;
            /** @description The debt's ISO 4217 currency code. */
            currency: components["schemas"]["CurrencyCode"];
        };
        /**
         * Item
         * @description One asset covered by the claim right.
         * @example {
         *       "description": "футляри до державних нагород",
         *       "classification": {
         *         "scheme": "CAV",
         *         "id": "39513200-3",
         *         "description": "Cartons"
         *       },
         *       "unit": {
         *         "code": "H87",
         *         "name": "item"
         *       },
         *       "quantity": 5
         *     }
         */
        Item: {
            /**
             * @description The item's identifier; generated when not sent.
             * @example d778f751485b4bd79f285fc6e8fa90c1
             */
            id?: string;
            /**
             * @description A brief description, in Ukrainian.
             * @example футляри до державних нагород
             */
            description: string;
            /**
             * @description The description in English.
             * @example cases for state awards
             */
            description_en?: string;
            /**
             * @description The description in Russian.
             * @example футляры для государственных наград
             */
            description_ru?: string;
            classification?: components["schemas"]["Classification"];
            /**
             * @description Further classifications of the item.
             * @example [
             *       {
             *         "scheme": "ДКПП",
             *         "id": "17.21.1",
             *         "description": "папір і картон гофровані"
             *       }
             *     ]
             */
            additionalClassifications?: components["schemas"]["AdditionalClassification"][];
            unit?: components["schemas"]["Unit"];
            quantity?: components["schemas"]["Quantity"];
            address?: components["schemas"]["Address"];
            location?: components["schemas"]["Location"];
        };
        /**
         * Organization
         * @description An organisation; here the custodian managing the claim right.
         * @example {
         *       "name": "Державне управління справами",
         *       "identifier": {
         *         "scheme": "UA-EDR",
         *         "id": "00037256"
         *       },
         *       "address": {
         *         "countryName": "Україна"
         *       },
         *       "contactPoint": {
         *         "name": "Державне управління справами",
         *         "telephone": "0440000000"
         *       }
         *     }
         */
        Organization: {
            /**
             * @description The organisation's name, in Ukrainian.
             * @example Державне управління справами
             */
            name: string;
            /**
             * @description The name in English.
             * @example State Administration of Affairs
             */
            name_en?: string;
            /**
             * @description The name in Russian.
             * @example Государственное управление делами
             */
            name_ru?: string;
            identifier: components["schemas"]["Identifier"];
            /**
             * @description Further identifiers of the organisation.
             * @example [
             *       {
             *         "scheme": "UA-EDR",
             *         "id": "00037257"
             *       }
             *     ]
             */
            additionalIdentifiers?: components["schemas"]["Identifier"][];
            address: components["schemas"]["Address"];
            contactPoint: components["schemas"]["ContactPoint"];
        };
        /**
         * Identifier
         * @description An organisation's identifier in a registration agency's register.
         * @example {
         *       "scheme": "UA-EDR",
         *       "id": "00037256",
         *       "uri": "http://www.dus.gov.ua/"
         *     }
         */
        Identifier: {
            scheme: components["schemas"]["RegistrationAgencyCode"];
            /**
             * @description The identifier in that register.
             * @example 00037256
             */
            id: string;
            /**
             * @description The full legal name, in Ukrainian.
             * @example Державне управління справами
             */
            legalName?: string;
            /**
             * @description The legal name in English.
             * @example State Administration of Affairs
             */
            legalName_en?: string;
            /**
             * @description The legal name in Russian.
             * @example Государственное управление делами
             */
            legalName_ru?: string;
            /**
             * Format: uri
             * @description A URI identifying the organisation (not its website).
             * @example http://www.dus.gov.ua/
             */
            uri?: string;
        };
        /**
         * Address
         * @description A postal address.
         * @example {
         *       "countryName": "Україна",
         *       "postalCode": "79000",
         *       "region": "м. Київ",
         *       "streetAddress": "вул. Банкова 1",
         *       "locality": "м. Київ"
         *     }
         */
        Address: {
            /**
             * @description Street and building.
             * @example вул. Банкова 1
             */
            streetAddress?: string;
            /**
             * @description City, town or village.
             * @example м. Київ
             */
            locality?: string;
            /**
             * @description Region.
             * @example м. Київ
             */
            region?: string;
            /**
             * @description Postal code.
             * @example 79000
             */
            postalCode?: string;
            /**
             * @description Country, in Ukrainian.
             * @example Україна
             */
            countryName: string;
            /**
             * @description Country, in English.
             * @example Ukraine
             */
            countryName_en?: string;
            /**
             * @description Country, in Russian.
             * @example Украина
             */
            countryName_ru?: string;
        };
        /**
         * ContactPoint
         * @description Whom to contact. Rule `contact-email-or-telephone`: at least one of `telephone` and `email` must be given
         *     (422 `telephone or email should be present` otherwise); a plain schema cannot say so, the registry checks
         *     it (openapi/rules.yaml).
         * @example {
         *       "name": "Державне управління справами",
         *       "telephone": "0440000000"
         *     }
         */
        ContactPoint: {
            /**
             * @description The contact's name, in Ukrainian.
             * @example Державне управління справами
             */
            name: string;
            /**
             * @description The name in English.
             * @example State Administration of Affairs
             */
            name_en?: string;
            /**
             * @description The name in Russian.
             * @example Государственное управление делами
             */
            name_ru?: string;
            /**
             * Format: email
             * @description E-mail address.
             * @example custodian@dus.gov.ua
             */
            email?: string;
            /**
             * @description Telephone number, with the international dialling code.
             * @example +380440000000
             */
            telephone?: string;
            /**
             * @description Fax number, with the international dialling code.
             * @example +380440000001
             */
            faxNumber?: string;
            /**
             * Format: uri
             * @description A web page of the contact.
             * @example http://www.dus.gov.ua/
             */
            url?: string;
        };
        /**
         * Location
         * @description Geographic coordinates; when an item has both `location` and `address`, `location` wins.
         * @example {
         *       "latitude": "50.4501",
         *       "longitude": "30.5234"
         *     }
         */
        Location: {
            /**
             * @description Latitude in decimal degrees.
             * @example 50.4501
             */
            latitude: string;
            /**
             * @description Longitude in decimal degrees.
             * @example 30.5234
             */
            longitude: string;
            /**
             * @description Elevation in metres; usually left out.
             * @example 179
             */
            elevation?: string;
        };
        /**
         * DocumentCreateRequest
         * @description The body of `POST /assets/{asset_id}/documents` and of `PUT` of a document.
         * @example {
         *       "data": {
         *         "title": "notice.pdf",
         *         "format": "application/pdf",
         *         "documentType": "notice",
         *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6"
         *       },
         *       "access": {
         *         "token": "431a00c918cd47d48d6f37d62f631c37"
         *       }
         *     }
         */
        DocumentCreateRequest: {
            data: components["schemas"]["DocumentCreate"];
            options?: components["schemas"]["Options"];
            access?: components["schemas"]["AccessInput"];
        };
        /**
         * DocumentPatchRequest
         * @description The body of `PATCH` of a document.
         * @example {
         *       "data": {
         *         "description": "Повідомлення про продаж (виправлене)",
         *         "documentType": "notice"
         *       },
         *       "access": {
         *         "token": "431a00c918cd47d48d6f37d62f631c37"
         *       }
         *     }
         */
        DocumentPatchRequest: {
            data: components["schemas"]["DocumentInput"];
            options?: components["schemas"]["Options"];
            access?: components["schemas"]["AccessInput"];
        };
        /**
         * DocumentResponse
         * @description One version of a document.
         * @example {
         *       "data": {
         *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *         "title": "notice.pdf",
         *         "format": "application/pdf",
         *         "documentType": "notice",
         *         "documentOf": "asset",
         *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
         *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
         *         "author": "asset_owner"
         *       }
         *     }
         */
        DocumentResponse: {
            data: components["schemas"]["Document"];
        };
        /**
         * DocumentList
         * @description Documents of an asset.
         * @example {
         *       "data": []
         *     }
         */
        DocumentList: {
            /**
             * @description The documents (or, with `all`, their versions), oldest `dateModified` first.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            data: components["schemas"]["Document"][];
        };
        /**
         * DocumentVersionsResponse
         * @description The latest version of a document, with its older versions.
         * @example {
         *       "data": {
         *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *         "title": "notice-v2.pdf",
         *         "format": "application/pdf",
         *         "documentOf": "asset",
         *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/3c9d5b6e1f2a4b8c9d0e1f2a3b4c5d6e?KeyID=dbb5069b&Signature=mWuvGV92XN3XNdAb8x5RL6%2BoaXpGRnQTdfihvUYbClabUMHWc89DDTpiLOaMMJwyzQAmSBcV76RWFh3lxIVsBg%3D%3D",
         *         "hash": "md5:e4d909c290d0fb1ca068ffaddf22cbd0",
         *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
         *         "dateModified": "2018-01-09T18:40:12.502114+02:00",
         *         "author": "asset_owner",
         *         "previousVersions": [
         *           {
         *             "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *             "title": "notice.pdf",
         *             "format": "application/pdf",
         *             "documentOf": "asset",
         *             "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *             "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *             "datePublished": "2018-01-09T18:31:04.117321+02:00",
         *             "dateModified": "2018-01-09T18:31:04.117321+02:00",
         *             "author": "asset_owner"
         *           }
         *         ]
         *       }
         *     }
         */
        DocumentVersionsResponse: {
            data: components["schemas"]["DocumentWithVersions"];
        };
        /**
         * FileUpload
         * @description The multipart form of an upload.
         * @example {
         *       "file": "%PDF-1.7 …"
         *     }
         */
        FileUpload: {
            /**
             * Format: binary
             * @description The file, with its file name and (optionally) its content type in the part's headers.
             * @example %PDF-1.7 …
             */
            file: string;
        };
        /**
         * UploadedFileResponse
         * @description The answer to an upload.
         * @example {
         *       "data": {
         *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *         "format": "application/pdf",
         *         "title": "notice.pdf"
         *       }
         *     }
         */
        UploadedFileResponse: {
            data: components["schemas"]["UploadedFile"];
        };
        /**
         * UploadedFile
         * @description What to attach a stored file to an asset with; send these fields in `POST /assets/{asset_id}/documents`.
         * @example {
         *       "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *       "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *       "format": "application/pdf",
         *       "title": "notice.pdf"
         *     }
         */
        UploadedFile: {
            url: components["schemas"]["DocumentUrl"];
            hash: components["schemas"]["Md5Hash"];
            format: components["schemas"]["MediaType"];
            /**
             * @description The file name the file was uploaded with.
             * @example notice.pdf
             */
            title: string;
        };
        /**
         * DocumentId
         * @description A document's identifier, 32 hexadecimal characters; every version of a document has the same.
         * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
         */
        DocumentId: string;
        /**
         * DocumentType
         * @description What kind of document it is: the notice of the loan agreement, technical specifications, an
         *     illustration, a link to the virtual data room, or a presentation.
         * @example notice
         * @enum {string}
         */
        DocumentType: "notice" | "technicalSpecifications" | "illustration" | "virtualDataRoom" | "x_presentation";
        /**
         * DocumentOf
         * @description What the document belongs to; `asset` when not sent (the registry always serves it).
         * @example asset
         * @enum {string}
         */
        DocumentOf: "asset" | "lot";
        /**
         * DocumentAuthor
         * @description Who attached the document (`asset_owner` or `admins`); only they may write new versions of it.
         * @example asset_owner
         * @enum {string}
         */
        DocumentAuthor: "asset_owner" | "admins";
        /**
         * DocumentTitle
         * @description The document's title, usually its file name.
         * @example notice.pdf
         */
        DocumentTitle: string;
        /**
         * DocumentDatePublished
         * Format: date-time
         * @description When the document was first attached; the same in every version.
         * @example 2018-01-09T18:31:04.117321+02:00
         */
        DocumentDatePublished: string;
        /**
         * DocumentDateModified
         * Format: date-time
         * @description When this version of the document was written (a `PATCH` of the description does not change it).
         * @example 2018-01-09T18:31:04.117321+02:00
         */
        DocumentDateModified: string;
        /**
         * MediaType
         * @description The media type of the file, e.g. `application/pdf`.
         * @example application/pdf
         */
        MediaType: string;
        /**
         * DocumentUrl
         * Format: uri
         * @description Where to download the file: a signed URL of a document service, as `POST /ds/upload` answered it
         *     (`…/ds/get/<key>?KeyID=…&Signature=…`).
         * @example http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D
         */
        DocumentUrl: string;
        /**
         * Md5Hash
         * @description A file's checksum, `md5:` and 32 hexadecimal characters (the signature of `url` covers it). Other
         *     algorithms are refused: `Hash type is not supported.`
         * @example md5:9e107d9d372bb6826bd81d3542a419d6
         */
        Md5Hash: string;
        /**
         * DocumentInput
         * @description Any subset of a document's fields, as a `PATCH` sends them. `url` and `hash` are accepted and ignored
         *     there (a new file is a new version), and so are the generated fields (`id`, `datePublished`,
         *     `dateModified` and `author`: sent in a request they are checked and ignored).
         * @example {
         *       "description": "Повідомлення про продаж (виправлене)"
         *     }
         */
        DocumentInput: {
            id?: components["schemas"]["DocumentId"];
            documentType?: components["schemas"]["DocumentType"];
            title?: components["schemas"]["DocumentTitle"];
            /**
             * @description The title in English.
             * @example notice.pdf
             */
            title_en?: string;
            /**
             * @description The title in Russian.
             * @example notice.pdf
             */
            title_ru?: string;
            /**
             * @description What the document says.
             * @example Повідомлення про продаж
             */
            description?: string;
            /**
             * @description The description in English.
             * @example Notice of sale
             */
            description_en?: string;
            /**
             * @description The description in Russian.
             * @example Уведомление о продаже
             */
            description_ru?: string;
            format?: components["schemas"]["MediaType"];
            url?: components["schemas"]["DocumentUrl"];
            hash?: components["schemas"]["Md5Hash"];
            datePublished?: components["schemas"]["DocumentDatePublished"];
            dateModified?: components["schemas"]["DocumentDateModified"];
            /**
             * @description ISO 639-1 or BCP 47 language tag of the text.
             * @example uk
             */
            language?: string;
            documentOf?: components["schemas"]["DocumentOf"];
            /** @description Identifier of the related lot or item, 32 hexadecimal characters. */
            relatedItem?: components["schemas"]["Md5"];
            author?: components["schemas"]["DocumentAuthor"];
        };
        /**
         * DocumentCreate
         * @description A new document, or a new version of one: `title`, `format`, `url` and `hash` are required (usually as the
         *     upload answered them). A new version keeps the other fields of the previous one unless sent.
         * @example {
         *       "title": "notice.pdf",
         *       "format": "application/pdf",
         *       "documentType": "notice",
         *       "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *       "hash": "md5:9e107d9d372bb6826bd81d3542a419d6"
         *     }
         */
        DocumentCreate: {
            id?: components["schemas"]["DocumentId"];
            documentType?: components["schemas"]["DocumentType"];
            title: components["schemas"]["DocumentTitle"];
            /**
             * @description The title in English.
             * @example notice.pdf
             */
            title_en?: string;
            /**
             * @description The title in Russian.
             * @example notice.pdf
             */
            title_ru?: string;
            /**
             * @description What the document says.
             * @example Повідомлення про продаж
             */
            description?: string;
            /**
             * @description The description in English.
             * @example Notice of sale
             */
            description_en?: string;
            /**
             * @description The description in Russian.
             * @example Уведомление о продаже
             */
            description_ru?: string;
            format: components["schemas"]["MediaType"];
            url: components["schemas"]["DocumentUrl"];
            hash: components["schemas"]["Md5Hash"];
            datePublished?: components["schemas"]["DocumentDatePublished"];
            dateModified?: components["schemas"]["DocumentDateModified"];
            /**
             * @description ISO 639-1 or BCP 47 language tag of the text.
             * @example uk
             */
            language?: string;
            documentOf?: components["schemas"]["DocumentOf"];
            /** @description Identifier of the related lot or item, 32 hexadecimal characters. */
            relatedItem?: components["schemas"]["Md5"];
            author?: components["schemas"]["DocumentAuthor"];
        };
        /**
         * Document
         * @description One version of a document attached to the asset, as the registry serves it.
         * @example {
         *       "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *       "title": "notice.pdf",
         *       "format": "application/pdf",
         *       "documentType": "notice",
         *       "documentOf": "asset",
         *       "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *       "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *       "datePublished": "2018-01-09T18:31:04.117321+02:00",
         *       "dateModified": "2018-01-09T18:31:04.117321+02:00",
         *       "author": "asset_owner"
         *     }
         */
        Document: {
            id: components["schemas"]["DocumentId"];
            documentType?: components["schemas"]["DocumentType"];
            title: components["schemas"]["DocumentTitle"];
            /**
             * @description The title in English.
             * @example notice.pdf
             */
            title_en?: string;
            /**
             * @description The title in Russian.
             * @example notice.pdf
             */
            title_ru?: string;
            /**
             * @description What the document says.
             * @example Повідомлення про продаж
             */
            description?: string;
            /**
             * @description The description in English.
             * @example Notice of sale
             */
            description_en?: string;
            /**
             * @description The description in Russian.
             * @example Уведомление о продаже
             */
            description_ru?: string;
            format: components["schemas"]["MediaType"];
            url: components["schemas"]["DocumentUrl"];
            hash: components["schemas"]["Md5Hash"];
            datePublished: components["schemas"]["DocumentDatePublished"];
            dateModified: components["schemas"]["DocumentDateModified"];
            /**
             * @description ISO 639-1 or BCP 47 language tag of the text.
             * @example uk
             */
            language?: string;
            documentOf: components["schemas"]["DocumentOf"];
            /** @description Identifier of the related lot or item, 32 hexadecimal characters. */
            relatedItem?: components["schemas"]["Md5"];
            author: components["schemas"]["DocumentAuthor"];
        };
        /**
         * DocumentWithVersions
         * @description The latest version of a document, with `previousVersions` once it has more than one.
         * @example {
         *       "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
         *       "title": "notice.pdf",
         *       "format": "application/pdf",
         *       "documentOf": "asset",
         *       "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
         *       "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
         *       "datePublished": "2018-01-09T18:31:04.117321+02:00",
         *       "dateModified": "2018-01-09T18:31:04.117321+02:00",
         *       "author": "asset_owner"
         *     }
         */
        DocumentWithVersions: {
            id: components["schemas"]["DocumentId"];
            documentType?: components["schemas"]["DocumentType"];
            title: components["schemas"]["DocumentTitle"];
            /**
             * @description The title in English.
             * @example notice.pdf
             */
            title_en?: string;
            /**
             * @description The title in Russian.
             * @example notice.pdf
             */
            title_ru?: string;
            /**
             * @description What the document says.
             * @example Повідомлення про продаж
             */
            description?: string;
            /**
             * @description The description in English.
             * @example Notice of sale
             */
            description_en?: string;
            /**
             * @description The description in Russian.
             * @example Уведомление о продаже
             */
            description_ru?: string;
            format: components["schemas"]["MediaType"];
            url: components["schemas"]["DocumentUrl"];
            hash: components["schemas"]["Md5Hash"];
            datePublished: components["schemas"]["DocumentDatePublished"];
            dateModified: components["schemas"]["DocumentDateModified"];
            /**
             * @description ISO 639-1 or BCP 47 language tag of the text.
             * @example uk
             */
            language?: string;
            documentOf: components["schemas"]["DocumentOf"];
            /** @description Identifier of the related lot or item, 32 hexadecimal characters. */
            relatedItem?: components["schemas"]["Md5"];
            author: components["schemas"]["DocumentAuthor"];
            /**
             * @description The document's older versions, oldest first; absent while it has only one.
             * @example [
             *       {
             *         "id": "9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a",
             *         "title": "notice.pdf",
             *         "format": "application/pdf",
             *         "documentOf": "asset",
             *         "url": "http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D",
             *         "hash": "md5:9e107d9d372bb6826bd81d3542a419d6",
             *         "datePublished": "2018-01-09T18:31:04.117321+02:00",
             *         "dateModified": "2018-01-09T18:31:04.117321+02:00",
             *         "author": "asset_owner"
             *       }
             *     ]
             */
            previousVersions?: components["schemas"]["Document"][];
        };
    };
    responses: {
        /**
         * @description A malformed query parameter (`offset`, `limit`, the `opt_jsonp` callback name) or `Last-Event-ID` header; or a
         *     `Host` the registry does not answer to (`header` / `Host`: missing, empty, sent twice, none of the host of
         *     `PUBLIC_URL`, `ALLOWED_HOSTS`, `localhost`, `127.0.0.1` and `[::1]`, or, without `PUBLIC_URL`, on a port the
         *     registry does not listen on).
         */
        BadRequest: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "querystring",
                 *           "name": "offset",
                 *           "description": "Offset must be an ISO 8601 date-time, e.g. 2018-01-09T18:31:03.936033+02:00."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A write without an API key, or with an unknown one; also a read of a transfer. */
        Unauthorized: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                /**
                 * @description The scheme to authenticate with.
                 * @example Basic realm="registry"
                 */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "header",
                 *           "name": "Authorization",
                 *           "description": "No valid API key supplied"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A known key without the right to the asset, the field or the move, e.g. `Can't update asset in current
         *     (<status>) status` or `Can't switch asset to draft status`.
         */
        Forbidden: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "data",
                 *           "description": "Can't update asset in current (active) status"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description An unknown path, an asset id that does not exist (`url` / `asset_id` / `Not Found`) or a document id the
         *     asset does not have (`url` / `document_id` / `Not Found`).
         */
        NotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "asset_id",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The ownership change is refused: the concierge (`url` / `permission` / `Forbidden`); a `deleted` or
         *     `complete` asset (`body` / `data` / `Can't update credentials in current (<status>) asset status`); a
         *     transfer token that is not the asset's (`body` / `transfer` / `Invalid transfer`); a transfer used for
         *     another asset (`body` / `transfer` / `Transfer already used`).
         */
        OwnershipForbidden: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "transfer",
                 *           "description": "Invalid transfer"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description An unknown path, an unknown asset (`url` / `asset_id` / `Not Found`) or an unknown transfer in the body
         *     (`body` / `id` / `Not Found`).
         */
        OwnershipNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "id",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The body is not a JSON object with an object `data` (`No JSON object could be decoded`), is not UTF-8, or
         *     `data` lacks `id` or `transfer` (`This field is required.`) or holds one that is not a non-empty string.
         *     One entry per failing field.
         */
        OwnershipUnprocessable: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "id",
                 *           "description": [
                 *             "This field is required."
                 *           ]
                 *         },
                 *         {
                 *           "location": "body",
                 *           "name": "transfer",
                 *           "description": [
                 *             "This field is required."
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unknown path, or a transfer id that does not exist. */
        TransferNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "transfer_id",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description No checkpoint yet (`url` / `checkpoint` / `Not Found`), a tile the latest checkpoint does not cover
         *     (`url` / `tile` / `Not Found`), or an unknown path (`url` / `path`), a malformed tile path included.
         */
        LogNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "tile",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description An unknown path, an asset id that does not exist (`url` / `asset_id` / `Not Found`) or a `rev` beyond the
         *     asset's last revision (`url` / `rev` / `Not Found`).
         */
        RevisionNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "rev",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not with this method; `Allow` lists the methods it has. */
        MethodNotAllowed: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                /**
                 * @description The methods the path accepts.
                 * @example GET, HEAD, PATCH
                 */
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "method",
                 *           "name": "method",
                 *           "description": "Method Not Allowed"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Another change of the same asset won the race; read the asset again and repeat. */
        Conflict: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "data",
                 *           "description": "The asset was changed by another request; read it again and repeat the change."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A `Host` the registry does not answer to: missing, empty, sent twice, none of the host of `PUBLIC_URL`, the
         *     names of `ALLOWED_HOSTS`, `localhost`, `127.0.0.1` and `[::1]`, or, without `PUBLIC_URL`, with a port other
         *     than the one the registry listens on. Nothing was done.
         */
        BadHost: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "header",
                 *           "name": "Host",
                 *           "description": "The registry does not answer to this host"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request's headers, or the next bytes of its body, did not arrive within `REQUEST_TIMEOUT` (30 s unless
         *     set otherwise). Nothing was done, and the connection is closed. A body that keeps arriving is never cut,
         *     however long it takes.
         */
        RequestTimeout: {
            headers: {
                /**
                 * @description The connection is closed after this answer.
                 * @example close
                 */
                Connection?: "close";
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "header",
                 *           "name": "request",
                 *           "description": "Request timeout"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The cluster cookie is missing (on a POST, PUT or PATCH), names another node or a restarted node, or fails
         *     its signature. Nothing was done. `Set-Cookie` holds a fresh cookie: repeat the request with this cookie.
         */
        PreconditionFailed: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                /**
                 * @description `SERVER_ID=<signed node name>; Path=/; HttpOnly; SameSite=Lax`, the fresh cluster cookie: repeat the
                 *     request with this cookie (`Cookie: SERVER_ID=<value>`), and send it on every later request.
                 * @example SERVER_ID=node-1.1764069000000.kJ2b7w; Path=/; HttpOnly; SameSite=Lax
                 */
                "Set-Cookie": string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "cookies",
                 *           "name": "SERVER_ID",
                 *           "description": "Cookie of another server or of a restarted one; repeat the request with the new cookie."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than the limit (1 MiB unless `BODY_LIMIT` says otherwise). */
        PayloadTooLarge: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "data",
                 *           "description": "Request body is too large (limit 1048576 bytes)"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not `application/json` (or not in UTF-8). */
        UnsupportedMediaType: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "header",
                 *           "name": "Content-Type",
                 *           "description": "Content-Type header should be one of ['application/json']"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The body is not a JSON object with an object `data` (`No JSON object could be decoded`), is not UTF-8, or
         *     its fields fail validation. One entry per failing top-level field.
         */
        UnprocessableEntity: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "assetCustodian",
                 *           "description": {
                 *             "contactPoint": {
                 *               "email": [
                 *                 "telephone or email should be present"
                 *               ]
                 *             }
                 *           }
                 *         },
                 *         {
                 *           "location": "body",
                 *           "name": "title",
                 *           "description": [
                 *             "This field is required."
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests from this address; repeat later with an increasing delay. */
        TooManyRequests: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                /**
                 * @description Seconds to wait before the next attempt.
                 * @example 60
                 */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "header",
                 *           "name": "X-Forwarded-For",
                 *           "description": "Rate limit exceeded, retry in 1 minute"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The node cannot serve: its store does not answer (`url` / `store` / `The store does not answer`), or the
         *     node is shutting down (`url` / `server` / `Shutting down`, with `Retry-After`), from the moment it starts
         *     draining, so that a load balancer stops sending it requests.
         */
        ServiceUnavailable: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Retry-After": components["headers"]["RetryAfterShuttingDown"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "store",
                 *           "description": "The store does not answer"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The node is shutting down (`url` / `server` / `Shutting down`): the request arrived after it started
         *     draining and was not carried out. Repeat it after `Retry-After` seconds; a load balancer sends the repeat
         *     to another node. The store's refusals are 503 too, with `Retry-After`: a write the store is too busy to take
         *     in time (`body` / `data` / `The storage is busy, please retry.`), a store that does not answer (`url` /
         *     `store` / `The store does not answer`: down, unreachable or failing over), a full file system (`url` /
         *     `store` / `Storage full`; reads go on). Such a write was not carried out, or, when the store stopped
         *     answering while it was being written, carried out whole: read the asset before repeating a create.
         */
        ShuttingDown: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Retry-After": components["headers"]["RetryAfterShuttingDown"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "server",
                 *           "description": "Shutting down"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description This node already serves `STREAM_MAX_CLIENTS` streams, or is shutting down (`url` / `server` / `Shutting
         *     down`). Retry after `Retry-After` seconds, with `Last-Event-ID` (a balancer may send the retry to another
         *     node).
         */
        TooManyStreams: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                /**
                 * @description Seconds to wait before the next attempt.
                 * @example 5
                 */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "stream",
                 *           "description": "Too many streams, retry later"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The caller may not change the asset's documents (`url` / `permission` / `Forbidden`: not the owner with its
         *     token, nor an admin), the asset's status does not allow it (`body` / `data` / `Can't update document in
         *     current (<status>) asset status`), the document has another author (`url` / `role` / `Can update document
         *     only author`), or the `url` is not a document service's (`body` / `url` / `Can add document only from
         *     document service.`).
         */
        DocumentForbidden: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "data",
                 *           "description": "Can't update document in current (active) asset status"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The body is not a JSON object with an object `data`, or the document's fields fail validation (one entry
         *     per failing field, e.g. `hash`: `Hash type is not supported.`), or the signed `url` does not hold for its
         *     `hash` (`Document url expired.`, `Document url signature invalid.`, `Document url invalid.`).
         */
        DocumentUnprocessable: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "url",
                 *           "description": "Document url invalid."
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request has no part named `file` with a file name. */
        FilePartMissing: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "file",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The file is larger than the `DS_MAX_BYTES` setting (50 MiB by default); nothing was kept. */
        FileTooLarge: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "body",
                 *           "name": "file",
                 *           "description": "The file is larger than the document service accepts (52428800 bytes)"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The file exists but the URL's `KeyID` or `Signature` is missing or does not hold. */
        FileForbidden: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "querystring",
                 *           "name": "Signature",
                 *           "description": "Signature does not match"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No stored file has this key (or the path is unknown). */
        FileNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "key",
                 *           "description": "Not Found"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description An unexpected failure inside the registry, logged with the request's `X-Request-ID`. A write may or may not
         *     have been carried out: read the resource before repeating it.
         */
        InternalError: {
            headers: {
                "X-Request-ID": components["headers"]["X-Request-ID"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "errors": [
                 *         {
                 *           "location": "url",
                 *           "name": "server",
                 *           "description": "Internal Server Error"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description Entity tags (`ETag`) of versions of the asset the client holds, comma-separated, or `*`. When the asset is
         *     still one of them the answer is 304 without a body. Weak comparison: `W/"1"` and `"1"` match.
         *     Example: `W/"1515515463842028"`.
         */
        IfNoneMatch: string;
        /**
         * @description The asset's `id`, 32 lowercase hexadecimal characters.
         * @example 6aa3093c0b00447abefcacf9a11da277
         */
        AssetIdPath: string;
        /**
         * @description The tile's level, a whole number from 0 written without leading zeros.
         * @example 0
         */
        LogTileLevel: string;
        /**
         * @description The tile's index as tlog-tiles writes it, across path segments: groups of three digits, all but the last
         *     prefixed with `x` (`1234067` is `x001/x234/067`), followed by `.p/<W>` (W from 1 to 255) for the first `W`
         *     entries of a partial tile.
         * @example 000.p/1
         */
        LogTileIndex: string;
        /**
         * @description The transfer's `id`, 32 lowercase hexadecimal characters.
         * @example f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
         */
        TransferIdPath: string;
        /**
         * @description Where the page starts: a `dateModified` value (exclusive), usually `next_page.offset` of the previous page.
         *     Any ISO 8601 date-time is accepted, in any offset; a `+` that arrived unencoded (decoded to a space) is
         *     still understood. Empty means the start of the feed (or its end when `descending`). Anything else is 400.
         *     Example: `2018-01-09T18:31:03.936033+02:00`.
         */
        Offset: string;
        /**
         * @description The id of the last event the client received (a `dateModified` value, as the `offset` query parameter takes):
         *     the stream resumes right after it. Browsers' `EventSource` sends it on every reconnect. Wins over `offset`;
         *     a value that is not a date-time is 400. Example: `2018-01-09T18:31:03.936033+02:00`.
         */
        LastEventId: string;
        /**
         * @description Entries per page, a whole number from 1; above 1000 is served as 1000. Anything else is 400.
         * @example 100
         */
        Limit: number;
        /** @description When present with any non-empty value (even `0`), the feed is read newest change first. Example: `1`. */
        Descending: string;
        /**
         * @description Without it only real assets are listed; `test` lists only test-mode assets, `_all_` both. Any other value
         *     lists real assets, as without it (as the original did). Example: `_all_`.
         */
        Mode: string;
        /**
         * @description Comma-separated asset fields to add to each listing entry beside `id` and `dateModified`.
         *     Example: `status,assetID`.
         */
        OptFields: string;
        /**
         * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
         *     Example: `1`.
         */
        OptPretty: string;
        /**
         * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
         *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
         *     as a second media type of each answer, which would make generated clients type every answer as a union
         *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
         *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
         */
        OptJsonp: string;
        /** @description The owner token returned at creation (`access.token`). Example: `431a00c918cd47d48d6f37d62f631c37`. */
        AccToken: string;
        /** @description The owner token, as a header instead of `acc_token`. Example: `431a00c918cd47d48d6f37d62f631c37`. */
        AccessTokenHeader: string;
        /**
         * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
         *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
         *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
         */
        RequestId: string;
        /**
         * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
         *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
         *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
         *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
         *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
         */
        ServerIdCookie: string;
        /**
         * @description The document's `id`, 32 lowercase hexadecimal characters.
         * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
         */
        DocumentIdPath: string;
        /**
         * @description When present with any non-empty value, every version of every document is listed, not only the latest ones.
         *     Example: `1`.
         */
        AllVersions: string;
        /**
         * @description The stored file's key, 32 lowercase hexadecimal characters (the last path segment of its `url`).
         * @example 0f1e2d3c4b5a69788796a5b4c3d2e1f0
         */
        FileKeyPath: string;
        /** @description The first 8 hexadecimal characters of the public key the URL was signed with. Example: `dbb5069b`. */
        KeyIdQuery: string;
        /**
         * @description The Ed25519 signature of `<key>`, a zero byte and the MD5 of the file in hex: 64 bytes in base64.
         *     Example: `jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW+AYifD1vm6s1A4h3pk7Tgvmj+peAbikb4xNJlhL8jFMsiKjvRzDw==`.
         */
        SignatureQuery: string;
        /**
         * @description A revision's number (`rev`), a whole number from 1 without leading zeros; anything else is 400.
         * @example 2
         */
        RevisionPath: string;
        /**
         * @description Where the page starts: a `rev`, the page starting after it (`0`, the default, starts at revision 1); usually
         *     `next_page.offset` of the previous page. A whole number from 0 to 2^53 − 1; anything else is 400, once the
         *     asset is known to exist. Example: `100`.
         */
        RevisionOffset: number;
        /**
         * @description Revisions per page, a whole number from 1; above 1000 is served as 1000. Anything else is 400, once the
         *     asset is known to exist.
         * @example 100
         */
        RevisionLimit: number;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The version of the asset served, as a weak entity tag (`W/"<microseconds of its dateModified>"`): it changes
         *     with every change of the asset. Send it back in `If-None-Match` to be answered 304 while it holds.
         * @example W/"1515515463842028"
         */
        ETag: string;
        /**
         * @description Seconds to wait before repeating the request; sent when the node is shutting down or its store refused.
         * @example 1
         */
        RetryAfterShuttingDown: number;
        /**
         * @description The request's identifier, the one its log lines carry: the request's own `X-Request-ID` when it matches
         *     `^[A-Za-z0-9._:-]{1,64}$`, otherwise a new one (`req-<uuid>`).
         * @example req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427
         */
        "X-Request-ID": string;
        /**
         * @description CORS: `*` on GET and HEAD for a page on any origin (public reads need no credentials); the page's own origin
         *     on every answer for an origin of the `CORS_ORIGINS` setting (none unless set); absent otherwise (writes
         *     from other origins are refused by the browser). Sent only when the request carries `Origin`.
         * @example *
         */
        "Access-Control-Allow-Origin": string;
        /**
         * @description CORS: `true` on answers to an origin of `CORS_ORIGINS`: the page may send the cluster cookie and its key.
         * @example true
         */
        "Access-Control-Allow-Credentials": "true";
        /**
         * @description CORS: the answer headers a page on another origin may read, beyond the CORS-safelisted ones.
         * @example ETag, Location, Retry-After, WWW-Authenticate, X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset
         */
        "Access-Control-Expose-Headers": string;
        /**
         * @description `Origin` (among others): the CORS headers depend on the page's origin, so caches keep one answer per origin.
         * @example Origin
         */
        Vary: string;
        /**
         * @description How many requests one client address may make per window (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW`). Sent
         *     on every answer to a request counted against the rate limit (all but the health probe, 405 and 412).
         * @example 1000
         */
        "X-RateLimit-Limit": number;
        /**
         * @description How many more requests this client address may make in the current window.
         * @example 999
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Seconds until the current window ends and the count starts again.
         * @example 60
         */
        "X-RateLimit-Reset": number;
        /**
         * @description `public, max-age=31536000, immutable` on a full tile (it never changes); `public, max-age=5` on a partial
         *     one (`.p/W`).
         * @example public, max-age=31536000, immutable
         */
        LogTileCacheControl: "public, max-age=31536000, immutable" | "public, max-age=5";
        /**
         * @description `SERVER_ID=<signed node name>; Path=/`: sent when the request had no valid cluster cookie. Send it back on
         *     every later request, and always on POST, PUT and PATCH.
         * @example SERVER_ID=node-1.1764069000000.kJ2b7w; Path=/; HttpOnly; SameSite=Lax
         */
        "Set-Cookie": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAssets: {
        parameters: {
            query?: {
                /**
                 * @description Where the page starts: a `dateModified` value (exclusive), usually `next_page.offset` of the previous page.
                 *     Any ISO 8601 date-time is accepted, in any offset; a `+` that arrived unencoded (decoded to a space) is
                 *     still understood. Empty means the start of the feed (or its end when `descending`). Anything else is 400.
                 *     Example: `2018-01-09T18:31:03.936033+02:00`.
                 */
                offset?: components["parameters"]["Offset"];
                /**
                 * @description Entries per page, a whole number from 1; above 1000 is served as 1000. Anything else is 400.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /** @description When present with any non-empty value (even `0`), the feed is read newest change first. Example: `1`. */
                descending?: components["parameters"]["Descending"];
                /**
                 * @description Without it only real assets are listed; `test` lists only test-mode assets, `_all_` both. Any other value
                 *     lists real assets, as without it (as the original did). Example: `_all_`.
                 */
                mode?: components["parameters"]["Mode"];
                /**
                 * @description Comma-separated asset fields to add to each listing entry beside `id` and `dateModified`.
                 *     Example: `status,assetID`.
                 */
                opt_fields?: components["parameters"]["OptFields"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description One page of the feed. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListingPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    createAsset: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description The new asset in `data`; `options` beside it wins over the `opt_*` query parameters. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssetCreateRequest"];
            };
        };
        responses: {
            /** @description The asset was created. `Location` points at it, `access.token` is its owner token and `access.transfer` its transfer token. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            201: {
                headers: {
                    /**
                     * @description Absolute URL of the new asset; its last segment is `data.id`.
                     * @example http://127.0.0.1:6543/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277
                     */
                    Location?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    streamAssetChanges: {
        parameters: {
            query?: {
                /**
                 * @description Where the page starts: a `dateModified` value (exclusive), usually `next_page.offset` of the previous page.
                 *     Any ISO 8601 date-time is accepted, in any offset; a `+` that arrived unencoded (decoded to a space) is
                 *     still understood. Empty means the start of the feed (or its end when `descending`). Anything else is 400.
                 *     Example: `2018-01-09T18:31:03.936033+02:00`.
                 */
                offset?: components["parameters"]["Offset"];
                /**
                 * @description Without it only real assets are listed; `test` lists only test-mode assets, `_all_` both. Any other value
                 *     lists real assets, as without it (as the original did). Example: `_all_`.
                 */
                mode?: components["parameters"]["Mode"];
                /**
                 * @description Comma-separated asset fields to add to each listing entry beside `id` and `dateModified`.
                 *     Example: `status,assetID`.
                 */
                opt_fields?: components["parameters"]["OptFields"];
            };
            header?: {
                /**
                 * @description The id of the last event the client received (a `dateModified` value, as the `offset` query parameter takes):
                 *     the stream resumes right after it. Browsers' `EventSource` sends it on every reconnect. Wins over `offset`;
                 *     a value that is not a date-time is 400. Example: `2018-01-09T18:31:03.936033+02:00`.
                 */
                "Last-Event-ID"?: components["parameters"]["LastEventId"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The stream of events; it stays open until the client or the node closes it. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    /**
                     * @description Streams are never cached.
                     * @example no-cache
                     */
                    "Cache-Control"?: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["ChangeStream"];
                };
            };
            400: components["responses"]["BadRequest"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["TooManyStreams"];
        };
    };
    getAsset: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description Entity tags (`ETag`) of versions of the asset the client holds, comma-separated, or `*`. When the asset is
                 *     still one of them the answer is 304 without a body. Weak comparison: `W/"1"` and `"1"` match.
                 *     Example: `W/"1515515463842028"`.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The asset. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            /** @description The asset is still the version named in `If-None-Match`: no body. The `ETag` repeats that version. */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    patchAsset: {
        parameters: {
            query?: {
                /** @description The owner token returned at creation (`access.token`). Example: `431a00c918cd47d48d6f37d62f631c37`. */
                acc_token?: components["parameters"]["AccToken"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /** @description The owner token, as a header instead of `acc_token`. Example: `431a00c918cd47d48d6f37d62f631c37`. */
                "X-Access-Token"?: components["parameters"]["AccessTokenHeader"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description Any subset of the asset's fields in `data`. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssetPatchRequest"];
            };
        };
        responses: {
            /** @description The asset after the change. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    changeAssetOwnership: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description The transfer to apply and the asset's transfer token, in `data`. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["OwnershipChangeRequest"];
            };
        };
        responses: {
            /** @description The asset with its new owner (200, not 201, as in the original registry). With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["OwnershipForbidden"];
            404: components["responses"]["OwnershipNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["OwnershipUnprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    listAssetRevisions: {
        parameters: {
            query?: {
                /**
                 * @description Where the page starts: a `rev`, the page starting after it (`0`, the default, starts at revision 1); usually
                 *     `next_page.offset` of the previous page. A whole number from 0 to 2^53 − 1; anything else is 400, once the
                 *     asset is known to exist. Example: `100`.
                 */
                offset?: components["parameters"]["RevisionOffset"];
                /**
                 * @description Revisions per page, a whole number from 1; above 1000 is served as 1000. Anything else is 400, once the
                 *     asset is known to exist.
                 * @example 100
                 */
                limit?: components["parameters"]["RevisionLimit"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description One page of the asset's history. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevisionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getAssetRevision: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description A revision's number (`rev`), a whole number from 1 without leading zeros; anything else is 400.
                 * @example 2
                 */
                rev: components["parameters"]["RevisionPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The asset after that revision. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetAtRevision"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["RevisionNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getLogCheckpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The checkpoint, as a signed note. */
            200: {
                headers: {
                    /**
                     * @description A checkpoint is replaced by the next one at any moment.
                     * @example no-cache
                     */
                    "Cache-Control"?: "no-cache";
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["LogCheckpoint"];
                };
            };
            400: components["responses"]["BadHost"];
            404: components["responses"]["LogNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getLogVerifierKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The verifier key. */
            200: {
                headers: {
                    /**
                     * @description Read again each time.
                     * @example no-cache
                     */
                    "Cache-Control"?: "no-cache";
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["LogVerifierKey"];
                };
            };
            400: components["responses"]["BadHost"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getLogHashTile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tile's level, a whole number from 0 written without leading zeros.
                 * @example 0
                 */
                level: components["parameters"]["LogTileLevel"];
                /**
                 * @description The tile's index as tlog-tiles writes it, across path segments: groups of three digits, all but the last
                 *     prefixed with `x` (`1234067` is `x001/x234/067`), followed by `.p/<W>` (W from 1 to 255) for the first `W`
                 *     entries of a partial tile.
                 * @example 000.p/1
                 */
                index: components["parameters"]["LogTileIndex"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The tile's hashes. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["LogTileCacheControl"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": components["schemas"]["LogHashTile"];
                };
            };
            400: components["responses"]["BadHost"];
            404: components["responses"]["LogNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getLogEntryBundle: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tile's index as tlog-tiles writes it, across path segments: groups of three digits, all but the last
                 *     prefixed with `x` (`1234067` is `x001/x234/067`), followed by `.p/<W>` (W from 1 to 255) for the first `W`
                 *     entries of a partial tile.
                 * @example 000.p/1
                 */
                index: components["parameters"]["LogTileIndex"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The bundle. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["LogTileCacheControl"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": components["schemas"]["LogEntryBundle"];
                };
            };
            400: components["responses"]["BadHost"];
            404: components["responses"]["LogNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    createTransfer: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description An object `data`, usually empty; whatever it holds is ignored. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferCreateRequest"];
            };
        };
        responses: {
            /** @description The transfer was created. `Location` points at it. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            201: {
                headers: {
                    /**
                     * @description Absolute URL of the new transfer; its last segment is `data.id`.
                     * @example http://127.0.0.1:6543/api/0.1/transfers/f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
                     */
                    Location?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getTransfer: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The transfer's `id`, 32 lowercase hexadecimal characters.
                 * @example f2a9c4b1e0d34c7e9a8b7c6d5e4f3a2b
                 */
                transfer_id: components["parameters"]["TransferIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The transfer. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["TransferNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                /**
                 * @description When present with any non-empty value, every version of every document is listed, not only the latest ones.
                 *     Example: `1`.
                 */
                all?: components["parameters"]["AllVersions"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The documents. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentList"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    createDocument: {
        parameters: {
            query?: {
                /** @description The owner token returned at creation (`access.token`). Example: `431a00c918cd47d48d6f37d62f631c37`. */
                acc_token?: components["parameters"]["AccToken"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /** @description The owner token, as a header instead of `acc_token`. Example: `431a00c918cd47d48d6f37d62f631c37`. */
                "X-Access-Token"?: components["parameters"]["AccessTokenHeader"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description The document in `data`; `access` and `options` may sit beside it. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentCreateRequest"];
            };
        };
        responses: {
            /** @description The document was attached. `Location` points at it. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            201: {
                headers: {
                    /**
                     * @description Absolute URL of the new document; its last segment is `data.id`.
                     * @example http://127.0.0.1:6543/api/0.1/assets/6aa3093c0b00447abefcacf9a11da277/documents/9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
                     */
                    Location?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DocumentForbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["DocumentUnprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getDocument: {
        parameters: {
            query?: {
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description The document's `id`, 32 lowercase hexadecimal characters.
                 * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
                 */
                document_id: components["parameters"]["DocumentIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The document. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentVersionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    replaceDocument: {
        parameters: {
            query?: {
                /** @description The owner token returned at creation (`access.token`). Example: `431a00c918cd47d48d6f37d62f631c37`. */
                acc_token?: components["parameters"]["AccToken"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /** @description The owner token, as a header instead of `acc_token`. Example: `431a00c918cd47d48d6f37d62f631c37`. */
                "X-Access-Token"?: components["parameters"]["AccessTokenHeader"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description The document's `id`, 32 lowercase hexadecimal characters.
                 * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
                 */
                document_id: components["parameters"]["DocumentIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description The new version in `data`; `access` and `options` may sit beside it. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentCreateRequest"];
            };
        };
        responses: {
            /** @description The new version. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DocumentForbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["DocumentUnprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    patchDocument: {
        parameters: {
            query?: {
                /** @description The owner token returned at creation (`access.token`). Example: `431a00c918cd47d48d6f37d62f631c37`. */
                acc_token?: components["parameters"]["AccToken"];
                /**
                 * @description When present (any value, even `0`), the JSON is indented by four spaces. Errors are never pretty.
                 *     Example: `1`.
                 */
                opt_pretty?: components["parameters"]["OptPretty"];
                /**
                 * @description JSONP, for pages that cannot use CORS: the answer comes as `application/javascript`, the operation's
                 *     `application/json` answer wrapped as `/**\/<callback>(<json>);` (declared here and in `x-jsonp` rather than
                 *     as a second media type of each answer, which would make generated clients type every answer as a union
                 *     with text). The name must be a plain JavaScript identifier path (`^[$a-z_][$0-9a-z_.\[\]]+[^.]$`,
                 *     case-insensitive), otherwise 400. Errors are never wrapped. Example: `callback`.
                 */
                opt_jsonp?: components["parameters"]["OptJsonp"];
            };
            header?: {
                /** @description The owner token, as a header instead of `acc_token`. Example: `431a00c918cd47d48d6f37d62f631c37`. */
                "X-Access-Token"?: components["parameters"]["AccessTokenHeader"];
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The asset's `id`, 32 lowercase hexadecimal characters.
                 * @example 6aa3093c0b00447abefcacf9a11da277
                 */
                asset_id: components["parameters"]["AssetIdPath"];
                /**
                 * @description The document's `id`, 32 lowercase hexadecimal characters.
                 * @example 9b3e4d7e1fa54f3c8f6a3b2c1d0e9f8a
                 */
                document_id: components["parameters"]["DocumentIdPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description Any subset of the document's fields in `data`. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentPatchRequest"];
            };
        };
        responses: {
            /** @description The document after the change. With `opt_jsonp` the same object comes as `application/javascript`, wrapped as `/**\/<callback>(<json>);`. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DocumentForbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["DocumentUnprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        /** @description One part `file` with a file name; its content type becomes `format`. */
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["FileUpload"];
            };
        };
        responses: {
            /** @description The file is stored. `Location` is its download URL, the same as `data.url`. */
            201: {
                headers: {
                    /**
                     * @description The file's signed download URL.
                     * @example http://127.0.0.1:6543/api/0.1/ds/get/0f1e2d3c4b5a69788796a5b4c3d2e1f0?KeyID=dbb5069b&Signature=jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW%2BAYifD1vm6s1A4h3pk7Tgvmj%2BpeAbikb4xNJlhL8jFMsiKjvRzDw%3D%3D
                     */
                    Location?: string;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedFileResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["FilePartMissing"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["FileTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    downloadFile: {
        parameters: {
            query?: {
                /** @description The first 8 hexadecimal characters of the public key the URL was signed with. Example: `dbb5069b`. */
                KeyID?: components["parameters"]["KeyIdQuery"];
                /**
                 * @description The Ed25519 signature of `<key>`, a zero byte and the MD5 of the file in hex: 64 bytes in base64.
                 *     Example: `jRoCzuJLI7Gq6iP6yFgyblnhNgmJwAtoeW+AYifD1vm6s1A4h3pk7Tgvmj+peAbikb4xNJlhL8jFMsiKjvRzDw==`.
                 */
                Signature?: components["parameters"]["SignatureQuery"];
            };
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The stored file's key, 32 lowercase hexadecimal characters (the last path segment of its `url`).
                 * @example 0f1e2d3c4b5a69788796a5b4c3d2e1f0
                 */
                key: components["parameters"]["FileKeyPath"];
            };
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The file's bytes. */
            200: {
                headers: {
                    /**
                     * @description `attachment`, with the file name the file was uploaded with (`filename*` in UTF-8).
                     * @example attachment; filename="notice.pdf"; filename*=UTF-8''notice.pdf
                     */
                    "Content-Disposition"?: string;
                    /**
                     * @description `sandbox`, whatever the file's type: a page or script in it opened by a browser runs in a sandbox of its own origin.
                     * @example sandbox
                     */
                    "Content-Security-Policy"?: "sandbox";
                    /**
                     * @description `same-origin`: pages of other sites cannot load the file (as a script, an image or a frame).
                     * @example same-origin
                     */
                    "Cross-Origin-Resource-Policy"?: "same-origin";
                    /**
                     * @description The file's size in bytes.
                     * @example 1048576
                     */
                    "Content-Length"?: number;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example %PDF-1.7 … */
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["FileForbidden"];
            404: components["responses"]["FileNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            400: components["responses"]["BadHost"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getOpenApi30Document: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0.3 document. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            400: components["responses"]["BadHost"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getDocsPage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The documentation page. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!DOCTYPE html><html>…</html> */
                    "text/html": string;
                };
            };
            400: components["responses"]["BadHost"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description An identifier of the client's choosing, echoed in the response and the logs. One longer than 200
                 *     characters or with characters other than letters, digits and `_.:@/+=-` is replaced by a fresh one.
                 *     Example: `req-1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
                 */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: {
                /**
                 * @description The cluster cookie set by an earlier response (`Set-Cookie`), naming the node that issued it (signed). Keep
                 *     it in a cookie jar and send it back on every request. A GET without it is served and its response sets
                 *     one. A POST, PUT or PATCH without it is answered 412 with the cookie in `Set-Cookie` and nothing done:
                 *     repeat the request with that cookie. A cookie naming another node, a restarted node or failing its
                 *     signature is answered the same way on any method. Example: `node-1.1764069000000.kJ2b7w`.
                 */
                SERVER_ID?: components["parameters"]["ServerIdCookie"];
            };
        };
        requestBody?: never;
        responses: {
            /** @description The registry and its store are up. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Allow-Credentials": components["headers"]["Access-Control-Allow-Credentials"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["BadHost"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
