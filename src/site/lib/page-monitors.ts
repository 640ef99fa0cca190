/**
 * The rows of a status page: its linked monitors joined with the monitors list.
 *
 * - Order: sortOrder ascending (links without one go last), then label, then monitor id, so the
 *   order is the same on every render.
 * - Label: the link's displayName, else the monitor's name (from the link, then from the list),
 *   else 'Unnamed service'. Blank strings count as missing.
 * - A link to a monitor missing from the list is still shown, with status 'unknown' (or
 *   'maintenance' when a running window covers it), rather than dropped (hiding a service would
 *   make the page look better than it is) or crashing.
 */
import type { Monitor, PageMonitor } from '../../contract/index.ts';
import { monitorHealth, monitorStatusLabel, type MonitorHealth } from './overall-status.ts';

export type MonitorLike = Pick<Monitor, 'id' | 'name'> &
  Partial<Pick<Monitor, 'currentStatus' | 'lastStatus' | 'active'>>;

export interface PageMonitorRow<M extends MonitorLike> {
  /** Id of the link (unique within the page). */
  linkId: string;
  monitorId: string;
  label: string;
  status: MonitorHealth;
  statusLabel: string;
  /** The monitor from the list; null when the link points at a monitor the list lacks. */
  monitor: M | null;
}

export const UNNAMED_SERVICE = 'Unnamed service';

function nonBlank(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

export function pageMonitorIds(links: readonly Pick<PageMonitor, 'monitorId'>[]): Set<string> {
  return new Set(links.map((link) => link.monitorId));
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function joinPageMonitors<M extends MonitorLike>(
  links: readonly PageMonitor[],
  monitors: readonly M[],
  options: { underMaintenance?: ReadonlySet<string> } = {},
): PageMonitorRow<M>[] {
  const byId = new Map(monitors.map((monitor) => [monitor.id, monitor]));
  const underMaintenance = options.underMaintenance ?? new Set<string>();
  const rows = links.map((link) => {
    const monitor = byId.get(link.monitorId) ?? null;
    const inMaintenance = underMaintenance.has(link.monitorId);
    const status: MonitorHealth = monitor ? monitorHealth(monitor, inMaintenance) : inMaintenance ? 'maintenance' : 'unknown';
    const label = nonBlank(link.displayName) ?? nonBlank(link.monitor?.name) ?? nonBlank(monitor?.name) ?? UNNAMED_SERVICE;
    const sortOrder = typeof link.sortOrder === 'number' && Number.isFinite(link.sortOrder) ? link.sortOrder : Infinity;
    return { row: { linkId: link.id, monitorId: link.monitorId, label, status, statusLabel: monitorStatusLabel(status), monitor }, sortOrder };
  });
  rows.sort((a, b) => {
    if (a.sortOrder !== b.sortOrder) return a.sortOrder < b.sortOrder ? -1 : 1;
    const byLabel = collator.compare(a.row.label, b.row.label);
    if (byLabel !== 0) return byLabel;
    return a.row.monitorId < b.row.monitorId ? -1 : a.row.monitorId > b.row.monitorId ? 1 : 0;
  });
  return rows.map(({ row }) => row);
}
