/**
 * The import of the original registry's CouchDB database into a store (decisions.md §14): page after page of
 * `_changes`, each written with the `since` it leads to, so that an interrupted import continues where it stopped
 * and a completed one is only reported again.
 */
import type { ImportReport, ImportState, AssetStore } from '../../store/types.js';
import { buildPage, OUTCOMES } from './page.js';
import { ImportCannotRun, type CouchSource } from './source.js';

export interface ImportOptions {
  store: AssetStore;
  source: CouchSource;
  timeZone: string;
  /** Documents per page of `_changes` (and per write). */
  pageSize: number;
  /** Called after every page written, with the state it led to. */
  onPage?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  state: ImportState;
  /** Documents read by this run. */
  read: number;
}

export interface ImportSummary {
  state: ImportState;
  reports: ImportReport[];
  /** True when an earlier run had completed the import: this one wrote nothing. */
  completedEarlier: boolean;
  /** 0: every document imported or skipped; 1: some refused. */
  exitCode: 0 | 1;
}

const START: string = '0';

function summary(state: ImportState, reports: ImportReport[], completedEarlier: boolean): ImportSummary {
  return { state, reports, completedEarlier, exitCode: (state.counts[OUTCOMES.refused] ?? 0) > 0 ? 1 : 0 };
}

/** Runs (or resumes, or reports again) the import. ImportCannotRun when it may not start: nothing written then. */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { store, source } = options;
  let state = await store.imports.state();
  if (state !== undefined && state.source !== source.name) {
    throw new ImportCannotRun(`this store holds an import of ${state.source}, not of ${source.name}`);
  }
  if (state?.done) return summary(state, await store.imports.reports(), true);
  if (state === undefined && (await store.imports.holdsOwnData())) {
    throw new ImportCannotRun('the store already holds assets or transfers of its own; the import needs an empty store');
  }
  state ??= { source: source.name, since: START, done: false, counts: {} };

  let read = 0;
  let next = source.changes(state.since, options.pageSize);
  for (;;) {
    const { rows, lastSeq } = await next;
    const done = rows.length < options.pageSize;
    // The next page is read from CouchDB while this one is built and written (a failure of that read is met when it
    // is awaited, not as an unhandled rejection should this page's write fail first).
    if (!done) {
      next = source.changes(lastSeq, options.pageSize);
      next.catch(() => undefined);
    }
    const page = await buildPage(rows, {
      timeZone: options.timeZone,
      state,
      lastSeq,
      done,
      idsAt: (modified) => store.imports.idsAt(modified),
    });
    await store.imports.writePage(page);
    state = page.state;
    read += rows.length;
    options.onPage?.({ state, read });
    if (done) break;
  }
  return summary(state, await store.imports.reports(), false);
}
