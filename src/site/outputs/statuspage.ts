/**
 * The page's status as Atlassian Statuspage's public API v2 documents (summary, status,
 * components, incidents, scheduled maintenances), so existing Statuspage clients can read it.
 * Field names, nesting, key order and null-vs-missing follow real Statuspage responses; values
 * come from the PageContext (which monitors, incidents and windows belong to the page) and the
 * mapping rules in lib/statuspage.ts. Times are ISO 8601 UTC with milliseconds, or null when
 * the API gave none that can be read.
 */
import type { Incident, MaintenanceWindow } from '../../contract/index.ts';
import { isoString } from '../lib/format-date.ts';
import { incidentMonitorIds, latestIncidents, LATEST_INCIDENTS_LIMIT, sortedTimeline, type TimelineEntry } from '../lib/incidents.ts';
import { bySchedule, maintenanceMonitorIds, maintenancePhase } from '../lib/maintenance.ts';
import {
  componentStatus,
  incidentImpact,
  incidentStatus,
  maintenanceStatus,
  statusIndicator,
  type ComponentStatus,
  type IncidentImpact,
  type MaintenanceStatus,
  type StatusIndicator,
} from '../lib/statuspage.ts';
import { parseInstant } from '../lib/time.ts';
import type { OutputSource } from '../view/output-route.ts';
import { latestInstant } from './latest-instant.ts';
import { PAGE_OUTPUTS, type PageOutput } from '../view/page-outputs.ts';
import { overallView } from '../view/status-page-view.ts';
import { translator } from '../i18n/translator.ts';

export interface StatuspagePage {
  id: string;
  name: string;
  url: string;
  time_zone: 'Etc/UTC';
  /** When anything on the page last changed, from the data's own dates (see pageUpdatedAt). */
  updated_at: string;
}

export interface StatuspageStatus {
  indicator: StatusIndicator;
  description: string;
}

export interface StatuspageComponent {
  id: string;
  name: string;
  status: ComponentStatus;
  created_at: string | null;
  updated_at: string | null;
  position: number;
  /** The monitor's health in the page's words, e.g. "Paused" for an operational component. */
  description: string;
  showcase: boolean;
  start_date: string | null;
  group_id: null;
  page_id: string;
  group: boolean;
  only_show_if_degraded: boolean;
}

export interface StatuspageIncidentUpdate<S extends string> {
  id: string;
  status: S;
  body: string;
  incident_id: string;
  created_at: string | null;
  updated_at: string | null;
  display_at: string | null;
  affected_components: null;
}

interface IncidentFields<S extends string, I extends string> {
  id: string;
  name: string;
  status: S;
  created_at: string | null;
  updated_at: string | null;
  monitoring_at: string | null;
  resolved_at: string | null;
  impact: I;
  shortlink: string;
  started_at: string | null;
  page_id: string;
  /** Newest first. */
  incident_updates: StatuspageIncidentUpdate<S>[];
  /** The affected components of this page only, in page order. */
  components: StatuspageComponent[];
}

export type StatuspageIncident = IncidentFields<ReturnType<typeof incidentStatus>, IncidentImpact>;

export type StatuspageMaintenance = IncidentFields<MaintenanceStatus, 'maintenance'> & {
  scheduled_for: string | null;
  scheduled_until: string | null;
};

export interface StatuspageSummary {
  page: StatuspagePage;
  components: StatuspageComponent[];
  incidents: StatuspageIncident[];
  scheduled_maintenances: StatuspageMaintenance[];
  status: StatuspageStatus;
}

/** The first of the values that is a readable instant, as Statuspage writes it. */
function firstInstant(...values: unknown[]): string | null {
  for (const value of values) {
    const iso = isoString(value);
    if (iso !== null) return iso;
  }
  return null;
}

/** Stands in for `page.updated_at` when the data carries no readable date at all. */
export const UNDATED = '1970-01-01T00:00:00.000Z';

