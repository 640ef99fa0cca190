/**
 * What subscribers are told about, found by comparing two successive snapshots of the data (the
 * ones the pages render from), so it works with push and with polling alone and survives a
 * missed webhook. Each event has a stable key: the store records a key once, so a snapshot that
 * flaps (an incident missing from one load, back in the next) never mails anyone twice.
 */
import type { Incident, MaintenanceWindow, Monitor } from '../contract/index.ts';
import { incidentMonitorIds, isIncidentActive, sortedTimeline, maintenanceMonitorIds, maintenancePhase, type MaintenancePhase } from '../site/public.ts';

export type IncidentEventKind = 'incident-created' | 'incident-updated' | 'incident-resolved';
export type MaintenanceEventKind = 'maintenance-scheduled' | 'maintenance-started' | 'maintenance-completed';

export type SiteEvent =
  | { kind: IncidentEventKind; key: string; incident: Incident; monitorIds: ReadonlySet<string>; updateId: string | null }
  | { kind: MaintenanceEventKind; key: string; window: MaintenanceWindow; monitorIds: ReadonlySet<string> }
  | { kind: 'monitor-down'; key: string; monitor: Monitor; monitorIds: ReadonlySet<string> };

/** The parts of a snapshot the comparison reads. */
export interface EventSource {
  monitors: readonly Monitor[];
  incidents: readonly Incident[];
  maintenance: readonly MaintenanceWindow[];
  fetchedAt: Date;
}

function incidentEvents(before: Incident | undefined, incident: Incident): SiteEvent[] {
  const monitorIds = incidentMonitorIds(incident);
  const base = { incident, monitorIds };
  const resolved = !isIncidentActive(incident);
  if (!before) {
    // First seen: one mail, "created" (or "resolved" when it was opened and closed in between).
    return [{ kind: resolved ? 'incident-resolved' : 'incident-created', key: `incident:${incident.id}:${resolved ? 'resolved' : 'created'}`, updateId: null, ...base }];
  }
  const seen = new Set(before.updates.map((update) => update.id));
  const fresh = sortedTimeline(incident.updates).filter((update) => !seen.has(update.id)).reverse();
  if (resolved && isIncidentActive(before)) {
    // The resolution and any update that came with it are one mail.
    const last = fresh[fresh.length - 1];
    return [
      ...fresh.slice(0, -1).map((update): SiteEvent => ({ kind: 'incident-updated', key: `incident:${incident.id}:update:${update.id}`, updateId: update.id, ...base })),
      { kind: 'incident-resolved', key: `incident:${incident.id}:resolved`, updateId: last?.id ?? null, ...base },
    ];
  }
  return fresh.map((update): SiteEvent => ({ kind: 'incident-updated', key: `incident:${incident.id}:update:${update.id}`, updateId: update.id, ...base }));
}

function maintenanceKind(before: MaintenancePhase | null, now: MaintenancePhase): MaintenanceEventKind | null {
  if (now === before) return null;
  if (now === 'upcoming' && before === null) return 'maintenance-scheduled';
  if (now === 'running') return 'maintenance-started';
  // Only a window someone could have been told about ends with a mail.
  if (now === 'completed' && (before === 'running' || before === 'upcoming' || before === 'lapsed')) return 'maintenance-completed';
  return null;
}

const isDown = (monitor: Monitor | undefined) => typeof monitor?.currentStatus === 'string' && monitor.currentStatus.toLowerCase() === 'down';

/**
 * A monitor that went down with no open incident about it (optional, off by default): keyed by
 * the check that found it down, so one outage is one mail whatever the loads in between.
 */
function monitorDownEvents(previous: EventSource, next: EventSource): SiteEvent[] {
  const before = new Map(previous.monitors.map((monitor) => [monitor.id, monitor]));
  const covered = new Set(next.incidents.filter(isIncidentActive).flatMap((incident) => [...incidentMonitorIds(incident)]));
  return next.monitors
    .filter((monitor) => isDown(monitor) && !isDown(before.get(monitor.id)) && !covered.has(monitor.id))
    .map((monitor) => ({ kind: 'monitor-down', key: `monitor:${monitor.id}:down:${monitor.lastCheckedAt ?? next.fetchedAt.toISOString()}`, monitor, monitorIds: new Set([monitor.id]) }));
}

/** Events between `previous` and `next`, oldest change first; `monitorDown` adds monitors going down without an incident. */
export function diffSnapshots(previous: EventSource, next: EventSource, options: { monitorDown?: boolean } = {}): SiteEvent[] {
  const events: SiteEvent[] = [];
  const incidentsBefore = new Map(previous.incidents.map((incident) => [incident.id, incident]));
  for (const incident of next.incidents) events.push(...incidentEvents(incidentsBefore.get(incident.id), incident));
  const windowsBefore = new Map(previous.maintenance.map((window) => [window.id, window]));
  for (const window of next.maintenance) {
    const before = windowsBefore.get(window.id);
    const kind = maintenanceKind(before ? maintenancePhase(before, previous.fetchedAt) : null, maintenancePhase(window, next.fetchedAt));
    if (kind) events.push({ kind, key: `maintenance:${window.id}:${kind.slice('maintenance-'.length)}`, window, monitorIds: maintenanceMonitorIds(window) });
  }
  if (options.monitorDown) events.push(...monitorDownEvents(previous, next));
  return events;
}
