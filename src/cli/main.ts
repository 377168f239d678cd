#!/usr/bin/env node
/**
 * `claimrights-registry [serve|import|mirror|backup|restore] [flags]`: the one command an operator runs, compiled
 * with the service (docs/decisions/0047-one-command-for-the-operator.md). `serve` is the default; `--help` on each
 * prints its flags and exits 0; an unknown subcommand or flag exits 2.
 */
import type { Command } from './args.js';

const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'run a registry node (the default)',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  import: {
    summary: "copy the original registry's CouchDB database into the store",
    load: async () => (await import('./import.js')).importCommand,
  },
  mirror: {
    summary: 'keep a folder with the latest JSON of every listed asset of a registry',
    load: async () => (await import('./mirror.js')).mirrorCommand,
  },
  backup: {
    summary: "copy the embedded store's DATA_DIR, consistently, while it serves, into one file",
    load: async () => (await import('./backup.js')).backupCommand,
  },
  restore: {
    summary: 'restore a backup into an empty or missing DATA_DIR',
    load: async () => (await import('./restore.js')).restoreCommand,
  },
};

function overview(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
  const lines = Object.entries(SUBCOMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return (
    'usage: claimrights-registry [subcommand] [flags]\n\n' +
    `subcommands:\n${lines.join('\n')}\n\n` +
    "`claimrights-registry <subcommand> --help` prints a subcommand's flags.\n"
  );
}

async function main(argv: readonly string[]): Promise<number | undefined> {
  const [first] = argv;
  if (first === undefined || first.startsWith('-')) {
    if (first === '--help' || first === '-h') {
      process.stdout.write(overview());
      return 0;
    }
    return (await SUBCOMMANDS.serve!.load())(argv);
  }
  const subcommand = Object.hasOwn(SUBCOMMANDS, first) ? SUBCOMMANDS[first] : undefined;
  if (subcommand === undefined) {
    process.stderr.write(`claimrights-registry: unknown subcommand "${first}"\n\n${overview()}`);
    return 2;
  }
  return (await subcommand.load())(argv.slice(1));
}

let settled = false;
// A command whose work could not go on (a stream that never ends) must not pass for one that succeeded.
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write('claimrights-registry: stopped before its work was done\n');
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    // `serve` answers once listening, without a code: its server keeps the process alive.
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    settled = true;
    process.stderr.write(
      `claimrights-registry failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
