/** The feed, read through its mode's partial index (indexes.ts). */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { requireFieldNames, type AssetStore, type ListedRow, type ListMode } from '../types.js';
import { COVERED_FIELDS, MODE_FILTER, MODE_INDEX } from './indexes.js';

export function feedReader(db: Database.Database): AssetStore['list'] {
  /**
   * One statement per mode × direction × fields read, each naming its index (`INDEXED BY`: a query the index cannot
   * serve fails to prepare instead of scanning). Covered fields come from the index; others from the stored text
   * (`doc -> path`), which answers each value's JSON text as stored.
   */
  const feedStatements = new Map<string, Statement<unknown[], unknown[]>>();
  function feedStatement(
    mode: ListMode,
    descending: boolean,
    read: 'none' | 'covered' | number,
  ): Statement<unknown[], unknown[]> {
    const key = `${mode}:${descending ? 'desc' : 'asc'}:${read}`;
    let statement = feedStatements.get(key);
    if (statement === undefined) {
      const fields =
        read === 'none'
          ? ''
          : read === 'covered'
            ? COVERED_FIELDS.map((field) => `, doc -> '$.${field}'`).join('')
            : ', doc -> ?'.repeat(read);
      const sql =
        `SELECT id, modified, date_modified${fields} FROM assets INDEXED BY ${MODE_INDEX[mode]} ` +
        `WHERE ${MODE_FILTER[mode]} AND modified ${descending ? '<' : '>'} ? ` +
        `ORDER BY modified ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
      statement = db.prepare<unknown[], unknown[]>(sql).raw(true);
      feedStatements.set(key, statement);
    }
    return statement;
  }

  return async function list(query) {
    if (!Object.hasOwn(MODE_FILTER, query.mode)) throw new Error(`unknown listing mode ${String(query.mode)}`);
    const { fields } = query;
    requireFieldNames(fields);
    const covered = fields.every((field) => COVERED_FIELDS.includes(field));
    const read = fields.length === 0 ? 'none' : covered ? 'covered' : fields.length;
    // Columns 3…: the covered fields in COVERED_FIELDS order, else the asked ones in theirs.
    const columns = covered ? fields.map((field) => 3 + COVERED_FIELDS.indexOf(field)) : fields.map((_, i) => 3 + i);
    const paths = typeof read === 'number' ? fields.map((field) => `$.${field}`) : [];
    const after = query.after ?? (query.descending ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER);
    const rows = feedStatement(query.mode, query.descending, read).all(...paths, after, query.limit);
    const listed: ListedRow[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const entry: ListedRow = { id: row[0] as string, modified: row[1] as number, dateModified: row[2] as string };
      if (fields.length > 0) entry.fields = columns.map((column) => (row[column] ?? undefined) as string | undefined);
      listed[i] = entry;
    }
    return listed;
  };
}