/**
 * When anything on the page last changed, as Statuspage means `page.updated_at`: the latest
 * `updated_at` of the page, its components, its latest incidents and its windows; else when the
 * page, or its organization, was created; else the Unix epoch. Only dates of the data, never the
 * clock nor the fetch time nor a monitor's last check (it moves with every check, not with a
 * change), so unchanged data gives the same bytes (a static export rewrites nothing) and it stops
 * moving while the API is unreachable.
 */
export function pageUpdatedAt(source: OutputSource): string {
  const all = components(source);
  const instants = [
    source.context.page.updatedAt,
    ...all.map((component) => component.updated_at),
    ...incidents(source, latestIncidents(source.context.incidents)).map((incident) => incident.updated_at),
    ...maintenances(source, null, 'newest').map((window) => window.updated_at),
  ];
  const latest = latestInstant(instants) ?? latestInstant([source.context.page.createdAt, source.organization?.createdAt]);
  return latest === null ? UNDATED : new Date(latest).toISOString();
}

function pageObject(source: OutputSource): StatuspagePage {
  const { page } = source.context;
  return { id: page.id, name: page.name, url: source.urls.home, time_zone: 'Etc/UTC', updated_at: pageUpdatedAt(source) };
}

function statusObject(source: OutputSource): StatuspageStatus {
  // Machine-readable: always the English words, whatever language the page speaks.
  const overall = overallView({ ...source.context, i18n: translator() });
  return { indicator: statusIndicator(overall.level), description: overall.label };
}

/** One component per linked monitor, in page order. */
function components(source: OutputSource): StatuspageComponent[] {
  const { context } = source;
  return context.rows.map((row, index) => {
    const createdAt = firstInstant(row.monitor?.createdAt, context.page.createdAt);
    return {
      id: row.monitorId,
      name: row.label,
      status: componentStatus(row.status),
      created_at: createdAt,
      updated_at: firstInstant(row.monitor?.updatedAt) ?? createdAt,
      position: index + 1,
      description: row.statusLabel,
      showcase: true,
      start_date: createdAt === null ? null : createdAt.slice(0, 10),
      group_id: null,
      page_id: context.page.id,
      group: false,
      only_show_if_degraded: false,
    };
  });
}

const componentsAmong = (all: readonly StatuspageComponent[], ids: ReadonlySet<string>) => all.filter((component) => ids.has(component.id));

/** The earliest readable time of the updates with that status. */
function firstTimeOf(timeline: readonly TimelineEntry[], status: string): string | null {
  const times = timeline.filter((entry) => entry.status === status).map((entry) => parseInstant(entry.createdAt)).filter((ms) => ms !== null);
  return times.length > 0 ? new Date(Math.min(...times)).toISOString() : null;
}

/** When an incident last changed (its own `updatedAt`, else its latest update, else its start). */
export function incidentUpdatedAt(incident: Incident): string | null {
  return firstInstant(incident.updatedAt, sortedTimeline(incident.updates)[0]?.createdAt, incident.createdAt, incident.startedAt);
}

function incidentObject(incident: Incident, source: OutputSource, all: readonly StatuspageComponent[]): StatuspageIncident {
  const status = incidentStatus(incident.status);
  const timeline = sortedTimeline(incident.updates);
  const createdAt = firstInstant(incident.createdAt, incident.startedAt);
  const updatedAt = incidentUpdatedAt(incident);
  return {
    id: incident.id,
    name: incident.title,
    status,
    created_at: createdAt,
    updated_at: updatedAt,
    monitoring_at: firstTimeOf(timeline, 'monitoring'),
    // The status decides whether it is resolved, as on the HTML page; resolvedAt only says when.
    resolved_at: status === 'resolved' ? firstInstant(incident.resolvedAt, timeline.find((entry) => entry.status === 'resolved')?.createdAt) ?? updatedAt : null,
    impact: incidentImpact(incident.severity),
    shortlink: source.urls.incident(incident.id),
    started_at: firstInstant(incident.startedAt),
    page_id: source.context.page.id,
    incident_updates: timeline.map((entry) => {
      const at = firstInstant(entry.createdAt);
      return { id: entry.id, status: entry.status, body: entry.message, incident_id: incident.id, created_at: at, updated_at: at, display_at: at, affected_components: null };
    }),
    components: componentsAmong(all, incidentMonitorIds(incident)),
  };
}

