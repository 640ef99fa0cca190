import type { CheckRecord } from '../store/checks.ts';
import type { IncidentRecord } from '../store/incidents.ts';
import type { MonitorRecord } from '../store/monitors.ts';
import type { Repositories } from '../store/store.ts';
import { severityFor } from './incident-severity.ts';

/**
 * Opens an incident for a monitor that just went down, unless one it opened is still open.
 * Runs inside the check's transaction, after the monitor's health was stored as down.
 */
export async function openAutoIncident(
  store: Repositories,
  organizationId: string,
  monitor: MonitorRecord,
  check: CheckRecord,
  failures: number,
  at: Date,
): Promise<IncidentRecord | null> {
  await store.autoIncidents.releaseResolved(monitor.id);
  if ((await store.autoIncidents.linkedIncident(monitor.id)) !== null) return null;
  const pages = await store.healthCounts.pagesOf(monitor.id);
  const severity = severityFor(pages.length > 0 ? pages : [await store.healthCounts.organization(organizationId)]);
  const reason = check.error ? `: ${check.error}` : '';
  const incident = await store.incidents.insert(
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
  // The link is the claim (see store/auto-incidents.ts): another process that linked one first
  // wins, and this transaction's incident, seen by no one yet, goes again.
  if (!(await store.autoIncidents.claim(monitor.id, incident.id))) {
    await store.incidents.delete(organizationId, incident.id);
    return null;
  }
  return incident;
}

/** Resolves the incident the engine opened for a monitor that recovered, with a timeline update. */
export async function resolveAutoIncident(store: Repositories, organizationId: string, monitor: MonitorRecord, check: CheckRecord, at: Date): Promise<IncidentRecord | null> {
  const linked = await store.autoIncidents.linkedIncident(monitor.id);
  if (!linked) return null;
  // Only the caller that removes the link resolves the incident: a second one changes nothing.
  if (!(await store.autoIncidents.unlink(monitor.id, linked))) return null;
  const incident = await store.incidents.get(organizationId, linked);
  // Someone resolved it by hand already: nothing more to say.
  if (!incident || incident.status === 'resolved') return null;
  return await store.incidents.addUpdate(
    organizationId,
    linked,
    { status: 'resolved', message: `${monitor.name} is up again (check from ${check.region} passed in ${check.latency} ms). Resolved automatically.` },
    at,
  );
}
