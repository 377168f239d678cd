/** No transactions: each write of a page is idempotent and the state is written last. */
import type { Collection } from 'mongodb';
import type { ImportPage, ImportReport, ImportState, ImportStore } from '../import.js';
import { checkHistory } from '../types.js';
import { toDoc, type AssetDoc } from './asset-document.js';
import { pushClock, type Clock } from './clock.js';
import { withDatabase } from './connection.js';
import { openDayCounter, raiseDayCounter, type DayCounter } from './day-counter.js';
import { dropSnapshots, keepRevisions, keepSnapshots, revisionDoc, type History, type RevisionDoc } from './history.js';
import { snapshotsOf } from '../../domain/history.js';
import { prepare, type MongoStoreOptions } from './index.js';
import { queueRevisions } from './log-queue.js';
import type { QueueDoc } from './log-scan.js';
import { transfersOf, type TransferDoc } from './transfers.js';

interface ImportStateDoc extends ImportState {
  _id: string;
}

interface ImportReportDoc extends ImportReport {
  _id: string;
}

interface ImportContext {
  assets: Collection<AssetDoc>;
  transfers: Collection<TransferDoc>;
  history: History;
  clock: Clock;
  dayCounter: DayCounter;
  importState: Collection<ImportStateDoc>;
  importReports: Collection<ImportReportDoc>;
  logQueue: Collection<QueueDoc>;
}

export async function openMongoImportStore(options: MongoStoreOptions): Promise<ImportStore> {
  return withDatabase(options, async (client, db) => {
    const { assets, history, clock, log } = await prepare(db);
    const context: ImportContext = {
      assets,
      transfers: transfersOf(db),
      history,
      clock,
      dayCounter: openDayCounter(db, clock),
      importState: db.collection<ImportStateDoc>('import'),
      importReports: db.collection<ImportReportDoc>('import_reports'),
      logQueue: log.queue,
    };
    const { importState, importReports } = context;
    return {
      async state() {
        const doc = await importState.findOne({ _id: 'state' });
        if (doc === null) return undefined;
        const { _id: _ignored, ...state } = doc;
        return state;
      },
      async holdsOwnData() {
        if ((await importState.countDocuments({ _id: 'state' })) > 0) return false;
        // A fence (fences.ts) is no data of the store's.
        const asset = await assets.findOne({ fence: { $exists: false } }, { projection: { _id: 1 } });
        const transfer = asset ? null : await context.transfers.findOne({}, { projection: { _id: 1 } });
        return asset !== null || transfer !== null;
      },
      async idsAt(modified) {
        const found = new Map<number, string>();
        const docs = assets.find({ modified: { $in: [...modified] } }, { projection: { _id: 1, modified: 1 } });
        for await (const doc of docs) found.set(Number(doc.modified), doc._id);
        return found;
      },
      writePage: (page) => writePage(context, page),
      async reports() {
        const docs = await importReports.find({}, { sort: { _id: 1 } }).toArray();
        return docs.map(({ id, outcome, detail }) => ({ id, outcome, detail }));
      },
      close: () => client.close(),
    };
  });
}

async function writePage(context: ImportContext, page: ImportPage): Promise<void> {
  const { assets, transfers } = context;
  if (page.assets.length > 0) {
    // Histories first (idempotent upserts), as in bulkInsert: until its asset is there, a history serves nothing.
    const revisions: RevisionDoc[] = [];
    const replacements = page.assets.map(({ history, ...record }) => {
      checkHistory(record, history);
      for (const revision of history) revisions.push(revisionDoc(record.id, revision));
      const replacement = toDoc(
        { ...record, rev: 1, revisions: history.length },
        `import#${record.id}`,
        history[history.length - 1]!,
      );
      return { replaceOne: { filter: { _id: record.id }, replacement, upsert: true } };
    });
    await keepRevisions(context.history, revisions);
    await dropSnapshots(
      context.history,
      page.assets.map((asset) => asset.id),
    );
    for (const { id, history } of page.assets) await keepSnapshots(context.history, id, snapshotsOf(history));
    await assets.bulkWrite(replacements, { ordered: true });
    // In import order; a page written again queues only what it had not.
    await queueRevisions(
      context.clock,
      context.logQueue,
      page.assets.flatMap(({ id, history }) => history.map((revision) => ({ asset: id, revision }))),
    );
  }
  if (page.transfers.length > 0) {
    await transfers.bulkWrite(
      page.transfers.map((transfer) => ({
        replaceOne: {
          filter: { _id: transfer.id },
          replacement: {
            owner: transfer.owner,
            ownerTokenHash: transfer.ownerTokenHash,
            transferTokenHash: transfer.transferTokenHash,
            created: transfer.created,
            mark: transfer.mark,
          },
          upsert: true,
        },
      })),
      { ordered: true },
    );
  }
  const marked = new Set<string>(page.assets.map((record) => record.id));
  for (const transfer of page.transfers) if (transfer.mark !== null) marked.add(transfer.mark.assetId);
  if (marked.size > 0) {
    const applied = new Map<string, string[]>([...marked].map((id) => [id, []]));
    const markedTransfers = transfers.find({ 'mark.assetId': { $in: [...marked] } }, { sort: { created: 1, _id: 1 } });
    for await (const transfer of markedTransfers) applied.get(transfer.mark!.assetId)?.push(transfer._id);
    await assets.bulkWrite(
      [...applied].map(([id, ids]) => ({
        updateOne: { filter: { _id: id }, update: { $set: { appliedTransfers: ids } } },
      })),
      { ordered: false },
    );
  }
  for (const [day, index] of Object.entries(page.dayCounters)) await raiseDayCounter(context.dayCounter, day, index);
  if (page.reports.length > 0) {
    await context.importReports.bulkWrite(
      page.reports.map((report) => ({
        replaceOne: { filter: { _id: `${report.outcome}:${report.id}` }, replacement: { ...report }, upsert: true },
      })),
      { ordered: true },
    );
  }
  const latest = Math.max(...page.assets.map((record) => record.modified));
  if (Number.isFinite(latest)) await pushClock(context.clock, latest);
  await context.importState.replaceOne({ _id: 'state' }, page.state, { upsert: true });
}
