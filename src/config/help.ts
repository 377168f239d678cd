/** The settings in words, from their schema: `--help`, the settings table of docs/settings.md, and the refusals of load.ts. */
import { CONCERNS, type SettingSchema } from './setting.js';
import { flagOf, SETTING_NAMES, SETTINGS, type SettingName } from './settings.js';

/** The kind of value a setting takes, in words (`a whole number from 0 to 65535`), for people and error messages. */
export function valueText(schema: SettingSchema): string {
  if (schema['x-value'] !== undefined) return schema['x-value'];
  if (schema.anyOf) return schema.anyOf.map((branch) => branch.description ?? valueText(branch)).join(', or ');
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'boolean') return '`true` or `false`';
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema;
    if (minimum !== undefined && maximum !== undefined) return `a whole number from ${minimum} to ${maximum}`;
    return minimum !== undefined ? `a whole number, at least ${minimum}` : 'a whole number';
  }
  if (schema.format === 'time-zone') return 'a time zone name (`Europe/Kyiv`, `UTC`)';
  return 'text';
}

/** The default as people read it: the constant, the one worked out at start-up, or "unset". */
function defaultText(schema: SettingSchema): string {
  if (schema['x-default'] !== undefined) return schema['x-default'];
  return schema.default === undefined ? 'unset' : String(schema.default);
}

/** The settings by concern, in the list's order within each. */
function byConcern(): [title: string, names: SettingName[]][] {
  return Object.entries(CONCERNS).map(([concern, title]) => [
    title,
    SETTING_NAMES.filter((name) => SETTINGS[name].concern === concern),
  ]);
}

const plain = (text: string): string => text.replaceAll('`', '');

/** `--help`: every setting with its flag, the values it takes, its default and its meaning, by concern. */
export function helpText(): string {
  const sections = byConcern().map(([title, names]) => {
    const blocks = names.map((name) => {
      const setting: SettingSchema = SETTINGS[name];
      return (
        `  ${name}, ${flagOf(name)}\n` +
        `      ${plain(setting.description ?? '')}\n` +
        `      value: ${plain(valueText(setting))}; default: ${plain(defaultText(setting))}`
      );
    });
    return `${title}\n${blocks.join('\n')}\n`;
  });
  return (
    'claimrights-registry: settings, each an environment variable or the matching flag (PORT=8080 or --port 8080);\n' +
    'a flag wins over the environment, an empty value counts as unset.\n\n' +
    sections.join('\n')
  );
}

/** The settings table of docs/settings.md (Markdown), a row of its title above each concern; written by `npm run generate`. */
export function settingsTable(): string {
  const rows = byConcern().flatMap(([title, names]) => [
    `| **${title}** | | | |`,
    ...names.map((name) => {
      const setting: SettingSchema = SETTINGS[name];
      const fallback = defaultText(setting);
      const shownDefault =
        setting['x-default'] !== undefined || setting.default === undefined ? fallback : `\`${fallback}\``;
      return `| \`${name}\` | ${shownDefault} | ${valueText(setting)} | ${setting.description ?? ''} |`;
    }),
  ]);
  return ['| Setting | Default | Value | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
