/**
 * `claimrights-registry import --from <CouchDB database URL> [--page-size N]`: copies the original registry's database into
 * the store the settings name (docs/decisions/0039-import-resumable-into-an-empty-store.md). Credentials go in the
 * URL's user info (`http://admin:secret@127.0.0.1:5984/openregistry`); any other flag is a registry setting.
 * Exit 0: done; 1: done, some documents refused; 2: could not run (nothing written by this run).
 */
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig, SettingError } from '../config/load.js';
import { splitArgs, UsageError } from './args.js';
import { OUTCOMES } from '../services/import/page.js';
import { runImport, type ImportProgress, type ImportSummary } from '../services/import/run.js';
import { ImportCannotRun, openCouchSource } from '../services/import/source.js';
import { openImportStore } from '../store/index.js';

const DEFAULT_PAGE_SIZE = 500;

/**
 * The original's ids and fields reach the terminal: control characters are written as `\u001b`, never sent
 * (docs/decisions/0063-import-reads-hostile-input-safely.md).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const printable = (text: string): string =>
  text.replace(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Options {
  from: string;
  pageSize: number;
  settingsArgs: string[];
}

const USAGE = 'usage: claimrights-registry import --from <CouchDB database URL> [--page-size N] [--setting value ...]';

const HELP = `${USAGE}

Copies the original registry's CouchDB database into the store the settings name (DATA_DIR, or MONGODB_URI),
into an empty store with no node serving it; resumable: run again, it goes on where it stopped.

  --from URL        the CouchDB database, credentials in its user info (http://admin:secret@couchdb:5984/openregistry)
  --page-size N     documents read and written per page (default ${DEFAULT_PAGE_SIZE})
  --<setting> VALUE any registry setting, as for serve (claimrights-registry serve --help): DATA_DIR, MONGODB_URI, TZ, ...

Exit 0: done; 1: done, some documents refused; 2: could not run (nothing written by this run).
`;

function parseArgs(argv: readonly string[]): Options | undefined {
  const args = splitArgs(argv, ['from', 'page-size']);
  if (args.help) return undefined;
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"\n${USAGE}`);
  const from = args.own.from;
  const pageSize = Number(args.own['page-size'] ?? DEFAULT_PAGE_SIZE);
  if (from === undefined || from === '') throw new UsageError(USAGE);
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new UsageError('--page-size must be a whole number above 0');
  return { from, pageSize, settingsArgs: args.settings };
}

/** A plain line per page off a terminal (logs, CI). */
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
        bar.update(progress.read, {
          rate: rate(progress.read),
          imported: imported(progress),
          refused: refused(progress),
        });
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
    result.completedEarlier
      ? `The import of ${state.source} was already complete; nothing was written.`
      : `Imported ${state.source}.`,
    ...Object.entries(state.counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([outcome, n]) => `  ${outcome}: ${n}`),
  ];
  for (const report of reports) lines.push(`${report.outcome} ${report.id}: ${report.detail}`);
  process.stdout.write(`${lines.map(printable).join('\n')}\n`);
}

async function run(options: Options): Promise<number> {
  const config = loadConfig(process.env, options.settingsArgs);
  const source = await openCouchSource(options.from);
  const store = await openImportStore({ ...config.store, timeZone: config.timeZone });
  const progress = progressReporter(source.documents);
  let result: ImportSummary;
  try {
    result = await runImport({
      store,
      source,
      timeZone: config.timeZone,
      bodyLimit: config.server.bodyLimit,
      pageSize: options.pageSize,
      onPage: progress.onPage,
    });
  } finally {
    progress.stop();
    await store.close();
  }
  printSummary(result);
  return result.exitCode;
}

export async function importCommand(argv: readonly string[]): Promise<number> {
  try {
    const options = parseArgs(argv);
    if (options === undefined) {
      process.stdout.write(HELP);
      return 0;
    }
    return await run(options);
  } catch (error) {
    if (error instanceof ImportCannotRun || error instanceof SettingError || error instanceof UsageError) {
      process.stderr.write(`import: ${printable(error.message)}\n`);
      return 2;
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`import failed: ${text.split('\n').map(printable).join('\n')}\n`);
    return 2;
  }
}
