/**
 * Microseconds since the epoch of an ISO 8601 date-time with up to 6 fraction digits. Written independently of
 * src/domain/dates.ts, so that tests of the registry's dates do not check the code with itself.
 */
export function micros(iso: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!m) throw new Error(`not an ISO 8601 date-time: ${iso}`);
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${iso}`);
  return ms * 1000 + Number((m[2] ?? '').padEnd(6, '0'));
}
