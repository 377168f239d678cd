/** What backup and restore share: their one file argument and settings, and how they print what a backup holds. */
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/types.js';
import type { StoreCounts } from '../store/sqlite/snapshot.js';
import { splitArgs, UsageError } from './args.js';

export const number = (n: number): string => n.toLocaleString('en');

export function backupContents(summary: StoreCounts & { files: number }): string {
  return (
    `${number(summary.assets)} assets, ${number(summary.revisions)} revisions, ` +
    `${number(summary.documents)} documents (${number(summary.files)} files), ${number(summary.transfers)} transfers, ` +
    `${number(summary.logEntries)} log entries`
  );
}

/** The file and the settings; undefined once `--help` is printed. */
export function fileAndConfig(
  argv: readonly string[],
  usage: string,
  help: string,
): { file: string; config: Config } | undefined {
  const args = splitArgs(argv);
  if (args.help) {
    process.stdout.write(help);
    return undefined;
  }
  if (args.positionals.length !== 1) throw new UsageError(usage);
  return { file: args.positionals[0]!, config: loadConfig(process.env, args.settings) };
}
