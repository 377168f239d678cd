/**
 * The import of the original's CouchDB database (docs/decisions/0039-import-resumable-into-an-empty-store.md): page
 * after page of `_changes`, each written with the `since` it leads to, so an interrupted import goes on where it
 * stopped and a completed one is only reported again.
 */
import type { ImportReport, ImportState, ImportStore } from '../../store/import.js';
import { buildPage, OUTCOMES } from './page.js';
import { ImportCannotRun, type CouchSource } from './source.js';

export interface ImportOptions {
  store: ImportStore;
  source: CouchSource;
  timeZone: string;
  /** BODY_LIMIT: the largest version a rebuilt history may hold. */
  bodyLimit: number;
  /** Documents per page of `_changes`, and per write. */
  pageSize: number;
  onPage?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  state: ImportState;
  /** By this run. */
  read: number;
}

export interface ImportSummary {
  state: ImportState;
  reports: ImportReport[];
  /** An earlier run completed the import: this one wrote nothing. */
  completedEarlier: boolean;
  /** 1 when some documents were refused. */
  exitCode: 0 | 1;
}

const START: string = '0';

function summary(state: ImportState, reports: ImportReport[], completedEarlier: boolean): ImportSummary {
  return { state, reports, completedEarlier, exitCode: (state.counts[OUTCOMES.refused] ?? 0) > 0 ? 1 : 0 };
}

/** ImportCannotRun when it may not start: nothing is written then. */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { store, source } = options;
  let state = await store.state();
  if (state !== undefined && state.source !== source.name) {
    throw new ImportCannotRun(`this store holds an import of ${state.source}, not of ${source.name}`);
  }
  if (state?.done) return summary(state, await store.reports(), true);
  if (state === undefined && (await store.holdsOwnData())) {
    throw new ImportCannotRun(
      'the store already holds assets or transfers of its own; the import needs an empty store',
    );
  }
  state ??= { source: source.name, since: START, done: false, counts: {} };

  let read = 0;
  let next = source.changes(state.since, options.pageSize);
  for (;;) {
    const { rows, lastSeq } = await next;
    const done = rows.length < options.pageSize;
    // The next page is read while this one is written; a failure of that read is met when it is awaited, not as an
    // unhandled rejection should this page's write fail first.
    if (!done) {
      next = source.changes(lastSeq, options.pageSize);
      next.catch(() => undefined);
    }
    const page = await buildPage(rows, {
      timeZone: options.timeZone,
      bodyLimit: options.bodyLimit,
      state,
      lastSeq,
      done,
      idsAt: (modified) => store.idsAt(modified),
    });
    await store.writePage(page);
    state = page.state;
    read += rows.length;
    options.onPage?.({ state, read });
    if (done) break;
  }
  return summary(state, await store.reports(), false);
}
