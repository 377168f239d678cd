/** What the embedded store's failures become at the store's edge (src/store/sqlite/connection.ts). */
import { describe, expect, it } from 'vitest';
import { sqliteRefusal } from '../../../src/store/sqlite/connection.js';
import { StorageFullError } from '../../../src/store/types.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('sqliteRefusal', () => {
  it.each(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT'])('%s: the storage is full', (code) => {
    expect(sqliteRefusal(failure(code))).toBeInstanceOf(StorageFullError);
  });

  it.each(['SQLITE_IOERR_READ', 'SQLITE_CORRUPT', 'SQLITE_CONSTRAINT_PRIMARYKEY'])(
    '%s: a fault, not a refusal',
    (code) => {
      expect(sqliteRefusal(failure(code))).toBeUndefined();
    },
  );
});
