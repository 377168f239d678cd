/**
 * A microsecond clock, dates in one IANA zone and ISO 8601 parsing (docs/decisions/0010-dates-in-microseconds.md).
 * The platform's tz database (Intl) is the only source of zone rules.
 */

const MICROS_PER_SECOND = 1_000_000;
const SECONDS_PER_DAY = 86_400;

// performance.now() has the microseconds but drifts from the wall clock: the anchor moves when they part by more
// than a millisecond. Going backwards is harmless: stores never stamp a write earlier than one stored.
let clockAnchorMs = performance.timeOrigin;

export function nowMicros(): number {
  const monotonicMs = performance.now();
  const wallMs = Date.now();
  let estimateMs = clockAnchorMs + monotonicMs;
  if (estimateMs < wallMs - 1 || estimateMs > wallMs + 2) {
    // Date.now() truncates to the millisecond: the true time lies in [wallMs, wallMs + 1).
    clockAnchorMs = wallMs + 0.5 - monotonicMs;
    estimateMs = clockAnchorMs + monotonicMs;
  }
  return Math.floor(estimateMs * 1000);
}

// Calendar arithmetic without Date objects, so years below 100 stay themselves (H. Hinnant's algorithms).

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

interface ZoneState {
  formatter: Intl.DateTimeFormat;
  /** The last slot looked up: the clock asks for the same one over and over. */
  cachedSlot: number;
  cachedOffset: number;
}

/** No tz database has two transitions within 15 minutes: an offset equal at both ends of a slot holds across it. */
const SLOT_SECONDS = 900;
const zones = new Map<string, ZoneState>();

function zoneState(timeZone: string): ZoneState {
  let state = zones.get(timeZone);
  if (state === undefined) {
    state = {
      formatter: new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
      cachedSlot: Number.NaN,
      cachedOffset: 0,
    };
    zones.set(timeZone, state);
  }
  return state;
}

function computeOffset(formatter: Intl.DateTimeFormat, epochSeconds: number): number {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let beforeChrist = false;
  for (const part of formatter.formatToParts(epochSeconds * 1000)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      case 'era':
        beforeChrist = part.value === 'BC';
        break;
      default:
        break;
    }
  }
  if (beforeChrist) year = 1 - year;
  const localSeconds = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;
  return localSeconds - epochSeconds;
}

function offsetAt(state: ZoneState, epochSeconds: number): number {
  const slot = Math.floor(epochSeconds / SLOT_SECONDS);
  if (slot === state.cachedSlot) return state.cachedOffset;
  const start = slot * SLOT_SECONDS;
  const offset = computeOffset(state.formatter, start);
  if (computeOffset(state.formatter, start + SLOT_SECONDS - 1) !== offset) {
    return computeOffset(state.formatter, epochSeconds);
  }
  state.cachedSlot = slot;
  state.cachedOffset = offset;
  return offset;
}

function formatOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const hours = Math.floor(abs / 3600);
  const minutes = Math.floor((abs % 3600) / 60);
  const seconds = abs % 60;
  // Only pre-1970 local mean times have offsets with seconds; show them rather than round them away.
  return `${sign}${pad(hours, 2)}:${pad(minutes, 2)}${seconds === 0 ? '' : `:${pad(seconds, 2)}`}`;
}

/** `2026-11-22T12:30:17.615196+02:00` */
export function formatDate(micros: number, timeZone: string): string {
  const epochSeconds = Math.floor(micros / MICROS_PER_SECOND);
  const fraction = micros - epochSeconds * MICROS_PER_SECOND;
  const offset = offsetAt(zoneState(timeZone), epochSeconds);
  const localSeconds = epochSeconds + offset;
  const days = Math.floor(localSeconds / SECONDS_PER_DAY);
  const secondOfDay = localSeconds - days * SECONDS_PER_DAY;
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay % 3600) / 60);
  const second = secondOfDay % 60;
  return (
    `${civilFromDays(days)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}` +
    `.${pad(fraction, 6)}${formatOffset(offset)}`
  );
}

/** `YYYY-MM-DD` in `timeZone`. */
export function dayOf(micros: number, timeZone: string): string {
  const epochSeconds = Math.floor(micros / MICROS_PER_SECOND);
  const localSeconds = epochSeconds + offsetAt(zoneState(timeZone), epochSeconds);
  return civilFromDays(Math.floor(localSeconds / SECONDS_PER_DAY));
}

/** The offset sign may be a space: a `+` in a query string decodes to one. */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/;

/** `undefined` for no ISO 8601 date (or date-time); without an offset, local to `timeZone`. */
export function parseDateToMicros(text: string, timeZone: string): number | undefined {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fractionText, zulu, sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = fractionText === undefined ? 0 : Number(fractionText.slice(0, 6).padEnd(6, '0'));
  const wallSeconds = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;

  let offset: number;
  if (zulu !== undefined) {
    offset = 0;
  } else if (sign !== undefined) {
    const oh = Number(offsetHours);
    const om = offsetMinutes === undefined ? 0 : Number(offsetMinutes);
    if (oh > 23 || om > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  } else {
    offset = localOffset(zoneState(timeZone), wallSeconds);
  }
  return (wallSeconds - offset) * MICROS_PER_SECOND + fraction;
}

/** A wall time occurring twice or never takes the standard-time offset, as pytz `localize` (is_dst=False). */
function localOffset(state: ZoneState, wallSeconds: number): number {
  const before = offsetAt(state, wallSeconds - SECONDS_PER_DAY);
  const after = offsetAt(state, wallSeconds + SECONDS_PER_DAY);
  const fitsBefore = offsetAt(state, wallSeconds - before) === before;
  const fitsAfter = offsetAt(state, wallSeconds - after) === after;
  if (fitsBefore && fitsAfter) return Math.min(before, after);
  if (fitsBefore) return before;
  if (fitsAfter) return after;
  return Math.min(before, after);
}
