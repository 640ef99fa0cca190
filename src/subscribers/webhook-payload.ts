/**
 * The JSON a webhook subscriber receives, in Statuspage's webhook format so existing consumers
 * parse it unchanged: `meta` (the subscriber's own unsubscribe URL), `page` (id and overall
 * indicator), then `incident` (with its `incident_updates`, newest first) or `component_update`
 * with `component`. Maintenance windows travel as Statuspage sends them: an `incident` with
 * `impact: "maintenance"` and `scheduled_for`/`scheduled_until`. Porchlight adds `event_type`
 * (`incident.created`, … `component.updated`, `ping`): unknown fields are ignored by consumers.
 * The event's part is built once when the event is found; `meta` is added per subscriber.
 */
import type { Incident, MaintenanceWindow, Monitor, StatusPage } from '../contract/index.ts';
import { incidentMonitorIds, isIncidentActive, joinPageMonitors, publicUrls, sortedTimeline } from '../site/public.ts';
import type { PageAddress } from './mail-view.ts';
import type { SiteEvent } from './snapshot-events.ts';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A component's status in Statuspage's words. */
export type ComponentStatus = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';

export function componentStatus(monitorStatus: string | null | undefined): ComponentStatus | null {
  switch ((monitorStatus ?? '').toLowerCase()) {
    case 'up':
      return 'operational';
    case 'degraded':
      return 'degraded_performance';
    case 'down':
      return 'major_outage';
    case 'maintenance':
      return 'under_maintenance';
    default:
      return null; // paused, pending, unknown: not a status a consumer acts on
  }
}

/** A monitor whose status changed between two loads (webhook and chat subscribers hear it). */
export interface ComponentChange {
  key: string;
  monitor: Monitor;
  oldStatus: ComponentStatus;
  newStatus: ComponentStatus;
  at: string;
  monitorIds: ReadonlySet<string>;
}

export function componentChanges(previous: readonly Monitor[], next: readonly Monitor[], fetchedAt: Date): ComponentChange[] {
  const before = new Map(previous.map((monitor) => [monitor.id, componentStatus(monitor.currentStatus)]));
  const changes: ComponentChange[] = [];
  for (const monitor of next) {
    const oldStatus = before.get(monitor.id);
    const newStatus = componentStatus(monitor.currentStatus);
    if (!oldStatus || !newStatus || oldStatus === newStatus) continue;
    const at = monitor.lastCheckedAt ?? fetchedAt.toISOString();
    changes.push({ key: `component:${monitor.id}:${newStatus}:${at}`, monitor, oldStatus, newStatus, at, monitorIds: new Set([monitor.id]) });
  }
  return changes;
}

const IMPACTS = new Set(['minor', 'major', 'critical']);
const impactOf = (severity: string) => (IMPACTS.has(severity.toLowerCase()) ? severity.toLowerCase() : 'major');
const INDICATOR_RANK = ['none', 'minor', 'major', 'critical'];
const DESCRIPTIONS: Record<string, string> = {
  none: 'All Systems Operational',
  minor: 'Minor Service Outage',
  major: 'Partial System Outage',
  critical: 'Major Service Outage',
};

export interface PayloadContext {
  page: StatusPage;
  monitors: readonly Monitor[];
  incidents: readonly Incident[];
  address: PageAddress;
}

/** `page`: the worst impact among the page's open incidents, as Statuspage's indicator. */
function pagePart(context: PayloadContext): JsonObject {
  const shown = new Set(context.page.monitors.map((link) => link.monitorId));
  let rank = 0;
  for (const incident of context.incidents) {
    if (!isIncidentActive(incident) || ![...incidentMonitorIds(incident)].some((id) => shown.has(id))) continue;
    rank = Math.max(rank, INDICATOR_RANK.indexOf(impactOf(incident.severity)));
  }
  const indicator = INDICATOR_RANK[rank] ?? 'none';
  return { id: context.page.id, name: context.page.name, url: publicUrls(context.address.origin, context.address.basePath).home, status_indicator: indicator, status_description: DESCRIPTIONS[indicator] ?? '' };
}

function componentsOf(context: PayloadContext, ids: ReadonlySet<string>): JsonObject[] {
  return joinPageMonitors(context.page.monitors, context.monitors)
    .filter((row) => ids.has(row.monitorId))
    .map((row) => ({ id: row.monitorId, name: row.label, status: componentStatus(row.monitor?.currentStatus) ?? 'operational' }));
}

