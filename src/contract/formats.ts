/** The string formats generated/schemas.json names: code lists (classifiers/*.json, `currency-codes`), MD5 types. */
import currencyCodes from 'currency-codes';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import cavCodes from './classifiers/cav-codes.json' with { type: 'json' };
import registrationAgencyCodes from './classifiers/organisation-registration-agency-codes.json' with { type: 'json' };
import rec20UnitCodes from './classifiers/unece-rec20-unit-codes.json' with { type: 'json' };

const CAV_CODES: ReadonlySet<string> = new Set(cavCodes);
const REGISTRATION_AGENCY_CODES: ReadonlySet<string> = new Set(registrationAgencyCodes);
const REC20_UNIT_CODES: ReadonlySet<string> = new Set(rec20UnitCodes);
const CURRENCY_CODES: ReadonlySet<string> = new Set(currencyCodes.codes());

function member(list: ReadonlySet<string>): (value: string) => boolean {
  return (value) => list.has(value);
}

/** In schemas.json they replace the document's patterns (scripts/generate.ts); a message names the list. */
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

/** The original's MD5 type (`relatedLot`, document ids). */
function isMd5(value: string): boolean {
  return /^[0-9a-fA-F]{32}$/.test(value);
}

/** In the original's words. Only MD5: the document service's signature covers the MD5. */
export function md5HashProblem(value: string): string | undefined {
  const colon = value.indexOf(':');
  if (colon === -1 || value.slice(0, colon) !== 'md5') return 'Hash type is not supported.';
  const digest = value.slice(colon + 1);
  if (digest.length !== 32) return 'Hash value is wrong length.';
  if (!/^[0-9a-fA-F]+$/.test(digest)) return 'Hash value is not hexadecimal.';
  return undefined;
}

/** Without `codeLists` any code passes: the import keeps the original's (docs/decisions/0040-what-the-import-keeps.md). */
export function addRegistryFormats(ajv: Ajv2020, { codeLists = true }: { codeLists?: boolean } = {}): Ajv2020 {
  addFormats.default(ajv, ['date-time', 'iso-date-time', 'email', 'uri', 'int64', 'binary']);
  for (const [name, format] of Object.entries(CODE_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: codeLists ? format.validate : () => true });
  }
  ajv.addFormat('md5', { type: 'string', validate: isMd5 });
  ajv.addFormat('md5-hash', { type: 'string', validate: (value: string) => md5HashProblem(value) === undefined });
  return ajv;
}
