/**
 * Write stamps. Under `BEGIN IMMEDIATE`'s single write lock a write stamps itself later than every commit before it,
 * so `modified` is unique and follows the commit order, across processes
 * (docs/decisions/0021-sqlite-stamps-under-one-write-lock.md).
 */
import type Database from 'better-sqlite3';
import { nowMicros } from '../../domain/dates.js';

/** Must be called inside the write's transaction. */
export function writeStamps(writer: Database.Database): () => number {
  const selectMaxModified = writer.prepare<[], number | null>('SELECT max(modified) FROM assets').pluck();
  return function takeStamp(): number {
    const latest = selectMaxModified.get() ?? null;
    const now = nowMicros();
    return latest === null || now > latest ? now : latest + 1;
  };
}
