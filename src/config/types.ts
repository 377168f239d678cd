/** One group per concern (`config.streams.maxClients`), the `registry` concern at the top (`config.timeZone`). */
import type { Concern } from './setting.js';
import type { SETTINGS, SettingName } from './settings.js';

type Settings = typeof SETTINGS;

/** The value a schema accepts, as TypeScript writes it. */
type TypeOf<Schema> = Schema extends { anyOf: readonly (infer Branch)[] }
  ? TypeOf<Branch>
  : Schema extends { enum: readonly (infer Choice)[] }
    ? Choice
    : Schema extends { type: 'integer' }
      ? number
      : Schema extends { type: 'boolean' }
        ? boolean
        : string;

/** What Config holds for a setting: what `resolve` makes of it, else its value (`undefined` when unset without default). */
type ValueOf<S> = S extends { resolve: (...args: never[]) => infer Resolved }
  ? Resolved
  : S extends { default: unknown }
    ? TypeOf<S>
    : TypeOf<S> | undefined;

type Group<C extends Concern> = {
  [Name in SettingName as Settings[Name]['concern'] extends C ? Settings[Name]['key'] : never]: ValueOf<Settings[Name]>;
};

type Flat<T> = { [K in keyof T]: T[K] };

export type Config = Flat<Group<'registry'> & { [C in Exclude<Concern, 'registry'>]: Group<C> }>;
