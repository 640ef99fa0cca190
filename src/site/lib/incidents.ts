/**
 * Which incidents a status page shows, and in what order.
 *
 * - An incident belongs to a page when one of its affected monitors is linked to the page.
 *   Incidents with no affected monitors are shown on no page: an organization may run pages for
 *   different audiences, and an unscoped incident must not leak onto all of them.
 * - Status strings the contract does not know count as 'investigating' (so the incident stays
 *   active rather than silently disappearing); unknown severities count as 'major', the middle
 *   level, so an incident is never shown as less serious than it may be.
 * - An incident is active until its status is 'resolved'; its status, not resolvedAt, decides.
 * - Orders are newest first; entries with an unreadable date go last; ties keep a fixed order.
 */
import { translator, type Translator } from '../i18n/translator.ts';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  type Incident,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentUpdate,
} from '../../contract/index.ts';
import { enumReader } from './normalize-enum.ts';
import { assertDayCount, MS_PER_DAY, nowMs, parseInstant } from './time.ts';
import { lastZoneDays, UTC, zoneMonthKey } from './zone-days.ts';

/** The fields the functions below read; callers keep their full incident type. */
export type IncidentLike = Pick<Incident, 'id' | 'status' | 'startedAt' | 'resolvedAt' | 'monitors'> & {
  updates?: readonly Pick<IncidentUpdate, 'createdAt'>[];
};

export const normalizeIncidentStatus: (value: unknown) => IncidentStatus = enumReader(INCIDENT_STATUSES, 'investigating');

export const normalizeSeverity: (value: unknown) => IncidentSeverity = enumReader(INCIDENT_SEVERITIES, 'major');

/** The status in the translator's language (English by default, as the language-neutral JSON says it). */
export function incidentStatusLabel(status: unknown, i18n: Translator = translator()): string {
  return i18n.t(`incident.${normalizeIncidentStatus(status)}`);
}

export function severityLabel(severity: unknown, i18n: Translator = translator()): string {
  return i18n.t(`severity.${normalizeSeverity(severity)}`);
}

export function isIncidentActive(incident: Pick<Incident, 'status'>): boolean {
  return normalizeIncidentStatus(incident.status) !== 'resolved';
}

export function incidentMonitorIds(incident: Pick<Incident, 'monitors'>): Set<string> {
  return new Set(incident.monitors.map((affected) => affected.monitor.id));
}

export function incidentsForPage<T extends IncidentLike>(incidents: readonly T[], pageMonitorIds: ReadonlySet<string>): T[] {
  return incidents.filter((incident) => incident.monitors.some((affected) => pageMonitorIds.has(affected.monitor.id)));
}

/** Incidents affecting one monitor, e.g. for the tooltips of that monitor's uptime bar. */
export function incidentsForMonitor<T extends IncidentLike>(incidents: readonly T[], monitorId: string): T[] {
  return incidents.filter((incident) => incident.monitors.some((affected) => affected.monitor.id === monitorId));
}

