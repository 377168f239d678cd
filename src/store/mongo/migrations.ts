/** Start-up upgrades of data an earlier version wrote, each done once (docs/decisions/0037-start-up-upgrades.md). */
import type { Db } from 'mongodb';
import { firstRevision } from '../../domain/history.js';
import { keepRevisions, revisionDoc, type History } from './history.js';

interface MarkerDoc {
  _id: string;
  done: boolean;
}

/** Marks, in `counters`, a database whose every asset has its history. */
const HISTORY_MARKER = 'history';
const HISTORY_BATCH = 500;

/** Revision 1 for assets from before history: revisions copied first, then assets marked where still unmarked. */
export async function giveHistories(db: Db, history: History): Promise<void> {
  const { assets } = history;
  const markers = db.collection<MarkerDoc>('counters');
  if ((await markers.findOne({ _id: HISTORY_MARKER }))?.done) return;
  for (let after = ''; ; ) {
    const docs = await assets
      .find(
        { _id: { $gt: after }, revisions: { $exists: false } },
        { sort: { _id: 1 }, limit: HISTORY_BATCH, projection: { asset: 1 } },
      )
      .toArray();
    if (docs.length === 0) break;
    const firsts = docs.map((doc) => ({ id: doc._id, revision: firstRevision(doc.asset) }));
    await keepRevisions(
      history,
      firsts.map(({ id, revision }) => revisionDoc(id, revision)),
    );
    await assets.bulkWrite(
      firsts.map(({ id, revision }) => ({
        updateOne: {
          filter: { _id: id, revisions: { $exists: false } },
          update: {
            $set: {
              revisions: 1,
              latestRevision: { date: revision.date, author: revision.author, changes: revision.changes },
            },
          },
        },
      })),
      { ordered: false },
    );
    after = docs[docs.length - 1]!._id;
  }
  await markers.updateOne({ _id: HISTORY_MARKER }, { $set: { done: true } }, { upsert: true });
}
