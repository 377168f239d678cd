/**
 * One page of the original's `_changes` made into what the store writes (docs/decisions/0040-what-the-import-keeps.md,
 * docs/decisions/0041-import-rebuilds-histories.md), with a report of every document not imported as it stood.
 */
import { formatDate, parseDateToMicros } from '../../domain/dates.js';
import type { JsonObject } from '../../domain/json.js';
import {
  assetIdCounter,
  classify,
  keptAsset,
  ownerTokenDigest,
  rebuildHistory,
  transferTokenDigest,
  usedForAsset,
  type ChangeRow,
} from '../../domain/original.js';
import { originalTokenDigest } from '../../domain/ids.js';
import { checkAsset } from '../../domain/validation.js';
import type { ImportedAsset, ImportPage, ImportReport, ImportState } from '../../store/import.js';
import type { TransferRecord } from '../../store/types.js';
import { recordDraft } from '../records.js';

export const OUTCOMES = {
  assets: 'assets imported',
  transfers: 'transfers imported',
  refused: 'refused',
  rebuilt: 'histories rebuilt',
  fallbacks: 'history fallbacks',
  withErrors: 'imported with errors',
  unserved: 'fields not imported',
  moved: 'dateModified moved',
} as const;

export interface PageContext {
  timeZone: string;
  /** BODY_LIMIT: no rebuilt version may be larger. */
  bodyLimit: number;
  state: ImportState;
  /** Where the page ends, and whether it is the last one. */
  lastSeq: string;
  done: boolean;
  /** Two original `dateModified`s may be equal, and the feed needs every `modified` unique. */
  idsAt: (modified: readonly number[]) => Promise<Map<number, string>>;
}

/** `{"unit": {"code": [...]}}`: the registry's errors of an imported asset, on one line. */
function describeErrors(errors: ReturnType<typeof checkAsset>): string {
  return JSON.stringify(Object.fromEntries(errors.map((error) => [error.name, error.description])));
}

function transferRecord(doc: JsonObject, timeZone: string): TransferRecord | string {
  const created = parseDateToMicros(String(doc.date), timeZone);
  if (created === undefined) return 'transfer date is not a date';
  const transferTokenHash = originalTokenDigest(String(doc.transfer_token));
  const assetId = usedForAsset(doc.usedFor);
  return {
    id: String(doc._id),
    owner: String(doc.owner),
    ownerTokenHash: originalTokenDigest(String(doc.access_token)),
    transferTokenHash,
    created,
    // The asset it names lists it (the store sees to that): it is used, and no other asset takes it.
    mark: assetId === undefined ? null : { assetId, fromHash: transferTokenHash, at: created },
  };
}

export async function buildPage(rows: readonly ChangeRow[], context: PageContext): Promise<ImportPage> {
  const counts = { ...context.state.counts };
  const count = (outcome: string) => {
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  };
  const reports: ImportReport[] = [];
  const report = (id: string, outcome: string, detail: string) => {
    reports.push({ id, outcome, detail });
    count(outcome);
  };
  const assets: ImportedAsset[] = [];
  const transfers: TransferRecord[] = [];
  const dayCounters: Record<string, number> = {};

  for (const row of rows) {
    const classified = classify(row);
    if (classified.kind === 'skipped') {
      count(`skipped: ${classified.reason}`);
      continue;
    }
    if (classified.kind === 'refused') {
      report(row.id, OUTCOMES.refused, classified.reason);
      continue;
    }
    const { doc } = classified;
    if (classified.kind === 'transfer') {
      const transfer = transferRecord(doc, context.timeZone);
      if (typeof transfer === 'string') report(row.id, OUTCOMES.refused, transfer);
      else {
        transfers.push(transfer);
        count(OUTCOMES.transfers);
      }
      continue;
    }
    const { asset, documentHistory, unserved } = keptAsset(doc);
    const modified = parseDateToMicros(String(asset.dateModified), context.timeZone);
    if (modified === undefined) {
      report(row.id, OUTCOMES.refused, 'dateModified is not a date');
      continue;
    }
    const history = rebuildHistory(doc, context.bodyLimit);
    if (history.fallback === undefined) count(OUTCOMES.rebuilt);
    else report(row.id, OUTCOMES.fallbacks, history.fallback);
    if (unserved.length > 0) report(row.id, OUTCOMES.unserved, `the registry does not serve ${unserved.join(', ')}`);
    const errors = checkAsset(asset);
    if (errors.length > 0) report(row.id, OUTCOMES.withErrors, describeErrors(errors));
    const record = recordDraft(
      {
        id: String(asset.id),
        // No token matches the empty hash (domain/ids.ts compares digests of equal length only).
        ownerTokenHash: ownerTokenDigest(doc) ?? '',
        transferTokenHash: transferTokenDigest(doc.transfer_token),
        appliedTransfers: [],
        documentHistory,
      },
      asset,
      modified,
    );
    assets.push({ ...record, history: history.revisions });
    count(OUTCOMES.assets);
    const counter = assetIdCounter(asset.assetID);
    if (counter !== undefined) dayCounters[counter.day] = Math.max(dayCounters[counter.day] ?? 0, counter.index);
  }

  await keepModifiedUnique(assets, context, report);
  return {
    assets,
    transfers,
    dayCounters,
    reports,
    state: { source: context.state.source, since: context.lastSeq, done: context.done, counts },
  };
}

/** Moves an asset whose `dateModified` another has to the next free microsecond; deterministic, for a page redone. */
async function keepModifiedUnique(
  assets: ImportedAsset[],
  context: PageContext,
  report: (id: string, outcome: string, detail: string) => void,
): Promise<void> {
  const stored = await context.idsAt(assets.map((record) => record.modified));
  const taken = new Map(stored);
  for (const record of assets) {
    const original = record.modified;
    let modified = original;
    while ((taken.get(modified) ?? record.id) !== record.id) {
      modified += 1;
      const more = await context.idsAt([modified]);
      for (const [at, id] of more) taken.set(at, id);
    }
    taken.set(modified, record.id);
    if (modified === original) continue;
    const originalDate = String(record.asset.dateModified);
    const dateModified = formatDate(modified, context.timeZone);
    record.modified = modified;
    record.asset = { ...record.asset, dateModified };
    const earlier = record.history.slice(0, -1);
    const last = record.history[record.history.length - 1]!;
    const others = last.changes.filter((operation) => operation.path !== '/dateModified');
    const moved = { op: earlier.length === 0 ? 'add' : 'replace', path: '/dateModified', value: dateModified } as const;
    record.history = [...earlier, { ...last, date: dateModified, changes: [...others, moved] }];
    report(
      record.id,
      OUTCOMES.moved,
      `another asset has dateModified ${originalDate}; moved by ${modified - original} µs`,
    );
  }
}
