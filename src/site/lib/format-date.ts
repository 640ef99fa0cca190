/**
 * Instants in words, in English and UTC: the language-neutral outputs (Statuspage JSON) and
 * the tests read these. Pages take the same words in their own language and zone from their
 * translator (i18n/translator.ts), which these wrap: one rule for every language. Distances are
 * computed from millisecond differences, never from the process zone. Invalid input never
 * throws: each function answers a readable fallback instead.
 */
import type { FormatDistanceToken } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { translator } from '../i18n/translator.ts';
import { parseInstant } from './time.ts';

export const UNKNOWN_TIME = 'unknown time';
export const UNKNOWN_DATE = 'unknown date';
export const UNKNOWN_MONTH = 'unknown month';
export const UNKNOWN_DURATION = 'unknown duration';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Full ISO 8601 UTC string for a `datetime` attribute; null when the input is not an instant. */
export function isoString(value: unknown): string | null {
  const ms = parseInstant(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** "22 Nov 2026" (the UTC day). */
export function formatDate(value: unknown): string {
  const ms = parseInstant(value);
  return ms === null ? UNKNOWN_DATE : translator().day(new Date(ms).toISOString().slice(0, 10));
}

/** "22 Nov 2026, 14:05 UTC" */
export function formatDateTime(value: unknown): string {
  return parseInstant(value) === null ? UNKNOWN_TIME : translator().dateTime(value);
}

const MONTH_KEY = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** "November 2026" for '2026-11'. */
export function formatMonth(monthKey: unknown): string {
  return typeof monthKey === 'string' && MONTH_KEY.test(monthKey) ? translator().month(monthKey) : UNKNOWN_MONTH;
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
 * "5 minutes ago", "in 3 days", "now" (under a minute either way, as Intl.RelativeTimeFormat says
 * it in enhance.js). Months count as 30 days and years as 365, which is exact enough for a
 * status page and needs no calendar.
 */
export function formatRelative(value: unknown, now: Date): string {
  const ms = parseInstant(value);
  const base = parseInstant(now);
  if (ms === null || base === null) return UNKNOWN_TIME;
  const diff = ms - base;
  if (Math.abs(diff) < MINUTE) return 'now';
  const { token, count } = distanceToken(Math.abs(diff));
  return enUS.formatDistance(token, count, { addSuffix: true, comparison: diff > 0 ? 1 : -1 });
}

/** Clock skew between the API and the site may put a start slightly after `now`. */
const SKEW_TOLERANCE = MINUTE;

/** Whole days, hours and minutes of an interval; 'underMinute' below one; null when unreadable. */
export type DurationParts = { days: number; hours: number; minutes: number } | 'underMinute';

/** An open interval (end null) runs until `now`. Floored to whole minutes. */
export function durationParts(start: unknown, end: unknown, now: Date): DurationParts | null {
  const startMs = parseInstant(start);
  const endMs = end === null || end === undefined ? parseInstant(now) : parseInstant(end);
  if (startMs === null || endMs === null) return null;
  const length = endMs - startMs;
  if (length < -SKEW_TOLERANCE) return null;
  if (length < MINUTE) return 'underMinute';
  return { days: Math.floor(length / DAY), hours: Math.floor((length % DAY) / HOUR), minutes: Math.floor((length % HOUR) / MINUTE) };
}

/** "3 d 4 h", "2 h 15 min", "45 min", "< 1 min": at most the two largest units. */
export function formatDuration(start: unknown, end: unknown, now: Date): string {
  return translator().duration(durationParts(start, end, now));
}
