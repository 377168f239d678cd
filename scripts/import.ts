/**
 * `npm run import -- --from <CouchDB database URL> [--page-size N]`: copies the original registry's database into
 * the store the settings name (DATA_DIR, or MONGODB_URI), decisions.md §14. Credentials go in the URL's user info:
 * `http://admin:secret@127.0.0.1:5984/openregistry`. Any other flag is a registry setting (`--data-dir`, `--tz`, …).
 *
 * A progress bar on a terminal, a line per page otherwise; then a summary with counts by outcome and one line per
 * reported document. Exit 0: done; 1: done, some documents refused; 2: could not run (nothing written by this run).
 * Interrupted, the same command continues; run again after completion, it reports that run's result again.
 */
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig, SettingError } from '../src/config.js';
import { OUTCOMES } from '../src/services/import/page.js';
import { runImport, type ImportProgress, type ImportSummary } from '../src/services/import/run.js';
import { ImportCannotRun, openCouchSource } from '../src/services/import/source.js';
import { openStore } from '../src/store/index.js';

const DEFAULT_PAGE_SIZE = 500;

interface Options {
  from: string;
  pageSize: number;
  settingsArgs: string[];
}

function parseArgs(argv: readonly string[]): Options {
  let from: string | undefined;
  let pageSize = DEFAULT_PAGE_SIZE;
  const settingsArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--from') from = value();
    else if (flag === '--page-size') pageSize = Number(value());
    else settingsArgs.push(arg);
  }
  if (from === undefined || from === '') throw new ImportCannotRun('usage: npm run import -- --from <CouchDB database URL> [--page-size N]');
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new ImportCannotRun('--page-size must be a whole number above 0');
  return { from, pageSize, settingsArgs };
}

/** A bar with counts and rate on a terminal; a plain line per page otherwise (logs, CI). */
function progressReporter(total: number): { onPage: (progress: ImportProgress) => void; stop: () => void } {
  const started = Date.now();
  const rate = (read: number) => Math.round(read / Math.max((Date.now() - started) / 1000, 0.001));
  const imported = (progress: ImportProgress) => progress.state.counts[OUTCOMES.assets] ?? 0;
  const refused = (progress: ImportProgress) => progress.state.counts[OUTCOMES.refused] ?? 0;
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      {
        format: 'import |{bar}| {value}/{total} documents | {rate}/s | {imported} assets imported, {refused} refused',
        stream: process.stderr,
      },
      Presets.shades_classic,
    );
    bar.start(total, 0, { rate: 0, imported: 0, refused: 0 });
    return {
      onPage: (progress) => {
        // The database's count is where the bar ends; a resumed import may read fewer, a busy database more.
        if (progress.read > bar.getTotal()) bar.setTotal(progress.read);
        bar.update(progress.read, { rate: rate(progress.read), imported: imported(progress), refused: refused(progress) });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    onPage: (progress) =>
      process.stderr.write(
        `import: ${progress.read} of about ${total} documents read, ${imported(progress)} assets imported, ` +
          `${refused(progress)} refused, ${rate(progress.read)} documents/s\n`,
      ),
    stop: () => undefined,
  };
}

function printSummary(result: ImportSummary): void {
  const { state, reports } = result;
  const lines = [
    result.completedEarlier ? `The import of ${state.source} was already complete; nothing was written.` : `Imported ${state.source}.`,
    ...Object.entries(state.counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([outcome, n]) => `  ${outcome}: ${n}`),
  ];
  for (const report of reports) lines.push(`${report.outcome} ${report.id}: ${report.detail}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const config = loadConfig(process.env, options.settingsArgs);
  const source = await openCouchSource(options.from);
  const store = await openStore(config);
  const progress = progressReporter(source.documents);
  let result: ImportSummary;
  try {
    result = await runImport({ store, source, timeZone: config.timeZone, pageSize: options.pageSize, onPage: progress.onPage });
  } finally {
    progress.stop();
    await store.close();
  }
  printSummary(result);
  return result.exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ImportCannotRun || error instanceof SettingError) {
      process.stderr.write(`import: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`import failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