function incidentPart(context: PayloadContext, incident: Incident): JsonObject {
  const updates = sortedTimeline(incident.updates);
  const newest = updates[0];
  return {
    id: incident.id,
    name: incident.title,
    status: incident.status,
    impact: impactOf(incident.severity),
    created_at: incident.createdAt ?? incident.startedAt,
    updated_at: incident.updatedAt ?? newest?.createdAt ?? incident.startedAt,
    started_at: incident.startedAt,
    resolved_at: incident.resolvedAt ?? null,
    shortlink: publicUrls(context.address.origin, context.address.basePath).incident(incident.id),
    incident_updates: updates.map((update) => ({ id: update.id, incident_id: incident.id, status: update.status, body: update.message, created_at: update.createdAt, updated_at: update.createdAt, display_at: update.createdAt })),
    components: componentsOf(context, incidentMonitorIds(incident)),
  };
}

const MAINTENANCE_STATUS = { 'maintenance-scheduled': 'scheduled', 'maintenance-started': 'in_progress', 'maintenance-completed': 'completed' } as const;

function maintenancePart(context: PayloadContext, window: MaintenanceWindow, kind: keyof typeof MAINTENANCE_STATUS, monitorIds: ReadonlySet<string>): JsonObject {
  return {
    id: window.id,
    name: window.title,
    status: MAINTENANCE_STATUS[kind],
    impact: 'maintenance',
    created_at: window.createdAt ?? window.scheduledStart,
    updated_at: window.completedAt ?? window.startedAt ?? window.createdAt ?? window.scheduledStart,
    scheduled_for: window.scheduledStart,
    scheduled_until: window.scheduledEnd,
    resolved_at: window.completedAt ?? null,
    shortlink: publicUrls(context.address.origin, context.address.basePath).home,
    incident_updates: window.description ? [{ id: `${window.id}-description`, incident_id: window.id, status: MAINTENANCE_STATUS[kind], body: window.description, created_at: window.createdAt ?? window.scheduledStart, updated_at: window.createdAt ?? window.scheduledStart, display_at: window.createdAt ?? window.scheduledStart }] : [],
    components: componentsOf(context, monitorIds),
  };
}

const EVENT_TYPES: Record<SiteEvent['kind'], string> = {
  'incident-created': 'incident.created',
  'incident-updated': 'incident.updated',
  'incident-resolved': 'incident.resolved',
  'maintenance-scheduled': 'maintenance.scheduled',
  'maintenance-started': 'maintenance.started',
  'maintenance-completed': 'maintenance.completed',
  'monitor-down': 'component.updated',
};

/** The event's part of the payload (everything but `meta`), or null for an event with no webhook form. */
export function eventPayload(context: PayloadContext, event: SiteEvent): JsonObject | null {
  if ('incident' in event) return { event_type: EVENT_TYPES[event.kind], page: pagePart(context), incident: incidentPart(context, event.incident) };
  if ('window' in event) return { event_type: EVENT_TYPES[event.kind], page: pagePart(context), incident: maintenancePart(context, event.window, event.kind as keyof typeof MAINTENANCE_STATUS, event.monitorIds) };
  // A monitor going down is also a component change: webhook subscribers hear that one.
  return null;
}

export function componentPayload(context: PayloadContext, change: ComponentChange): JsonObject {
  const [component] = componentsOf(context, change.monitorIds);
  return {
    event_type: 'component.updated',
    page: pagePart(context),
    component_update: { id: `${change.monitor.id}-${change.at}`, component_id: change.monitor.id, old_status: change.oldStatus, new_status: change.newStatus, created_at: change.at },
    component: { id: change.monitor.id, name: component?.name ?? change.monitor.name, status: change.newStatus, created_at: change.monitor.createdAt ?? change.at },
  };
}

/** The first, confirming request: Statuspage has none, so it is Porchlight's own small shape. */
export function pingPayload(page: StatusPage, address: PageAddress): JsonObject {
  return { event_type: 'ping', page: { id: page.id, name: page.name, url: publicUrls(address.origin, address.basePath).home } };
}

/** The whole body for one subscriber: `meta` first, as Statuspage sends it. */
export function withMeta(part: JsonObject, unsubscribeUrl: string, documentation: string | null = null): JsonObject {
  return { meta: { unsubscribe: unsubscribeUrl, documentation }, ...part };
}