/** Newest first by `key`; unreadable instants last; ties by id so the order is always the same. */
function newestFirst<T extends IncidentLike>(incidents: readonly T[], key: (incident: T) => number | null): T[] {
  return [...incidents].sort((a, b) => {
    const left = key(a);
    const right = key(b);
    if (left !== right) {
      if (left === null) return 1;
      if (right === null) return -1;
      return right - left;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

const startedAt = (incident: IncidentLike): number | null => parseInstant(incident.startedAt);

/** Active incidents, most recently started first. */
export function activeIncidents<T extends IncidentLike>(incidents: readonly T[]): T[] {
  return newestFirst(incidents.filter(isIncidentActive), startedAt);
}

/** When a resolved incident ended: resolvedAt, else its latest update, else its start. */
function resolvedAt(incident: IncidentLike): number | null {
  const resolved = parseInstant(incident.resolvedAt);
  if (resolved !== null) return resolved;
  const updates = (incident.updates ?? []).map((update) => parseInstant(update.createdAt)).filter((ms) => ms !== null);
  return updates.length > 0 ? Math.max(...updates) : startedAt(incident);
}

/** Resolved incidents that ended within the last `days` days (default 14), most recently started first. */
export function pastIncidents<T extends IncidentLike>(incidents: readonly T[], options: { now: Date; days?: number }): T[] {
  const days = options.days ?? 14;
  assertDayCount(days);
  const cutoff = nowMs(options.now) - days * MS_PER_DAY;
  const recent = incidents.filter((incident) => {
    if (isIncidentActive(incident)) return false;
    const ended = resolvedAt(incident);
    return ended !== null && ended >= cutoff;
  });
  return newestFirst(recent, startedAt);
}

const MONTH_KEY = /^\d{4}-(?:0[1-9]|1[0-2])$/;

/** True for a 'YYYY-MM' month key, e.g. to validate a history page's route parameter. */
export function isMonthKey(value: unknown): value is string {
  return typeof value === 'string' && MONTH_KEY.test(value);
}

/** The month `delta` months after (negative: before) a 'YYYY-MM' key; null for a bad key. */
export function shiftMonth(month: string, delta: number): string | null {
  if (!isMonthKey(month) || !Number.isInteger(delta)) return null;
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + delta;
  const year = Math.floor(index / 12);
  if (year < 0 || year > 9999) return null;
  return `${String(year).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export interface IncidentMonth<T> {
  /** 'YYYY-MM' of the incidents' start, in the page's zone. */
  month: string;
  incidents: T[];
}

/**
 * Every incident (active and resolved) grouped by the month of `timeZone` (the page's, UTC by
 * default) it started in, newest month first and newest incident first within a month.
 * Incidents with an unreadable start are left out.
 */
export function incidentsByMonth<T extends IncidentLike>(incidents: readonly T[], timeZone: string = UTC): IncidentMonth<T>[] {
  const groups = new Map<string, T[]>();
  for (const incident of newestFirst(incidents, startedAt)) {
    const started = startedAt(incident);
    if (started === null) continue;
    const month = zoneMonthKey(started, timeZone);
    const group = groups.get(month);
    if (group) group.push(incident);
    else groups.set(month, [incident]);
  }
  return [...groups].map(([month, grouped]) => ({ month, incidents: grouped }));
}

/** The months that have incidents, newest first. */
export function listIncidentMonths(incidents: readonly IncidentLike[], timeZone: string = UTC): string[] {
  return incidentsByMonth(incidents, timeZone).map((group) => group.month);
}

/** The incidents that started in one month, newest first; empty for a bad key. */
export function incidentsInMonth<T extends IncidentLike>(incidents: readonly T[], month: string, timeZone: string = UTC): T[] {
  return incidentsByMonth(incidents, timeZone).find((group) => group.month === month)?.incidents ?? [];
}

export interface MonthNavigation {
  /** The closest month after `current` that has incidents, or null. */
  newer: string | null;
  /** The closest month before `current` that has incidents, or null. */
  older: string | null;
}

/** Links of a month-by-month history page; `current` need not be in `months`. */
export function monthNavigation(months: readonly string[], current: string): MonthNavigation {
  let newer: string | null = null;
  let older: string | null = null;
  for (const month of months) {
    if (!isMonthKey(month)) continue;
    // 'YYYY-MM' keys order as strings do.
    if (month > current && (newer === null || month < newer)) newer = month;
    if (month < current && (older === null || month > older)) older = month;
  }
  return { newer, older };
}

export type TimelineEntry = Omit<IncidentUpdate, 'status'> & { status: IncidentStatus };

/** Updates newest first, statuses normalized; updates with the same time: the later-listed first. */
export function sortedTimeline(updates: readonly IncidentUpdate[]): TimelineEntry[] {
  return updates
    .map((update, index) => ({ update, index, at: parseInstant(update.createdAt) }))
    .sort((a, b) => {
      if (a.at !== b.at) {
        if (a.at === null) return 1;
        if (b.at === null) return -1;
        return b.at - a.at;
      }
      return b.index - a.index;
    })
    .map(({ update }) => ({ ...update, status: normalizeIncidentStatus(update.status) }));
}

/**
 * How many incidents overlap each of the last `days` calendar days of `timeZone` (UTC by default;
 * oldest first, all days present, keyed 'YYYY-MM-DD'). An incident spans from its start to
 * resolvedAt; an active one until `now`.
 */
export function incidentsPerDay(incidents: readonly IncidentLike[], days: number, now: Date, timeZone: string = UTC): Map<string, number> {
  const window = lastZoneDays(days, now, timeZone);
  const counts = new Map<string, number>(window.map((day) => [day.key, 0]));
  const current = nowMs(now);
  for (const incident of incidents) {
    const start = startedAt(incident);
    if (start === null) continue;
    const end = Math.max(start, isIncidentActive(incident) ? current : resolvedAt(incident) ?? start);
    for (const day of window) {
      if (day.end > start && day.start <= end) counts.set(day.key, (counts.get(day.key) ?? 0) + 1);
    }
  }
  return counts;
}

/** How many incidents the machine-readable outputs (Statuspage JSON, feeds) list at most. */
export const LATEST_INCIDENTS_LIMIT = 50;

/** The page's most recently started incidents, active and resolved, newest first. */
export function latestIncidents<T extends IncidentLike>(incidents: readonly T[], limit = LATEST_INCIDENTS_LIMIT): T[] {
  return newestFirst(incidents, startedAt).slice(0, limit);
}
