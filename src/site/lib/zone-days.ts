/**
 * Calendar days and months of an IANA time zone: a day runs from one local midnight to the next,
 * so a day with a DST change lasts 23 or 25 hours. The zone's rules come from Intl (ICU), never
 * from offsets written here (no tz package: @date-fns/tz would wrap these same Intl calls, and
 * nothing here needs its Date subclass). UTC keeps time.ts's plain epoch arithmetic
 * (same keys, no Intl).
 *
 * Keys are 'YYYY-MM-DD' / 'YYYY-MM' of the local calendar; a key is a date, not an instant, so
 * calendar steps between keys (shiftDayKey) need no zone.
 */
import { assertDayCount, MS_PER_DAY, nowMs, startOfUtcDay, utcDayKey } from './time.ts';

export const UTC = 'UTC';

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 'YYYY-MM-DD' key (a counter read from a file may have any name). */
export function isDayKey(key: string): boolean {
  return DAY_KEY.test(key);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Epoch ms of a wall-clock reading taken as if it were UTC (years 0-99 kept as such). */
function wallMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** The local wall clock at an instant, to the second, as epoch ms read as UTC. */
function wallClockAt(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return wallMs(parts['year'] ?? 0, parts['month'] ?? 1, parts['day'] ?? 1, parts['hour'] ?? 0, parts['minute'] ?? 0, parts['second'] ?? 0);
}

/** Milliseconds the zone is ahead of UTC at an instant (whole seconds, as the zone data has them). */
function offsetAt(ms: number, zone: string): number {
  return wallClockAt(ms, zone) - Math.floor(ms / 1000) * 1000;
}

/** 'YYYY-MM-DD' of the zone's calendar day holding the instant. */
export function zoneDayKey(ms: number, zone: string): string {
  if (zone === UTC) return utcDayKey(ms);
  return utcDayKey(wallClockAt(ms, zone));
}

/** 'YYYY-MM' of the zone's calendar month holding the instant. */
export function zoneMonthKey(ms: number, zone: string): string {
  return zoneDayKey(ms, zone).slice(0, 7);
}

/** Epoch ms of 00:00 of a 'YYYY-MM-DD' key read as UTC; null for a malformed key. */
function keyWallMs(key: string): number | null {
  const match = DAY_KEY.exec(key);
  return match ? wallMs(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

/** The day key `delta` calendar days after (negative: before) `key`. */
export function shiftDayKey(key: string, delta: number): string {
  const wall = keyWallMs(key);
  if (wall === null) throw new RangeError(`not a day key: "${key}"`);
  return utcDayKey(wall + delta * MS_PER_DAY);
}

const starts = new Map<string, number>();
/** Enough for every zone of a site over years of days; cleared whole beyond it (values never change). */
const MAX_REMEMBERED_STARTS = 50_000;

/**
 * The first instant of a calendar day in a zone: its local midnight, or, where the clocks jump
 * over midnight, the instant of the jump; where midnight happens twice, the first one.
 */
export function startOfZoneDay(key: string, zone: string): number {
  const wall = keyWallMs(key);
  if (wall === null) throw new RangeError(`not a day key: "${key}"`);
  if (zone === UTC) return wall;
  const memo = `${zone} ${key}`;
  const known = starts.get(memo);
  if (known !== undefined) return known;
  // The offsets in force around that midnight (a zone changes offset at most once a day or two).
  const offsets = new Set([offsetAt(wall - MS_PER_DAY, zone), offsetAt(wall, zone), offsetAt(wall + MS_PER_DAY, zone)]);
  const consistent = [...offsets].map((offset) => wall - offset).filter((instant) => wallClockAt(instant, zone) === wall);
  const start = consistent.length > 0 ? Math.min(...consistent) : firstInstantOf(key, wall, zone);
  if (starts.size >= MAX_REMEMBERED_STARTS) starts.clear();
  starts.set(memo, start);
  return start;
}

/** Midnight skipped by a clock change: the first second whose local date is `key` (binary search). */
function firstInstantOf(key: string, wall: number, zone: string): number {
  // Offsets stay within ±18 h, so the day begins within that distance of its UTC midnight.
  let before = wall - 18 * 3_600_000; // local date still before `key`
  let after = wall + 18 * 3_600_000; // local date already `key` or later
  while (after - before > 1000) {
    const middle = before + Math.floor((after - before) / 2000) * 1000;
    if (zoneDayKey(middle, zone) >= key) after = middle;
    else before = middle;
  }
  return after;
}

export interface ZoneDay {
  /** 'YYYY-MM-DD' in the zone. */
  key: string;
  /** First instant of the day (epoch ms). */
  start: number;
  /** First instant of the next day. */
  end: number;
}

/** The window asked for last, per zone and length: pages render it for every monitor. */
const windows = new Map<string, readonly ZoneDay[]>();

/** The last `days` calendar days of the zone, oldest first, the last one holding `now`. */
export function lastZoneDays(days: number, now: Date, zone: string): readonly ZoneDay[] {
  assertDayCount(days);
  const current = nowMs(now);
  const memo = `${zone} ${days}`;
  const known = windows.get(memo);
  const today = known?.[known.length - 1];
  if (known && today && current >= today.start && current < today.end) return known;
  const made = zone === UTC ? lastUtcDays(days, current) : lastDaysIn(days, current, zone);
  if (windows.size >= 100) windows.clear();
  windows.set(memo, made);
  return made;
}

function lastUtcDays(days: number, current: number): ZoneDay[] {
  const today = startOfUtcDay(current);
  return Array.from({ length: days }, (_, index) => {
    const start = today - (days - 1 - index) * MS_PER_DAY;
    return { key: utcDayKey(start), start, end: start + MS_PER_DAY };
  });
}

function lastDaysIn(days: number, current: number, zone: string): ZoneDay[] {
  const today = zoneDayKey(current, zone);
  const keys = Array.from({ length: days + 1 }, (_, index) => shiftDayKey(today, index - (days - 1)));
  const bounds = keys.map((key) => startOfZoneDay(key, zone));
  return keys.slice(0, days).map((key, index) => ({ key, start: bounds[index]!, end: bounds[index + 1]! }));
}

/**
 * zoneDayKey for many instants in a row, as check pages come (sorted): the day found last is
 * remembered, so Intl is asked again only when an instant leaves it.
 */
export function zoneDayKeyer(zone: string): (ms: number) => string {
  if (zone === UTC) return utcDayKey;
  let day: ZoneDay | null = null;
  return (ms) => {
    if (day === null || ms < day.start || ms >= day.end) {
      const key = zoneDayKey(ms, zone);
      day = { key, start: startOfZoneDay(key, zone), end: startOfZoneDay(shiftDayKey(key, 1), zone) };
    }
    return day.key;
  };
}
