/**
 * Which maintenance windows a status page shows.
 *
 * - running: status in_progress (until someone completes it, even past its scheduled end: the API
 *   is the source of truth), or status scheduled with scheduledStart <= now < scheduledEnd. The
 *   second case matters because the API only moves a window to in_progress when someone calls
 *   start; visitors still expect to see the maintenance at the announced time.
 * - upcoming: status scheduled with now < scheduledStart <= now + horizon (default 30 days),
 *   soonest first.
 * - Everything else is hidden: completed, cancelled, scheduled windows whose end has passed
 *   (never started), windows with unreadable times, and statuses the contract does not know (a
 *   window that may have been cancelled is not announced; the affected monitors then show their
 *   real health, which never looks better than it is).
 * - Only windows affecting a monitor linked to the page count (by `monitors[].monitor.id` and
 *   `monitorIds`); a window with no monitors is shown on no page, like an incident.
 */
import type { MaintenanceWindow } from '../../contract/index.ts';
import { MS_PER_DAY, nowMs, parseInstant } from './time.ts';

export type MaintenanceLike = Pick<MaintenanceWindow, 'id' | 'status' | 'scheduledStart' | 'scheduledEnd' | 'monitors'> & {
  monitorIds?: readonly string[] | undefined;
};

export interface MaintenanceSelection<T> {
  running: T[];
  upcoming: T[];
}

export const DEFAULT_HORIZON_DAYS = 30;

/** Every monitor a window affects, from both shapes the API may send. */
export function maintenanceMonitorIds(window: MaintenanceLike): Set<string> {
  const ids = new Set(window.monitorIds ?? []);
  for (const affected of window.monitors) ids.add(affected.monitor.id);
  return ids;
}

function affectsPage(window: MaintenanceLike, pageMonitorIds: ReadonlySet<string>): boolean {
  for (const id of maintenanceMonitorIds(window)) if (pageMonitorIds.has(id)) return true;
  return false;
}

/**
 * Where a window stands now. `lapsed`: still scheduled although its end has passed (never
 * started); `unknown`: a status the contract does not know, or unreadable times.
 */
export type MaintenancePhase = 'running' | 'upcoming' | 'completed' | 'cancelled' | 'lapsed' | 'unknown';

export function maintenancePhase(window: MaintenanceLike, now: Date): MaintenancePhase {
  const status = typeof window.status === 'string' ? window.status.trim().toLowerCase() : '';
  if (status === 'in_progress') return 'running';
  if (status === 'completed') return 'completed';
  if (status === 'cancelled') return 'cancelled';
  if (status !== 'scheduled') return 'unknown';
  const start = parseInstant(window.scheduledStart);
  const end = parseInstant(window.scheduledEnd);
  if (start === null || end === null) return 'unknown';
  const current = nowMs(now);
  if (start <= current && current < end) return 'running';
  if (current < start) return 'upcoming';
  return 'lapsed';
}

/** The windows that concern a page: those affecting one of its linked monitors. */
export function maintenanceForPage<T extends MaintenanceLike>(windows: readonly T[], pageMonitorIds: ReadonlySet<string>): T[] {
  return windows.filter((window) => affectsPage(window, pageMonitorIds));
}

/** Soonest scheduled start first; unreadable starts last; ties by id. */
export function bySchedule<T extends MaintenanceLike>(a: T, b: T): number {
  const left = parseInstant(a.scheduledStart);
  const right = parseInstant(b.scheduledStart);
  if (left !== right) {
    if (left === null) return 1;
    if (right === null) return -1;
    return left - right;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function selectMaintenance<T extends MaintenanceLike>(
  windows: readonly T[],
  pageMonitorIds: ReadonlySet<string>,
  now: Date,
  options: { horizonDays?: number } = {},
): MaintenanceSelection<T> {
  const current = nowMs(now);
  const horizonDays = options.horizonDays ?? DEFAULT_HORIZON_DAYS;
  if (!Number.isFinite(horizonDays) || horizonDays < 0) {
    throw new RangeError(`horizonDays must be a non-negative number, got ${String(horizonDays)}`);
  }
  const horizonEnd = current + horizonDays * MS_PER_DAY;
  const running: T[] = [];
  const upcoming: T[] = [];
  for (const window of maintenanceForPage(windows, pageMonitorIds)) {
    const where = maintenancePhase(window, now);
    if (where === 'running') running.push(window);
    else if (where === 'upcoming' && (parseInstant(window.scheduledStart) ?? Infinity) <= horizonEnd) upcoming.push(window);
  }
  return { running: running.sort(bySchedule), upcoming: upcoming.sort(bySchedule) };
}

/** Monitors affected by any of the given (running) windows. */
export function monitorsUnderMaintenance(running: readonly MaintenanceLike[]): Set<string> {
  const ids = new Set<string>();
  for (const window of running) for (const id of maintenanceMonitorIds(window)) ids.add(id);
  return ids;
}