const MAINTENANCE_SENTENCES: Record<MaintenanceStatus, string> = {
  scheduled: 'Maintenance is scheduled.',
  in_progress: 'The scheduled maintenance is in progress.',
  completed: 'The scheduled maintenance has been completed.',
};

/**
 * One update per transition the window went through, newest first: scheduled when it was
 * created (its body the description), in progress when it started (a scheduled window running
 * on time counts from its scheduled start, as on the HTML page), completed when it ended.
 */
function maintenanceUpdates(window: MaintenanceWindow, status: MaintenanceStatus, createdAt: string | null): StatuspageIncidentUpdate<MaintenanceStatus>[] {
  const description = window.description?.trim();
  const steps: { status: MaintenanceStatus; at: string | null; body: string }[] = [
    { status: 'scheduled', at: createdAt, body: description ? description : MAINTENANCE_SENTENCES.scheduled },
  ];
  const startedAt = firstInstant(window.startedAt) ?? (status === 'in_progress' ? firstInstant(window.scheduledStart) : null);
  if (status !== 'scheduled' && (startedAt !== null || status === 'in_progress')) {
    steps.push({ status: 'in_progress', at: startedAt, body: MAINTENANCE_SENTENCES.in_progress });
  }
  if (status === 'completed') steps.push({ status: 'completed', at: firstInstant(window.completedAt, window.updatedAt), body: MAINTENANCE_SENTENCES.completed });
  return steps.reverse().map((step) => ({
    id: `${window.id}-${step.status}`,
    status: step.status,
    body: step.body,
    incident_id: window.id,
    created_at: step.at,
    updated_at: step.at,
    display_at: step.at,
    affected_components: null,
  }));
}

function maintenanceObject(window: MaintenanceWindow, status: MaintenanceStatus, source: OutputSource, all: readonly StatuspageComponent[]): StatuspageMaintenance {
  const createdAt = firstInstant(window.createdAt, window.updatedAt);
  const updates = maintenanceUpdates(window, status, createdAt);
  return {
    id: window.id,
    name: window.title,
    status,
    created_at: createdAt,
    updated_at: firstInstant(window.updatedAt, updates[0]?.created_at) ?? createdAt,
    monitoring_at: null,
    resolved_at: status === 'completed' ? (updates[0]?.created_at ?? null) : null,
    impact: 'maintenance',
    // Windows have no page of their own: the status page is where they are announced.
    shortlink: source.urls.home,
    started_at: firstInstant(window.startedAt, window.scheduledStart),
    page_id: source.context.page.id,
    incident_updates: updates,
    components: componentsAmong(all, maintenanceMonitorIds(window)),
    scheduled_for: firstInstant(window.scheduledStart),
    scheduled_until: firstInstant(window.scheduledEnd),
  };
}

/** The page's windows that have a Statuspage state, with it; in the order given. */
function windowsWithStatus(source: OutputSource, windows: readonly MaintenanceWindow[]): { window: MaintenanceWindow; status: MaintenanceStatus }[] {
  return windows.flatMap((window) => {
    const status = maintenanceStatus(maintenancePhase(window, source.context.now));
    return status === null ? [] : [{ window, status }];
  });
}

function maintenances(source: OutputSource, only: readonly MaintenanceStatus[] | null, order: 'soonest' | 'newest'): StatuspageMaintenance[] {
  const sorted = [...source.context.windows].sort(order === 'soonest' ? bySchedule : newestScheduleFirst);
  const all = components(source);
  const chosen = windowsWithStatus(source, sorted).filter((entry) => only === null || only.includes(entry.status));
  // Like Statuspage's list of all scheduled maintenances, the full list stops at the 50 latest.
  const limited = only === null ? chosen.slice(0, LATEST_INCIDENTS_LIMIT) : chosen;
  return limited.map((entry) => maintenanceObject(entry.window, entry.status, source, all));
}

