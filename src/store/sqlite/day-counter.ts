/** The per-day `assetID` counter: taken inside the create's transaction, so a create that rolls back gives it back. */
import type Database from 'better-sqlite3';

/** Must be called inside the create's write transaction. */
export function dayCounter(writer: Database.Database): (day: string) => number {
  const nextDayIndex = writer
    .prepare<[string], number>(
      'INSERT INTO counters (day, value) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET value = value + 1 RETURNING value',
    )
    .pluck();
  return (day) => nextDayIndex.get(day) as number;
}

/** Never lowers the counter: after an import's numbers, the next create goes on after them. */
export function dayCounterRaiser(writer: Database.Database): (day: string, value: number) => void {
  const raiseDayCounter = writer.prepare<[string, number]>(
    'INSERT INTO counters (day, value) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET value = max(value, excluded.value)',
  );
  return (day, value) => void raiseDayCounter.run(day, value);
}
