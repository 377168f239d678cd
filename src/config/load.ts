/** Config from the environment and the mirroring flags (`--port 8080` = `PORT=8080`). */
import { Ajv, type ErrorObject } from 'ajv';
import { valueText } from './help.js';
import type { Setting } from './setting.js';
import { flagOf, SETTING_NAMES, SETTINGS, SETTINGS_SCHEMA } from './settings.js';
import { COOKIE_SECRET_PLACEHOLDER, isCookieSecret } from './values.js';
import type { Config } from './types.js';

type Source = Record<string, string | undefined>;

/** Reads `--name value` and `--name=value` flags into environment-style keys (`--data-dir` → DATA_DIR). */
export function flagsToEnv(argv: readonly string[]): Source {
  const out: Source = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg?.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)).replace(/-/g, '_').toUpperCase();
    out[name] = eq === -1 ? argv[++i] : arg.slice(eq + 1);
  }
  return out;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// The settings' own Ajv, not the contract's: coerceTypes turns the environment's strings into the schema's types
// (inside anyOf, the first branch that accepts the text wins).
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false });
ajv.addKeyword('x-default');
ajv.addKeyword('x-value');
ajv.addKeyword('x-secret');
ajv.addFormat('time-zone', isTimeZone);
ajv.addFormat('cookie-secret', isCookieSecret);
const validateSettings = ajv.compile(SETTINGS_SCHEMA);

/** A setting that is unknown or has a value its schema refuses: start-up stops with this message. */
export class SettingError extends Error {}

/** A flag that names no setting: a call to fix, not a value (the commands exit 2 on it). */
export class UnknownFlagError extends SettingError {}

function settingError(error: ErrorObject, given: Source): SettingError {
  const name = error.instancePath.slice(1);
  const setting: Setting = SETTINGS[name as keyof typeof SETTINGS];
  const expected = valueText(setting).replaceAll('`', '');
  const value = given[name] ?? '';
  const got = !setting['x-secret']
    ? `"${value}"`
    : value === COOKIE_SECRET_PLACEHOLDER
      ? "the example's placeholder"
      : `${Buffer.byteLength(value, 'utf8')} bytes`;
  return new SettingError(`${name} must be ${expected} (${setting.description}), got ${got}`);
}

/** Every setting from the environment and the flags (a flag wins); an empty value counts as unset. */
export function loadConfig(env: Source = process.env, argv: readonly string[] = process.argv.slice(2)): Config {
  const flags = flagsToEnv(argv);
  const unknown = Object.keys(flags).filter((name) => !(SETTING_NAMES as string[]).includes(name));
  if (unknown.length > 0) throw new UnknownFlagError(`unknown flag ${flagOf(unknown[0]!)} (see --help)`);
  const given: Source = {};
  for (const name of SETTING_NAMES) {
    const value = flags[name] ?? env[name];
    if (value !== undefined && value !== '') given[name] = value;
  }
  const checked: Record<string, unknown> = { ...given };
  if (!validateSettings(checked)) throw settingError(validateSettings.errors![0]!, given);
  const config: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const { concern, key, resolve }: Setting = SETTINGS[name];
    let value: unknown;
    try {
      value =
        resolve === undefined
          ? checked[name]
          : (resolve as (value: unknown, settings: unknown) => unknown)(checked[name], checked);
    } catch (error) {
      // A value the schema lets through but that does not hold (an address that is none).
      throw new SettingError(
        `${name}: ${error instanceof Error ? error.message : String(error)}, got "${given[name]}"`,
      );
    }
    if (concern !== 'registry') config[concern] ??= {};
    const group = (concern === 'registry' ? config : config[concern]) as Record<string, unknown>;
    group[key] = value;
  }
  return config as Config;
}
