/**
 * Health of single monitors and of a whole status page, in words a visitor reads.
 *
 * Per monitor (normalizeMonitorStatus, monitorHealth):
 * - The contract's statuses (up, down, degraded, maintenance, paused, pending) are kept; any other
 *   value, and a missing one, becomes 'unknown'. Matching ignores case and surrounding space.
 * - A monitor affected by a running maintenance window shows 'maintenance' whatever its checks
 *   say (the window is planned downtime); a monitor switched off (active false) shows 'paused'.
 *
 * Whole page (computeOverallStatus), the first rule that holds wins:
 * 1. major_outage: an active critical incident, or every monitor that counts is down (at least
 *    one is). Paused, pending and maintenance monitors do not count; unknown ones do, so that a
 *    major outage is only claimed on evidence.
 * 2. partial_outage: some monitor is down, or an active major incident.
 * 3. degraded: some monitor is degraded, or an active minor incident, or some monitor is
 *    'unknown'. Unknown cannot be vouched for, so it never leaves the page "operational"; its
 *    label says the status is unknown rather than claiming slowness.
 * 4. maintenance: a running window affects a linked monitor (or a monitor shows maintenance), and
 *    nothing above holds: maintenance never hides a worse state.
 * 5. operational otherwise. Paused and pending monitors are left out: the owner switched them off,
 *    or they have not been checked yet. A page with no monitors and no incidents is operational.
 * Incident severities are normalized as in incidents.ts (unknown strings count as major).
 */
import { MONITOR_STATUSES, type MonitorStatus } from '../../contract/index.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { normalizeSeverity } from './incidents.ts';
import { enumReader } from './normalize-enum.ts';

export type MonitorHealth = MonitorStatus | 'unknown';

export type OverallLevel = 'operational' | 'degraded' | 'partial_outage' | 'major_outage' | 'maintenance';

/** Which sentence says the level: its own, or 'unknown' when only unknown monitors lower it. */
export type OverallWording = OverallLevel | 'unknown';

export interface OverallStatus {
  level: OverallLevel;
  wording: OverallWording;
  /** In English; pages say it in their language from `wording`. */
  label: string;
}

export interface OverallStatusInput {
  /** Health of each monitor linked to the page, maintenance already applied (see joinPageMonitors). */
  monitors: readonly { status: unknown }[];
  /** Active incidents of the page (see activeIncidents and incidentsForPage). */
  activeIncidents: readonly { severity: unknown }[];
  /** Running windows that affect a linked monitor (see selectMaintenance). Only their number matters. */
  runningMaintenance: readonly unknown[];
}

export const normalizeMonitorStatus: (value: unknown) => MonitorHealth = enumReader(MONITOR_STATUSES, 'unknown');

/** The health in the translator's language (English by default). */
export function monitorStatusLabel(status: MonitorHealth, i18n: Translator = translator()): string {
  return i18n.t(`health.${status}`);
}

export interface MonitorHealthSource {
  currentStatus?: string | null | undefined;
  lastStatus?: string | null | undefined;
  active?: boolean | undefined;
}

/**
 * What a monitor shows on a page: maintenance first, then paused, then its current status
 * (falling back to the status of its latest check when the current one is missing).
 */
export function monitorHealth(monitor: MonitorHealthSource, underMaintenance: boolean): MonitorHealth {
  if (underMaintenance) return 'maintenance';
  if (monitor.active === false) return 'paused';
  return normalizeMonitorStatus(monitor.currentStatus ?? monitor.lastStatus);
}

function overall(level: OverallLevel, wording: OverallWording = level): OverallStatus {
  return { level, wording, label: overallStatusLabel(wording) };
}

/** The banner's words for a level (or for 'unknown', see rule 3) in the translator's language. */
export function overallStatusLabel(wording: OverallWording, i18n: Translator = translator()): string {
  return i18n.t(`overall.${wording}`);
}

export function computeOverallStatus(input: OverallStatusInput): OverallStatus {
  const counts: Record<MonitorHealth, number> = { up: 0, down: 0, degraded: 0, maintenance: 0, paused: 0, pending: 0, unknown: 0 };
  for (const monitor of input.monitors) counts[normalizeMonitorStatus(monitor.status)] += 1;
  const severities = new Set(input.activeIncidents.map((incident) => normalizeSeverity(incident.severity)));
  const counted = counts.up + counts.down + counts.degraded + counts.unknown;

  if (severities.has('critical') || (counts.down > 0 && counts.down === counted)) return overall('major_outage');
  if (counts.down > 0 || severities.has('major')) return overall('partial_outage');
  if (counts.degraded > 0 || severities.has('minor')) return overall('degraded');
  if (counts.unknown > 0) return overall('degraded', 'unknown');
  if (input.runningMaintenance.length > 0 || counts.maintenance > 0) return overall('maintenance');
  return overall('operational');
}
