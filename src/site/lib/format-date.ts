/**
 * The one module that turns instants into words for the status pages. Always UTC, and
 * independent of the server's TZ by construction: calendar fields come from getUTC* only, and
 * distances from millisecond differences. date-fns supplies the English wording of distances;
 * its own formatDistance is not used because it adjusts for the process zone's DST offsets.
 * Invalid input never throws: each function answers a readable fallback instead.
 */
import type { FormatDistanceToken } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { parseInstant } from './time.ts';

export const UNKNOWN_TIME = 'unknown time';
export const UNKNOWN_DATE = 'unknown date';
export const UNKNOWN_MONTH = 'unknown month';
export const UNKNOWN_DURATION = 'unknown duration';

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad2 = (value: number): string => String(value).padStart(2, '0');

function monthName(index: number, short: boolean): string {
  const name = MONTHS[index] ?? '';
  return short ? name.slice(0, 3) : name;
}

/** Full ISO 8601 UTC string for a `datetime` attribute; null when the input is not an instant. */
export function isoString(value: unknown): string | null {
  const ms = parseInstant(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** "22 Nov 2026" */
export function formatDate(value: unknown): string {
  const ms = parseInstant(value);
  if (ms === null) return UNKNOWN_DATE;
  const date = new Date(ms);
  return `${date.getUTCDate()} ${monthName(date.getUTCMonth(), true)} ${date.getUTCFullYear()}`;
}

/** "22 Nov 2026, 14:05 UTC" */
export function formatDateTime(value: unknown): string {
  const ms = parseInstant(value);
  if (ms === null) return UNKNOWN_TIME;
  const date = new Date(ms);
  return `${formatDate(ms)}, ${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())} UTC`;
}

const MONTH_KEY = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** "November 2026" for '2026-11'. */
export function formatMonth(monthKey: unknown): string {
  const match = typeof monthKey === 'string' ? MONTH_KEY.exec(monthKey) : null;
  if (!match) return UNKNOWN_MONTH;
  return `${monthName(Number(match[2]) - 1, false)} ${match[1]}`;
}

/** Largest whole unit that fits, floored so a distance is never overstated. */
function distanceToken(absMs: number): { token: FormatDistanceToken; count: number } {
  if (absMs < MINUTE) return { token: 'lessThanXMinutes', count: 1 };
  if (absMs < HOUR) return { token: 'xMinutes', count: Math.floor(absMs / MINUTE) };
  if (absMs < DAY) return { token: 'xHours', count: Math.floor(absMs / HOUR) };
  if (absMs < 30 * DAY) return { token: 'xDays', count: Math.floor(absMs / DAY) };
  if (absMs < 365 * DAY) return { token: 'xMonths', count: Math.floor(absMs / (30 * DAY)) };
  return { token: 'xYears', count: Math.floor(absMs / (365 * DAY)) };
}

/**
 * "5 minutes ago", "in 3 days", "less than a minute ago". Months count as 30 days and years as
 * 365, which is exact enough for a status page and needs no calendar.
 */
export function formatRelative(value: unknown, now: Date): string {
  const ms = parseInstant(value);
  const base = parseInstant(now);
  if (ms === null || base === null) return UNKNOWN_TIME;
  const diff = ms - base;
  const { token, count } = distanceToken(Math.abs(diff));
  return enUS.formatDistance(token, count, { addSuffix: true, comparison: diff > 0 ? 1 : -1 });
}

/** Clock skew between the API and the site may put a start slightly after `now`. */
const SKEW_TOLERANCE = MINUTE;

/**
 * Length of an interval in at most its two largest units: "3 d 4 h", "2 h 15 min", "45 min",
 * "< 1 min". An open interval (end null) runs until `now`. Floored to whole minutes.
 */
export function formatDuration(start: unknown, end: unknown, now: Date): string {
  const startMs = parseInstant(start);
  const endMs = end === null || end === undefined ? parseInstant(now) : parseInstant(end);
  if (startMs === null || endMs === null) return UNKNOWN_DURATION;
  const length = endMs - startMs;
  if (length < -SKEW_TOLERANCE) return UNKNOWN_DURATION;
  if (length < MINUTE) return '< 1 min';
  const days = Math.floor(length / DAY);
  const hours = Math.floor((length % DAY) / HOUR);
  const minutes = Math.floor((length % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}