/** Latest scheduled start first; unreadable starts last; ties by id. */
function newestScheduleFirst(a: MaintenanceWindow, b: MaintenanceWindow): number {
  const left = parseInstant(a.scheduledStart);
  const right = parseInstant(b.scheduledStart);
  if (left === null || right === null) return bySchedule(a, b);
  return left !== right ? right - left : bySchedule(a, b);
}

function incidents(source: OutputSource, list: readonly Incident[]): StatuspageIncident[] {
  const all = components(source);
  return list.map((incident) => incidentObject(incident, source, all));
}

export function summaryDocument(source: OutputSource): StatuspageSummary {
  return {
    page: pageObject(source),
    components: components(source),
    incidents: incidents(source, source.context.active),
    // In progress first, then upcoming, each soonest first.
    scheduled_maintenances: [...maintenances(source, ['in_progress'], 'soonest'), ...maintenances(source, ['scheduled'], 'soonest')],
    status: statusObject(source),
  };
}

export function statusDocument(source: OutputSource): { page: StatuspagePage; status: StatuspageStatus } {
  return { page: pageObject(source), status: statusObject(source) };
}

export function componentsDocument(source: OutputSource): { page: StatuspagePage; components: StatuspageComponent[] } {
  return { page: pageObject(source), components: components(source) };
}

/** The page's 50 most recently started incidents, resolved or not. */
export function incidentsDocument(source: OutputSource): { page: StatuspagePage; incidents: StatuspageIncident[] } {
  return { page: pageObject(source), incidents: incidents(source, latestIncidents(source.context.incidents)) };
}

export function unresolvedIncidentsDocument(source: OutputSource): { page: StatuspagePage; incidents: StatuspageIncident[] } {
  return { page: pageObject(source), incidents: incidents(source, source.context.active) };
}

/** Scheduled, in progress and completed windows, latest scheduled start first (at most 50). */
export function maintenancesDocument(source: OutputSource): { page: StatuspagePage; scheduled_maintenances: StatuspageMaintenance[] } {
  return { page: pageObject(source), scheduled_maintenances: maintenances(source, null, 'newest') };
}

export function upcomingMaintenancesDocument(source: OutputSource): { page: StatuspagePage; scheduled_maintenances: StatuspageMaintenance[] } {
  return { page: pageObject(source), scheduled_maintenances: maintenances(source, ['scheduled'], 'soonest') };
}

export function activeMaintenancesDocument(source: OutputSource): { page: StatuspagePage; scheduled_maintenances: StatuspageMaintenance[] } {
  return { page: pageObject(source), scheduled_maintenances: maintenances(source, ['in_progress'], 'soonest') };
}

const BUILDERS = {
  summaryJson: summaryDocument,
  statusJson: statusDocument,
  componentsJson: componentsDocument,
  incidentsJson: incidentsDocument,
  unresolvedIncidentsJson: unresolvedIncidentsDocument,
  maintenancesJson: maintenancesDocument,
  upcomingMaintenancesJson: upcomingMaintenancesDocument,
  activeMaintenancesJson: activeMaintenancesDocument,
} satisfies Partial<Record<PageOutput, (source: OutputSource) => object>>;

export type StatuspageOutput = keyof typeof BUILDERS;

export const STATUSPAGE_OUTPUTS = Object.keys(BUILDERS) as StatuspageOutput[];

/** The document at a path relative to the page's root ('api/v2/summary.json'), or null. */
export function statuspageOutputAt(relativePath: string): StatuspageOutput | null {
  return STATUSPAGE_OUTPUTS.find((output) => PAGE_OUTPUTS[output] === relativePath) ?? null;
}

/** The JSON text of one document: every value escaped by JSON.stringify, nothing else. */
export function statuspageJson(output: StatuspageOutput, source: OutputSource): string {
  return JSON.stringify(BUILDERS[output](source));
}
