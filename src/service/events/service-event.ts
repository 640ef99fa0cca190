import { newId } from '../../store/ids.ts';
import type { PAGE_CHANGED_EVENT } from '../../contract/porchlight-push.ts';
import type { IncidentRecord } from '../store/incidents.ts';
import type { MaintenanceRecord } from '../store/maintenance.ts';

/** The check that moved a monitor across its threshold. */
export interface EventCheck {
  /** The stored check's id (one per check, so a key of the event). */
  id: string;
  region: string;
  latency: number;
  statusCode: number | null;
  error: string | null;
  checkedAt: string;
}

export interface MonitorEvent {
  type: 'onMonitorDown' | 'onMonitorRecovered';
  at: string;
  monitor: { id: string; name: string; type: string };
  check: EventCheck;
  /** Failed checks in a row when the monitor went down (0 on recovery). */
  consecutiveFailures: number;
}

export interface IncidentEvent {
  type: 'onIncidentCreated' | 'onIncidentUpdated' | 'onIncidentResolved';
  at: string;
  /** `updateId`: the timeline entry that caused this event (each raise of it names the same one). */
  incident: { id: string; updateId: string; title: string; status: string; severity: string; message: string; monitors: string[] };
  /** Opened or resolved by the engine rather than through the API. */
  automatic: boolean;
}

export interface MaintenanceEvent {
  type: 'onMaintenanceScheduled' | 'onMaintenanceStarted' | 'onMaintenanceCompleted';
  at: string;
  window: { id: string; title: string; description: string | null; scheduledStart: string; scheduledEnd: string; monitors: string[] };
  /** Moved by its scheduled time (the engine) rather than through the API. */
  automatic: boolean;
}

/**
 * A status page created, changed (any field) or deleted: no channel flag of the spec covers it,
 * so it goes to Porchlight's own push channels only (see contract/porchlight-push.ts).
 */
export interface PageChangedEvent {
  type: typeof PAGE_CHANGED_EVENT;
  at: string;
  change: 'created' | 'updated' | 'deleted';
  page: { id: string; name: string; slug: string };
}

/** Something that happened in an organization; each kind matches one channel flag. */
export type ServiceEvent = MonitorEvent | IncidentEvent | MaintenanceEvent;

export function incidentEvent(type: IncidentEvent['type'], incident: IncidentRecord, at: Date, automatic = false): IncidentEvent {
  return {
    type,
    at: at.toISOString(),
    incident: {
      id: incident.id,
      updateId: incident.updates[0]?.id ?? '',
      title: incident.title,
      status: incident.status,
      severity: incident.severity,
      // The timeline is newest first: the update that caused this event.
      message: incident.updates[0]?.message ?? '',
      monitors: incident.monitors.map((item) => item.monitor.name),
    },
    automatic,
  };
}

export function maintenanceEvent(type: MaintenanceEvent['type'], window: MaintenanceRecord, at: Date, automatic = false): MaintenanceEvent {
  return {
    type,
    at: at.toISOString(),
    window: {
      id: window.id,
      title: window.title,
      description: window.description,
      scheduledStart: window.scheduledStart,
      scheduledEnd: window.scheduledEnd,
      monitors: window.monitors.map((item) => item.monitor.name),
    },
    automatic,
  };
}

/** A short name of what the event is about, for log lines. */
export function eventSubject(event: ServiceEvent): string {
  if ('monitor' in event) return event.monitor.name;
  if ('incident' in event) return event.incident.title;
  return event.window.title;
}

/**
 * The same text for every raise of the same event, whichever process raises it: the outbox's
 * unique key is this plus the channel, so a retried or duplicated raise queues nothing twice.
 * Built from what the state change that caused the event made once (the check's id,
 * an incident's newest update, a window's transition).
 */
export function eventKey(event: ServiceEvent | PageChangedEvent): string {
  // A page change is announced once, by the request that made it, and has no id of its own.
  if ('page' in event) return `${event.type}:${event.page.id}:${event.change}:${newId('chg')}`;
  if ('monitor' in event) return `${event.type}:${event.monitor.id}:${event.check.id}`;
  if ('incident' in event) return `${event.type}:${event.incident.id}:${event.incident.updateId}`;
  return `${event.type}:${event.window.id}`;
}
