/**
 * What one setting is: its group of Config, its key there, its JSON Schema and how its value is worked out.
 * settings.ts lists them (docs/decisions/0005-settings-from-one-schema.md).
 */
/** The groups of Config, in the order people read them, with their titles; `registry` is Config's top level. */
export const CONCERNS = {
  registry: 'Registry',
  server: 'HTTP server',
  store: 'Store',
  cache: 'Served cache',
  auth: 'API keys',
  cookie: 'Cluster cookie',
  rateLimit: 'Rate limit',
  streams: 'Change streams',
  documentService: 'Document service',
  log: 'Transparency log',
  metrics: 'Metrics',
  hosts: 'Host names',
  connections: 'Connections',
  cors: 'Cross-origin pages (CORS)',
} as const;

export type Concern = keyof typeof CONCERNS;

/** One setting's JSON Schema, as Ajv reads it. */
export interface SettingSchema {
  type?: 'string' | 'integer' | 'boolean';
  anyOf?: readonly SettingSchema[];
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  format?: 'time-zone' | 'cookie-secret';
  default?: string | number | boolean;
  description?: string;
  'x-default'?: string;
  'x-value'?: string;
  /** A value never repeated in a message (a refusal says what is wrong with it instead). */
  'x-secret'?: boolean;
}

export interface Setting extends SettingSchema {
  concern: Concern;
  /** Its name in its group of Config. */
  key: string;
  description: string;
  /** What Config holds, when not the checked value itself: a worked-out default, a list, another unit. */
  resolve?: (value: never, settings: Checked) => unknown;
}

/** The checked settings a `resolve` reads besides its own. */
export interface Checked {
  DATA_DIR: string;
}

/** A comma-separated list, each item trimmed. */
export const listOf = (text: string | undefined): string[] =>
  text === undefined ? [] : text.split(',').map((item) => item.trim());
