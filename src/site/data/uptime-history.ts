/**
 * Daily uptime of each monitor, aggregated incrementally from the API's check lists
 * (newest first, paged by offset), so a refresh costs a few requests instead of 90 days of checks.
 *
 * Per monitor the state covers one contiguous run of checks, from `tailAt` (oldest counted) to
 * `headAt` (newest counted). A refresh first catches up from the newest check down to the head,
 * then, within a page budget shared by all monitors, backfills older pages below the tail until
 * the window start or the end of the history. If more new checks arrived than the catch-up cap
 * allows (the site was down for long), the checks in between are skipped: those days show partial data.
 *
 * Days are counted in UTC and in each other time zone the pages use (their bars' days run from
 * local midnight to local midnight): a few sets of 90 counters per monitor. A history counted
 * without one of the zones now asked for is started again (a changed PAGE_TIME_ZONES): its old
 * checks cannot be recounted, they are fetched again by backfill. Until backfill is done, the
 * counters it had before still give the days not reached yet (`earlier`, see historyDays), so the
 * bars of the zones already counted stay whole meanwhile.
 */
import type { Check } from '../../contract/index.ts';
import { parseInstant } from '../lib/time.ts';
import { isDayKey, lastZoneDays, startOfZoneDay, UTC } from '../lib/zone-days.ts';
import { aggregateChecksByDay, mergeDayAggregates, type DayCounter } from '../lib/uptime.ts';

export interface LatencyPoint {
  checkedAt: string;
  latency: number | null;
}

export interface DayCounters {
  /** UTC day 'YYYY-MM-DD' -> counts. */
  days: Record<string, DayCounter>;
  /** The same checks counted by the days of each other zone asked for: IANA name -> day -> counts. */
  zoneDays?: Record<string, Record<string, DayCounter>> | undefined;
}

export interface MonitorHistory extends DayCounters {
  /** While a history started again for a new zone is not complete: the counters it had before. */
  earlier?: DayCounters | undefined;
  headAt: string | null;
  /** Ids of the counted checks at `headAt`, so a check on that same instant is not counted twice. */
  headIds: string[];
  tailAt: string | null;
  tailIds: string[];
  /** Offset where the next backfill page should start (older checks shift down as new ones arrive). */
  backfillOffset: number;
  /** Backfill reached the window start or the oldest check. */
  complete: boolean;
  /** Latest checks for the response-time chart, newest first. */
  recent: LatencyPoint[];
  /** The monitor's `lastCheckedAt` at the last catch-up, and when it ran (see refresh-plan.ts). */
  seenLastCheckedAt?: string | null | undefined;
  caughtUpAt?: string | null | undefined;
}

export interface ChecksPage {
  checks: Check[];
  hasMore: boolean;
}

export type ChecksPageFetcher = (monitorId: string, offset: number, limit: number) => Promise<ChecksPage>;

export interface HistoryOptions {
  windowDays: number;
  pageSize: number;
  /** Most pages one monitor's catch-up may read in one refresh. */
  catchUpPages: number;
  /** Hours of latency points kept for the chart. */
  recentHours: number;
  maxRecentPoints: number;
}

export const DEFAULT_HISTORY_OPTIONS: HistoryOptions = {
  windowDays: 90,
  pageSize: 200,
  catchUpPages: 10,
  recentHours: 24,
  maxRecentPoints: 2_000,
};

/** A history with nothing counted yet, for UTC and `timeZones`. */
export function emptyHistory(timeZones: readonly string[] = []): MonitorHistory {
  const history: MonitorHistory = { days: {}, headAt: null, headIds: [], tailAt: null, tailIds: [], backfillOffset: 0, complete: false, recent: [] };
  const others = timeZones.filter((zone) => zone !== UTC);
  if (others.length > 0) history.zoneDays = Object.fromEntries(others.map((zone) => [zone, {}]));
  return history;
}

const countersOf = (counters: DayCounters | undefined, timeZone: string) => (timeZone === UTC ? counters?.days : counters?.zoneDays?.[timeZone]);

/**
 * The day counters of one zone's calendar; empty when that zone is not counted. While a history
 * started again is read back, the days that begin before its oldest check read so far are the
 * earlier counters' (the day holding that check is not whole yet in the new ones).
 */
export function historyDays(history: MonitorHistory | undefined, timeZone: string): Record<string, DayCounter> {
  const counted = countersOf(history, timeZone) ?? {};
  const earlier = history?.complete ? undefined : countersOf(history?.earlier, timeZone);
  if (!earlier) return counted;
  const tailMs = history?.tailAt ? parseInstant(history.tailAt) : null;
  const days = { ...counted };
  for (const [key, counter] of Object.entries(earlier)) {
    if (isDayKey(key) && (tailMs === null || startOfZoneDay(key, timeZone) < tailMs)) days[key] = counter;
  }
  return days;
}

/**
 * The history to keep counting in `timeZones`: the same one (zones no longer asked for dropped),
 * or a fresh one when a zone asked for was never counted in it.
 */
