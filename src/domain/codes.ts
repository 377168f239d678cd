/**
 * Code lists the asset fields draw from, and the Ajv formats that check them. The lists are facts kept in
 * classifiers/*.json (the project's own copies); ISO 4217 comes from the `currency-codes` package.
 */
import currencyCodes from 'currency-codes';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import cavCodes from './classifiers/cav-codes.json' with { type: 'json' };
import registrationAgencyCodes from './classifiers/organisation-registration-agency-codes.json' with { type: 'json' };
import rec20UnitCodes from './classifiers/unece-rec20-unit-codes.json' with { type: 'json' };

/** CAV, the classifier of assets: `classification.id` (2,252 codes such as `39513200-3`). */
export const CAV_CODES: ReadonlySet<string> = new Set(cavCodes);
/** Organisation registration agency codes (org-id.guide), `UA-EDR` among them: `identifier.scheme`. */
export const REGISTRATION_AGENCY_CODES: ReadonlySet<string> = new Set(registrationAgencyCodes);
/** UN/CEFACT Recommendation 20 unit codes (`H87` is a piece): `unit.code`. */
export const REC20_UNIT_CODES: ReadonlySet<string> = new Set(rec20UnitCodes);
/** ISO 4217 alphabetic currency codes: `value.currency`, `debt.debtCurrencyValue.currency`. */
export const CURRENCY_CODES: ReadonlySet<string> = new Set(currencyCodes.codes());

function member(list: ReadonlySet<string>): (value: string) => boolean {
  return (value) => list.has(value);
}

/**
 * The registry's own string formats for the code lists. The OpenAPI document gives these fields standard patterns
 * (the codes' shape); in src/generated/schemas.json the formats take their place (scripts/generate.ts,
 * REGISTRY_FORMATS). Each comes with the message a client gets when a value is not in the list (one clear
 * sentence rather than thousands of codes).
 */
export const CODE_FORMATS = {
  'cav-code': {
    validate: member(CAV_CODES),
    message: 'Value must be a code of the CAV classifier (see the list of CAV codes).',
  },
  'rec20-unit': {
    validate: member(REC20_UNIT_CODES),
    message: 'Value must be a UN/CEFACT Recommendation 20 unit code, such as H87.',
  },
  iso4217: {
    validate: member(CURRENCY_CODES),
    message: 'Value must be an ISO 4217 currency code, such as UAH.',
  },
  'ora-scheme': {
    validate: member(REGISTRATION_AGENCY_CODES),
    message: 'Value must be an organisation registration agency code, such as UA-EDR.',
  },
} as const;

export type CodeFormat = keyof typeof CODE_FORMATS;

/** 32 hexadecimal characters, either case: the original's MD5 type (`relatedLot`, document ids). */
export function isMd5(value: string): boolean {
  return /^[0-9a-fA-F]{32}$/.test(value);
}

/**
 * What is wrong with a document's `hash`, in the original's words, or `undefined` when it is `md5:` and 32
 * hexadecimal characters. Only MD5 is taken: the document service's signature covers the MD5.
 */
export function md5HashProblem(value: string): string | undefined {
  const colon = value.indexOf(':');
  if (colon === -1 || value.slice(0, colon) !== 'md5') return 'Hash type is not supported.';
  const digest = value.slice(colon + 1);
  if (digest.length !== 32) return 'Hash value is wrong length.';
  if (!/^[0-9a-fA-F]+$/.test(digest)) return 'Hash value is not hexadecimal.';
  return undefined;
}

/**
 * Teaches an Ajv instance every format the document uses: the standard ones (date-time, iso-date-time, email,
 * uri, int64, binary) from ajv-formats, the code lists, `md5` and `md5-hash`. Anyone validating against src/generated/schemas.json
 * needs this. `codeLists: false` checks a code's place but not its membership of the list: code-list membership is
 * a rule of every write, not a promise of what is stored (decisions.md §14).
 */
export function addRegistryFormats(ajv: Ajv2020, { codeLists = true }: { codeLists?: boolean } = {}): Ajv2020 {
  addFormats.default(ajv, ['date-time', 'iso-date-time', 'email', 'uri', 'int64', 'binary']);
  for (const [name, format] of Object.entries(CODE_FORMATS)) {
    // Without code lists, any string passes: what may be stored (an import keeps the original's codes, §14).
    ajv.addFormat(name, { type: 'string', validate: codeLists ? format.validate : () => true });
  }
  ajv.addFormat('md5', { type: 'string', validate: isMd5 });
  ajv.addFormat('md5-hash', { type: 'string', validate: (value: string) => md5HashProblem(value) === undefined });
  return ajv;
}
