/**
 * Daily uptime bars and window percentages.
 *
 * - Days are calendar days of the page's time zone (UTC unless given), keyed 'YYYY-MM-DD', from
 *   one local midnight to the next (see zone-days.ts); a window is the last `days` days ending
 *   with the day of `now`, oldest first, always exactly `days` entries.
 * - A check counts as up only when its status is 'up' (any case). Any other status, including
 *   ones the contract does not know, counts as not up, so odd data never raises uptime. Checks
 *   with an unreadable checkedAt are skipped.
 * - uptime is up / checks * 100, or null when a day has no checks (no data is not 0%).
 * - Day levels: none (no data); up >= 99.9%; minor >= 99%; major >= 95%; down below 95%. At one
 *   check a minute, 99.9% tolerates one failed check a day, 95% about 72 minutes down.
 * - The raw checks can be folded into per-day counters (aggregateChecksByDay) and counters
 *   merged (mergeDayAggregates), so a cache can keep counters instead of checks.
 */
import { translator, type Translator } from '../i18n/translator.ts';
import { parseInstant } from './time.ts';
import { lastZoneDays, UTC, zoneDayKeyer } from './zone-days.ts';

export interface DayCounter {
  checks: number;
  up: number;
}

export type DayAggregates = ReadonlyMap<string, DayCounter>;

export type DayLevel = 'none' | 'up' | 'minor' | 'major' | 'down';

export interface DailyUptime {
  /** 'YYYY-MM-DD' in the page's zone. */
  date: string;
  checks: number;
  up: number;
  /** Percentage 0..100; null when there were no checks. */
  uptime: number | null;
  level: DayLevel;
  incidents: number;
}

export interface DailyUptimeOptions {
  days: number;
  now: Date;
  /** Incidents overlapping each day, keyed 'YYYY-MM-DD' (see incidentsPerDay). */
  incidentsByDay?: ReadonlyMap<string, number>;
  /** IANA zone whose calendar days these are (the aggregates must be keyed by the same); UTC when absent. */
  timeZone?: string;
}

export const LEVEL_THRESHOLDS = { up: 99.9, minor: 99, major: 95 } as const;

export function uptimeLevel(uptime: number | null): DayLevel {
  if (uptime === null || !Number.isFinite(uptime)) return 'none';
  if (uptime >= LEVEL_THRESHOLDS.up) return 'up';
  if (uptime >= LEVEL_THRESHOLDS.minor) return 'minor';
  if (uptime >= LEVEL_THRESHOLDS.major) return 'major';
  return 'down';
}

function isUp(status: unknown): boolean {
  return typeof status === 'string' && status.trim().toLowerCase() === 'up';
}

/** Counters per calendar day of `timeZone` (UTC by default). */
export function aggregateChecksByDay(checks: readonly { status: string; checkedAt: string }[], timeZone: string = UTC): Map<string, DayCounter> {
  const days = new Map<string, DayCounter>();
  const dayKey = zoneDayKeyer(timeZone);
  for (const check of checks) {
    const at = parseInstant(check.checkedAt);
    if (at === null) continue;
    const key = dayKey(at);
    const counter = days.get(key) ?? { checks: 0, up: 0 };
    days.set(key, { checks: counter.checks + 1, up: counter.up + (isUp(check.status) ? 1 : 0) });
  }
  return days;
}

/** Sum of several per-day counters, e.g. a cached aggregate and the checks fetched since. */
export function mergeDayAggregates(...aggregates: DayAggregates[]): Map<string, DayCounter> {
  const merged = new Map<string, DayCounter>();
  for (const aggregate of aggregates) {
    for (const [date, counter] of aggregate) {
      const total = merged.get(date) ?? { checks: 0, up: 0 };
      merged.set(date, { checks: total.checks + counter.checks, up: total.up + counter.up });
    }
  }
  return merged;
}

/** A counter that cannot be trusted (negative, fractional, more up than checks) counts as no data. */
function sane(counter: DayCounter | undefined): DayCounter {
  if (!counter) return { checks: 0, up: 0 };
  const { checks, up } = counter;
  if (!Number.isSafeInteger(checks) || !Number.isSafeInteger(up) || checks < 0 || up < 0 || up > checks) {
    return { checks: 0, up: 0 };
  }
  return { checks, up };
}

export function dailyUptimeFromAggregates(aggregates: DayAggregates, options: DailyUptimeOptions): DailyUptime[] {
  return lastZoneDays(options.days, options.now, options.timeZone ?? UTC).map(({ key: date }) => {
    const { checks, up } = sane(aggregates.get(date));
    const uptime = checks > 0 ? (up / checks) * 100 : null;
    const incidents = options.incidentsByDay?.get(date) ?? 0;
    return { date, checks, up, uptime, level: uptimeLevel(uptime), incidents: Number.isSafeInteger(incidents) && incidents > 0 ? incidents : 0 };
  });
}

export function dailyUptime(checks: readonly { status: string; checkedAt: string }[], options: DailyUptimeOptions): DailyUptime[] {
  return dailyUptimeFromAggregates(aggregateChecksByDay(checks, options.timeZone), options);
}

/** Uptime over the whole window, weighted by checks per day; null when there were no checks. */
export function windowUptime(days: readonly Pick<DailyUptime, 'checks' | 'up'>[]): number | null {
  let checks = 0;
  let up = 0;
  for (const day of days) {
    checks += day.checks;
    up += day.up;
  }
  return checks > 0 ? (up / checks) * 100 : null;
}

export const NO_UPTIME_DATA = translator().t('monitors.noData');

/**
 * "99.95%": floored to two decimals so 99.999% never reads as "100.00%"; only 100 does.
 * The tiny epsilon absorbs binary float error (0.29 * 100 is 28.999999999999996).
 */
export function formatUptime(percentage: number | null | undefined, i18n: Translator = translator()): string {
  if (percentage === null || percentage === undefined || !Number.isFinite(percentage)) return i18n.t('monitors.noData');
  const clamped = Math.min(100, Math.max(0, percentage));
  const floored = Math.floor(clamped * 100 + 1e-7) / 100;
  // The epsilon must never turn a value below 100 into "100.00%".
  return i18n.percent(clamped < 100 ? Math.min(floored, 99.99) : floored);
}