export function alignZones(history: MonitorHistory, timeZones: readonly string[]): MonitorHistory {
  const others = timeZones.filter((zone) => zone !== UTC);
  if (others.some((zone) => !history.zoneDays?.[zone])) {
    const fresh = emptyHistory(timeZones);
    // Shown until the new history is complete; one started again while being read back keeps the older ones.
    const earlier: DayCounters = !history.complete && history.earlier ? history.earlier : { days: history.days, zoneDays: history.zoneDays };
    if (history.headAt !== null || history.earlier) fresh.earlier = earlier;
    return fresh;
  }
  if (others.length === 0) delete history.zoneDays;
  else history.zoneDays = Object.fromEntries(others.map((zone) => [zone, history.zoneDays![zone]!]));
  return history;
}

/**
 * One history per listed monitor, each counting UTC and `timeZones` (others forgotten, new or
 * re-zoned ones empty: the refresh plan then treats them as new). Returns the zones counted.
 */
export function alignHistories(histories: Map<string, MonitorHistory>, monitorIds: readonly string[], timeZones: readonly string[]): string[] {
  const zones = [UTC, ...new Set(timeZones.filter((zone) => zone !== UTC))];
  for (const id of [...histories.keys()]) if (!monitorIds.includes(id)) histories.delete(id);
  for (const id of monitorIds) histories.set(id, alignZones(histories.get(id) ?? emptyHistory(zones), zones));
  return zones;
}

/** Adds checks to the day counters of every zone counted (the counting rules are uptime.ts's). */
function count(history: MonitorHistory, entries: readonly { check: Check }[]): void {
  const checks = entries.map((entry) => entry.check);
  const add = (days: Record<string, DayCounter>, zone: string) =>
    Object.fromEntries(mergeDayAggregates(new Map(Object.entries(days)), aggregateChecksByDay(checks, zone)));
  history.days = add(history.days, UTC);
  for (const [zone, days] of Object.entries(history.zoneDays ?? {})) history.zoneDays![zone] = add(days, zone);
}

/** Strictly newer than the boundary, or on it but not yet counted. */
function isNewer(ms: number, check: Check, boundaryMs: number, boundaryIds: readonly string[]): boolean {
  return ms > boundaryMs || (ms === boundaryMs && !boundaryIds.includes(check.id));
}

function isOlder(ms: number, check: Check, boundaryMs: number, boundaryIds: readonly string[]): boolean {
  return ms < boundaryMs || (ms === boundaryMs && !boundaryIds.includes(check.id));
}

function idsAt(checks: readonly { check: Check; ms: number }[], ms: number): string[] {
  return checks.filter((entry) => entry.ms === ms).map((entry) => entry.check.id);
}

/** Reads pages from the newest check down to the head; returns how many requests it made. */
async function catchUp(
  monitorId: string,
  history: MonitorHistory,
  fetchPage: ChecksPageFetcher,
  options: HistoryOptions,
): Promise<number> {
  const headMs = history.headAt === null ? null : parseInstant(history.headAt);
  const fresh: { check: Check; ms: number }[] = [];
  let requests = 0;
  let reachedHead = false;
  let exhausted = false;
  for (let offset = 0; requests < options.catchUpPages && !reachedHead; offset += options.pageSize) {
    const page = await fetchPage(monitorId, offset, options.pageSize);
    requests += 1;
    for (const check of page.checks) {
      const ms = parseInstant(check.checkedAt);
      if (ms === null) continue;
      if (headMs !== null && !isNewer(ms, check, headMs, history.headIds)) {
        reachedHead = true;
        break;
      }
      fresh.push({ check, ms });
    }
    // A first visit reads one page only: the rest is backfill's job, within the shared budget.
    if (!page.hasMore || headMs === null) {
      exhausted = !page.hasMore;
      break;
    }
  }
  if (fresh.length === 0) return requests;

  count(history, fresh);
  const newest = Math.max(...fresh.map((entry) => entry.ms));
  history.headAt = new Date(newest).toISOString();
  history.headIds = [...new Set([...(headMs === newest ? history.headIds : []), ...idsAt(fresh, newest)])];
  history.backfillOffset += fresh.length;
  if (history.tailAt === null) {
    const oldest = Math.min(...fresh.map((entry) => entry.ms));
    history.tailAt = new Date(oldest).toISOString();
    history.tailIds = idsAt(fresh, oldest);
    history.complete = exhausted;
  }
  history.recent = [
    ...fresh
      .sort((a, b) => b.ms - a.ms)
      .map((entry) => ({ checkedAt: entry.check.checkedAt, latency: entry.check.latency ?? null })),
    ...history.recent,
  ];
  return requests;
}

