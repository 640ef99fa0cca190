/**
 * How the site's model reads in Atlassian Statuspage's public API v2 vocabulary. The same rules
 * as the HTML page, only other words (docs/site.md, "The same status as Statuspage JSON"):
 *
 * - Monitor health -> component status. Unknown is degraded_performance, as the overall rule
 *   counts it as degraded. Paused and pending are operational because the overall rule leaves
 *   them out; the component's description keeps the honest words ("Paused").
 * - Overall level -> status indicator; the description is the HTML banner's label.
 * - Severity -> impact, and incident status, 1:1 (both normalized as in incidents.ts).
 * - Maintenance phase -> scheduled maintenance status. Cancelled windows have no Statuspage
 *   state, and lapsed or unknown ones are not shown on the page either: those are left out (null).
 */
import type { IncidentSeverity, IncidentStatus } from '../../contract/index.ts';
import { normalizeIncidentStatus, normalizeSeverity } from './incidents.ts';
import type { MaintenancePhase } from './maintenance.ts';
import type { MonitorHealth, OverallLevel } from './overall-status.ts';

export type ComponentStatus = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';
export type StatusIndicator = 'none' | 'minor' | 'major' | 'critical' | 'maintenance';
export type IncidentImpact = IncidentSeverity;
export type MaintenanceStatus = 'scheduled' | 'in_progress' | 'completed';

const COMPONENT_STATUS: Record<MonitorHealth, ComponentStatus> = {
  up: 'operational',
  degraded: 'degraded_performance',
  down: 'major_outage',
  maintenance: 'under_maintenance',
  unknown: 'degraded_performance',
  paused: 'operational',
  pending: 'operational',
};

const INDICATOR: Record<OverallLevel, StatusIndicator> = {
  operational: 'none',
  degraded: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
  maintenance: 'maintenance',
};

const MAINTENANCE_STATUS: Record<MaintenancePhase, MaintenanceStatus | null> = {
  upcoming: 'scheduled',
  running: 'in_progress',
  completed: 'completed',
  cancelled: null,
  lapsed: null,
  unknown: null,
};

export function componentStatus(health: MonitorHealth): ComponentStatus {
  return COMPONENT_STATUS[health];
}

export function statusIndicator(level: OverallLevel): StatusIndicator {
  return INDICATOR[level];
}

export function incidentImpact(severity: unknown): IncidentImpact {
  return normalizeSeverity(severity);
}

export function incidentStatus(status: unknown): IncidentStatus {
  return normalizeIncidentStatus(status);
}

/** null: the window is left out of every Statuspage document. */
export function maintenanceStatus(phase: MaintenancePhase): MaintenanceStatus | null {
  return MAINTENANCE_STATUS[phase];
}
