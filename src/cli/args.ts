/**
 * What the subcommands of `claimrights-registry` share: their arguments split into the command's own flags, its
 * positional arguments and registry settings given as flags (`--data-dir x`), and the exit codes of §18
 * (docs/decisions/0047-one-command-for-the-operator.md).
 */

/** A call the command cannot run as given (unknown flag, missing argument): exit 2 and the message. */
export class UsageError extends Error {}

export interface SplitArgs {
  help: boolean;
  /** The command's own flags, by name without `--` (`from`), with their values. */
  own: Record<string, string>;
  positionals: string[];
  /** Every other flag with its value, for loadConfig (which refuses unknown ones). */
  settings: string[];
}

/** `--name value` and `--name=value`; a flag named in `ownFlags` is the command's, any other a setting. */
export function splitArgs(argv: readonly string[], ownFlags: readonly string[] = []): SplitArgs {
  const out: SplitArgs = { help: false, own: {}, positionals: [], settings: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unknown flag ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`${arg} needs a value`);
    if (ownFlags.includes(name)) out.own[name] = value;
    else out.settings.push(`--${name}`, value);
  }
  return out;
}

/** A subcommand: its exit code, or `undefined` when it goes on running (a serving node ends on its signals). */
export type Command = (argv: readonly string[]) => Promise<number | undefined>;
