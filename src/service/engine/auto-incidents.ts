import type { CheckRecord } from '../store/checks.ts';
import type { IncidentRecord } from '../store/incidents.ts';
import type { MonitorRecord } from '../store/monitors.ts';
import type { Store } from '../store/store.ts';
import { severityFor } from './incident-severity.ts';

/**
 * Opens an incident for a monitor that just went down, unless one it opened is still open.
 * Runs inside the check's transaction, after the monitor's health was stored as down.
 */
export function openAutoIncident(
  store: Store,
  organizationId: string,
  monitor: MonitorRecord,
  check: CheckRecord,
  failures: number,
  at: Date,
): IncidentRecord | null {
  const linked = store.autoIncidents.linkedIncident(monitor.id);
  if (linked && store.incidents.get(organizationId, linked)?.status !== 'resolved') return null;
  const pages = store.healthCounts.pagesOf(monitor.id);
  const severity = severityFor(pages.length > 0 ? pages : [store.healthCounts.organization(organizationId)]);
  const reason = check.error ? `: ${check.error}` : '';
  const incident = store.incidents.insert(
    organizationId,
    {
      title: `${monitor.name} is down`,
      status: 'investigating',
      severity,
      message: `${monitor.name} failed ${failures} consecutive checks (latest from ${check.region}${reason}). This incident was opened automatically.`,
      monitorIds: [monitor.id],
    },
    at,
  );
  store.autoIncidents.link(monitor.id, incident.id);
  return incident;
}

/** Resolves the incident the engine opened for a monitor that recovered, with a timeline update. */
export function resolveAutoIncident(store: Store, organizationId: string, monitor: MonitorRecord, check: CheckRecord, at: Date): IncidentRecord | null {
  const linked = store.autoIncidents.linkedIncident(monitor.id);
  if (!linked) return null;
  store.autoIncidents.unlink(monitor.id);
  const incident = store.incidents.get(organizationId, linked);
  // Someone resolved it by hand already: nothing more to say.
  if (!incident || incident.status === 'resolved') return null;
  return store.incidents.addUpdate(
    organizationId,
    linked,
    { status: 'resolved', message: `${monitor.name} is up again (check from ${check.region} passed in ${check.latency} ms). Resolved automatically.` },
    at,
  );
}
