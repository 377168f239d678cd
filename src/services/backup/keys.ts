/** The key files a backup carries, by their name in it; each where the settings put it (by default in DATA_DIR). */
import type { Config } from '../../config/types.js';

export const KEY_NAMES = ['auth.ini', 'ds-key.pem', 'log.key'] as const;
export type KeyName = (typeof KEY_NAMES)[number];

export function keyFiles(config: Config): Record<KeyName, string> {
  return {
    'auth.ini': config.auth.file,
    'ds-key.pem': config.documentService.keyFile,
    'log.key': config.log.keyFile,
  };
}
