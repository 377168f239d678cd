import type { ListMode } from '../../domain/listing.js';

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS assets (
    id TEXT PRIMARY KEY,
    rev INTEGER NOT NULL,
    owner_token_hash TEXT NOT NULL,
    modified INTEGER NOT NULL UNIQUE,
    listed INTEGER NOT NULL,
    test INTEGER NOT NULL,
    date_modified TEXT NOT NULL,
    doc TEXT NOT NULL,
    transfer_token_hash TEXT,
    applied_transfers TEXT NOT NULL DEFAULT '[]',
    document_history TEXT NOT NULL DEFAULT '[]',
    revisions INTEGER NOT NULL DEFAULT 0
  );
  -- The history of each asset, read by (asset, rev) pages: the primary key is the only index it needs. log_idx is
  -- the revision's place in the transparency log (log.ts).
  CREATE TABLE IF NOT EXISTS revisions (
    asset_id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    date TEXT NOT NULL,
    author TEXT NOT NULL,
    changes TEXT NOT NULL,
    log_idx INTEGER,
    PRIMARY KEY (asset_id, rev)
  ) WITHOUT ROWID;
  -- The asset whole after every SNAPSHOT_EVERY-th revision (docs/decisions/0056-a-revision-read-from-the-nearest-snapshot.md).
  -- A rowid table: its rows are as large as assets, which WITHOUT ROWID tables store poorly.
  CREATE TABLE IF NOT EXISTS snapshots (
    asset_id TEXT NOT NULL,
    rev INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (asset_id, rev)
  );
  CREATE TABLE IF NOT EXISTS counters (
    day TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  -- One partial index per listing mode. Each covers a feed page without the document, and with the fields
  -- mirrors ask for most (opt_fields=status,assetID): the expressions match COVERED_FIELDS word for word.
  -- They replace the narrower feed_all, feed_real and feed_test of earlier versions.
  DROP INDEX IF EXISTS feed_all;
  DROP INDEX IF EXISTS feed_real;
  DROP INDEX IF EXISTS feed_test;
  CREATE INDEX IF NOT EXISTS feed_all_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1;
  CREATE INDEX IF NOT EXISTS feed_real_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1 AND test = 0;
  CREATE INDEX IF NOT EXISTS feed_test_covering ON assets (modified, id, date_modified, doc -> '$.status', doc -> '$.assetID')
    WHERE listed = 1 AND test = 1;
  -- Transfers are read and marked by id only.
  CREATE TABLE IF NOT EXISTS transfers (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    owner_token_hash TEXT NOT NULL,
    transfer_token_hash TEXT NOT NULL,
    created INTEGER NOT NULL,
    mark_asset_id TEXT,
    mark_from_hash TEXT,
    mark_at INTEGER
  );
  -- The import of the original's database (ImportStore): its state, one row, and its reports.
  CREATE TABLE IF NOT EXISTS import_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS import_reports (
    id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (id, outcome)
  );
  -- The import lists in each asset the transfers whose mark names it.
  CREATE INDEX IF NOT EXISTS transfers_marked ON transfers (mark_asset_id) WHERE mark_asset_id IS NOT NULL;
`;

/** Word for word the partial indexes' conditions: otherwise SQLite does not use them. */
export const MODE_FILTER: Record<ListMode, string> = {
  all: 'listed = 1',
  real: 'listed = 1 AND test = 0',
  test: 'listed = 1 AND test = 1',
};
export const MODE_INDEX: Record<ListMode, string> = {
  all: 'feed_all_covering',
  real: 'feed_real_covering',
  test: 'feed_test_covering',
};
/** Held by the feed indexes (`doc -> '$.<field>'`): a listing asking for no others reads no document. */
export const COVERED_FIELDS: readonly string[] = ['status', 'assetID'];