/** Reads one page below the tail and counts what is older than it, marking the history complete at its end. */
async function backfillPage(
  monitorId: string,
  history: MonitorHistory,
  fetchPage: ChecksPageFetcher,
  options: HistoryOptions,
  windowStartMs: number,
): Promise<void> {
  const tailMs = history.tailAt === null ? null : parseInstant(history.tailAt);
  if (tailMs === null) return;
  const page = await fetchPage(monitorId, history.backfillOffset, options.pageSize);
  history.backfillOffset += page.checks.length;
  const older: { check: Check; ms: number }[] = [];
  for (const check of page.checks) {
    const ms = parseInstant(check.checkedAt);
    if (ms === null || !isOlder(ms, check, tailMs, history.tailIds)) continue;
    if (ms < windowStartMs) {
      history.complete = true;
      break;
    }
    older.push({ check, ms });
  }
  count(history, older);
  if (older.length > 0) {
    const oldest = Math.min(...older.map((entry) => entry.ms));
    history.tailIds = [...new Set([...(oldest === tailMs ? history.tailIds : []), ...idsAt(older, oldest)])];
    history.tailAt = new Date(oldest).toISOString();
  }
  if (!page.hasMore || page.checks.length === 0) history.complete = true;
}

/** First day key of the window in a zone. */
function firstDayOf(now: Date, zone: string, options: HistoryOptions): string {
  return lastZoneDays(options.windowDays, now, zone)[0]!.key;
}

function prune(history: MonitorHistory, now: Date, nowMs: number, options: HistoryOptions): void {
  const drop = (days: Record<string, DayCounter>, zone: string) => {
    const firstDay = firstDayOf(now, zone, options);
    for (const key of Object.keys(days)) {
      if (key < firstDay) delete days[key];
    }
  };
  drop(history.days, UTC);
  for (const [zone, days] of Object.entries(history.zoneDays ?? {})) drop(days, zone);
  if (history.complete) delete history.earlier;
  if (history.earlier) {
    drop(history.earlier.days, UTC);
    for (const [zone, days] of Object.entries(history.earlier.zoneDays ?? {})) drop(days, zone);
  }
  const recentFrom = nowMs - options.recentHours * 3_600_000;
  history.recent = history.recent
    .filter((point) => (parseInstant(point.checkedAt) ?? 0) >= recentFrom)
    .slice(0, options.maxRecentPoints);
}

export interface RefreshResult {
  requests: number;
  /** The first failure; the work after it was not started, the work before it is kept. */
  error: unknown;
}

/**
 * Brings every listed monitor's history up to date: catch-up for each (bounded per monitor),
 * then backfill pages, oldest-missing first, until `backfillBudget` pages are spent.
 * Monitors not listed are forgotten. A failing request stops the rest of the work but never
 * loses what was counted: each page is counted whole or not at all. Nothing is left running
 * when it returns, so two refreshes never work on one history at once.
 */
export async function refreshHistories(
  histories: Map<string, MonitorHistory>,
  monitorIds: readonly string[],
  fetchPage: ChecksPageFetcher,
  context: {
    now: Date;
    backfillBudget: number;
    concurrency: number;
    options?: HistoryOptions;
    /**
     * The monitors to catch up this time, with the `lastCheckedAt` to remember for each (see
     * refresh-plan.ts); all of `monitorIds` when absent.
     */
    catchUp?: ReadonlyMap<string, string | null>;
    /** Zones whose calendar days are counted besides UTC (the pages' zones). */
    timeZones?: readonly string[];
  },
): Promise<RefreshResult> {
  const options = context.options ?? DEFAULT_HISTORY_OPTIONS;
  const nowMs = context.now.getTime();
  const zones = alignHistories(histories, monitorIds, context.timeZones ?? []);
  // The earliest first day of all zones: the one furthest east starts first.
  const windowStartMs = Math.min(...zones.map((zone) => lastZoneDays(options.windowDays, context.now, zone)[0]!.start));

  let requests = 0;
  let error: unknown = null;
  const catchUps = context.catchUp ? monitorIds.filter((id) => context.catchUp!.has(id)) : monitorIds;
  await forEachLimited(catchUps, context.concurrency, async (id) => {
    if (error !== null) return;
    try {
      const history = histories.get(id)!;
      requests += await catchUp(id, history, fetchPage, options);
      history.seenLastCheckedAt = context.catchUp?.get(id) ?? null;
      history.caughtUpAt = context.now.toISOString();
    } catch (caught) {
      error ??= caught;
    }
  });

  let budget = error === null ? context.backfillBudget : 0;
  while (budget > 0) {
    const pending = monitorIds.filter((id) => !histories.get(id)!.complete && histories.get(id)!.tailAt !== null);
    if (pending.length === 0) break;
    const round = pending.slice(0, Math.min(budget, context.concurrency));
    budget -= round.length;
    requests += round.length;
    const settled = await Promise.allSettled(round.map((id) => backfillPage(id, histories.get(id)!, fetchPage, options, windowStartMs)));
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) {
      error = failure.reason;
      break;
    }
  }

  for (const history of histories.values()) prune(history, context.now, nowMs, options);
  return { requests, error };
}

async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
