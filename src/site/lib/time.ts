/**
 * Instants and UTC calendar keys, independent of the process time zone by construction:
 * only epoch milliseconds and getUTC* are used, never local-time getters (the calendar of any
 * other zone is zone-days.ts's).
 */

export const MS_PER_DAY = 86_400_000;

/**
 * ISO 8601 calendar date, optionally with a time and a zone. Only this shape is accepted: the
 * engine's fallback parser reads other shapes ("Nov 22 2026") in process-local time.
 */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MAX_EPOCH_MS = 8.64e15;

function daysInMonth(year: number, month: number): number {
  const lengths = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return lengths[month - 1] ?? 0;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Minutes east of UTC of a 'Z' / '+hh' / '+hh:mm' / '+hhmm' designator; null when out of range. */
function offsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

function parseIsoString(text: string): number | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = offsetMinutes(zone);
  if (offset === null) return null;
  const millisecond = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millisecond));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() - offset * 60_000;
}

/**
 * Epoch milliseconds of an ISO 8601 string, a Date or a number; null when it is not a valid instant.
 * Strings without a zone are read as UTC, so the result never depends on the server's TZ.
 */
export function parseInstant(value: unknown): number | null {
  let ms: number | null;
  if (value instanceof Date) {
    ms = value.getTime();
  } else if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    ms = parseIsoString(value.trim());
  } else {
    return null;
  }
  return ms !== null && Number.isFinite(ms) && Math.abs(ms) <= MAX_EPOCH_MS ? ms : null;
}

/** 'YYYY-MM-DD' of the UTC day holding the instant. */
export function utcDayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch milliseconds of 00:00:00.000 UTC of the day holding the instant. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
}

/** Largest window any list of days may cover: ten years keeps loops bounded. */
export const MAX_DAYS = 3660;

/** Throws when `days` is not a whole number in 1..MAX_DAYS (a caller bug, not bad data). */
export function assertDayCount(days: number): void {
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    throw new RangeError(`days must be a whole number from 1 to ${MAX_DAYS}, got ${String(days)}`);
  }
}

/** Throws when `now` is not a valid Date (a caller bug: the clock is read by the caller). */
export function nowMs(now: Date): number {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('now must be a valid Date');
  return ms;
}
