import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dayOf, formatDate, nowMicros, parseDateToMicros } from '../../src/domain/dates.js';

const KYIV = 'Europe/Kyiv';

/** Microseconds of an instant written in UTC. */
function utc(iso: string): number {
  return Date.parse(iso) * 1000;
}

describe('nowMicros', () => {
  it('is an integer number of microseconds close to the wall clock', () => {
    const before = Date.now();
    const micros = nowMicros();
    const after = Date.now();
    expect(Number.isSafeInteger(micros)).toBe(true);
    expect(micros).toBeGreaterThanOrEqual((before - 2) * 1000);
    expect(micros).toBeLessThanOrEqual((after + 3) * 1000);
  });

  it('has sub-millisecond digits', () => {
    const samples = Array.from({ length: 200 }, () => nowMicros() % 1000);
    expect(samples.some((sub) => sub !== 0)).toBe(true);
  });
});

describe('formatDate', () => {
  it('renders six fraction digits and the zone offset of that instant', () => {
    expect(formatDate(utc('2026-11-22T10:30:17.615Z') + 196, KYIV)).toBe('2026-11-22T12:30:17.615196+02:00');
    expect(formatDate(utc('2026-07-01T09:00:00Z'), KYIV)).toBe('2026-07-01T12:00:00.000000+03:00');
    expect(formatDate(utc('2026-07-01T09:00:00Z') + 7, 'UTC')).toBe('2026-07-01T09:00:00.000007+00:00');
    expect(formatDate(utc('2026-07-01T09:00:00Z'), 'America/New_York')).toBe('2026-07-01T05:00:00.000000-04:00');
    expect(formatDate(utc('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00.000000+05:30');
  });

  it('follows Kyiv across the spring transition (03:00 +02:00 becomes 04:00 +03:00)', () => {
    const jump = utc('2021-03-28T01:00:00Z');
    expect(formatDate(jump - 1, KYIV)).toBe('2021-03-28T02:59:59.999999+02:00');
    expect(formatDate(jump, KYIV)).toBe('2021-03-28T04:00:00.000000+03:00');
  });

  it('follows Kyiv across the autumn transition (04:00 +03:00 becomes 03:00 +02:00)', () => {
    const fall = utc('2021-10-31T01:00:00Z');
    expect(formatDate(fall - 1, KYIV)).toBe('2021-10-31T03:59:59.999999+03:00');
    expect(formatDate(fall, KYIV)).toBe('2021-10-31T03:00:00.000000+02:00');
  });

  it('keeps microseconds of instants before 1970', () => {
    expect(formatDate(utc('1969-12-31T23:59:59Z') + 1, 'UTC')).toBe('1969-12-31T23:59:59.000001+00:00');
  });
});

describe('dayOf', () => {
  it('is the calendar day in the zone, not in UTC', () => {
    const lateUtc = utc('2026-11-22T22:30:00Z');
    expect(dayOf(lateUtc, 'UTC')).toBe('2026-11-22');
    expect(dayOf(lateUtc, KYIV)).toBe('2026-11-23');
    expect(dayOf(utc('2026-11-22T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-21');
  });

  it('turns at local midnight', () => {
    const midnight = parseDateToMicros('2026-06-01T00:00:00', KYIV);
    expect(midnight).toBeDefined();
    expect(dayOf(midnight! - 1, KYIV)).toBe('2026-05-31');
    expect(dayOf(midnight!, KYIV)).toBe('2026-06-01');
  });
});

describe('parseDateToMicros', () => {
  it('reads Z, ±hh:mm, ±hhmm and ±hh offsets', () => {
    const instant = utc('2021-06-01T09:00:00Z');
    expect(parseDateToMicros('2021-06-01T09:00:00Z', KYIV)).toBe(instant);
    expect(parseDateToMicros('2021-06-01T12:00:00+03:00', KYIV)).toBe(instant);
    expect(parseDateToMicros('2021-06-01T12:00:00+0300', KYIV)).toBe(instant);
    expect(parseDateToMicros('2021-06-01T12:00:00+03', KYIV)).toBe(instant);
    expect(parseDateToMicros('2021-06-01T04:30:00-04:30', KYIV)).toBe(instant);
  });

  it('compares instants written with different offsets chronologically', () => {
    const earlier = parseDateToMicros('2021-10-31T03:59:00+03:00', KYIV);
    const later = parseDateToMicros('2021-10-31T03:00:00+02:00', KYIV);
    expect(earlier).toBeDefined();
    expect(later).toBeDefined();
    expect(earlier!).toBeLessThan(later!);
    expect(later! - earlier!).toBe(60 * 1_000_000);
  });

  it('keeps microseconds and truncates further digits', () => {
    const whole = utc('2021-06-01T09:00:00Z');
    expect(parseDateToMicros('2021-06-01T09:00:00.5Z', KYIV)).toBe(whole + 500_000);
    expect(parseDateToMicros('2021-06-01T09:00:00.615196Z', KYIV)).toBe(whole + 615_196);
    expect(parseDateToMicros('2021-06-01T09:00:00.615196999Z', KYIV)).toBe(whole + 615_196);
    expect(parseDateToMicros('2021-06-01T09:00:00,25Z', KYIV)).toBe(whole + 250_000);
    expect(parseDateToMicros('2021-06-01T09:00Z', KYIV)).toBe(whole);
  });

  it('understands a space where a URL-decoded `+` was', () => {
    expect(parseDateToMicros('2021-10-31T03:00:00.000001 02:00', KYIV)).toBe(
      parseDateToMicros('2021-10-31T03:00:00.000001+02:00', KYIV),
    );
    expect(parseDateToMicros('2026-11-22T12:30:17.615196 0200', KYIV)).toBe(utc('2026-11-22T10:30:17.615Z') + 196);
  });

  it('reads a time without an offset as local time in the zone', () => {
    expect(parseDateToMicros('2021-06-01T12:00:00', KYIV)).toBe(utc('2021-06-01T09:00:00Z'));
    expect(parseDateToMicros('2021-01-01T12:00:00', KYIV)).toBe(utc('2021-01-01T10:00:00Z'));
    expect(parseDateToMicros('2021-06-01 12:00:00', 'UTC')).toBe(utc('2021-06-01T12:00:00Z'));
  });

  it('reads a date alone as local midnight', () => {
    expect(parseDateToMicros('2021-06-01', KYIV)).toBe(utc('2021-05-31T21:00:00Z'));
    expect(parseDateToMicros('2021-06-01', 'UTC')).toBe(utc('2021-06-01T00:00:00Z'));
  });

  it('takes standard time for local times a DST transition makes ambiguous or skips, as the original did', () => {
    // 03:30 happens twice on 2021-10-31 in Kyiv: the second one, +02:00.
    expect(parseDateToMicros('2021-10-31T03:30:00', KYIV)).toBe(utc('2021-10-31T01:30:00Z'));
    // 03:30 never happens on 2021-03-28 in Kyiv: read with the offset before the jump, +02:00.
    expect(parseDateToMicros('2021-03-28T03:30:00', KYIV)).toBe(utc('2021-03-28T01:30:00Z'));
  });

  it.each([
    '',
    'yesterday',
    '2021-13-01T00:00:00Z',
    '2021-00-10',
    '2021-02-29',
    '2021-04-31T00:00:00Z',
    '2021-06-01T24:00:00Z',
    '2021-06-01T12:60:00Z',
    '2021-06-01T12:00:60Z',
    '2021-06-01T12:00:00+25:00',
    '2021-06-01T12:00:00.Z',
    '2021-06-01T12:00:00.1234567890Z',
    '2021-06-01T12:00:00+02:00garbage',
    '21-06-01',
    '1635642000',
  ])('refuses %j', (text) => {
    expect(parseDateToMicros(text, KYIV)).toBeUndefined();
  });

  it('accepts 29 February of a leap year', () => {
    expect(parseDateToMicros('2024-02-29T00:00:00Z', KYIV)).toBe(utc('2024-02-29T00:00:00Z'));
  });
});

describe('format and parse round trip', () => {
  const zones = [KYIV, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];
  // 1971 to 2100 in microseconds: every instant the registry writes, DST transitions included.
  const instants = fc.integer({ min: 31_536_000_000_000, max: 4_102_444_800_000_000 });

  it('parse(format(t)) is t in any zone', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...zones), (micros, zone) => {
        expect(parseDateToMicros(formatDate(micros, zone), zone)).toBe(micros);
        expect(parseDateToMicros(formatDate(micros, zone), KYIV)).toBe(micros);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips the instants either side of each Kyiv transition of 2021', () => {
    for (const edge of [utc('2021-03-28T01:00:00Z'), utc('2021-10-31T01:00:00Z')]) {
      for (const micros of [edge - 1, edge, edge + 1, edge - 1_800_000_000, edge + 1_800_000_000]) {
        expect(parseDateToMicros(formatDate(micros, KYIV), KYIV)).toBe(micros);
      }
    }
  });

  it('renders strings that sort like the instants within one offset', () => {
    fc.assert(
      fc.property(instants, instants, (a, b) => {
        const [x, y] = [formatDate(a, 'UTC'), formatDate(b, 'UTC')];
        expect(x < y ? -1 : x > y ? 1 : 0).toBe(Math.sign(a - b));
      }),
    );
  });
});
