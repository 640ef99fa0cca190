/**
 * What a public status page publishes besides its HTML page, by path relative to the page's root
 * (`/<slug>/` on the main host, `/` on the page's custom domain). The routes, the page's own
 * "Subscribe / Integrate" links and the static export all read this one list.
 */
export const PAGE_OUTPUTS = {
  summaryJson: 'api/v2/summary.json',
  statusJson: 'api/v2/status.json',
  componentsJson: 'api/v2/components.json',
  incidentsJson: 'api/v2/incidents.json',
  unresolvedIncidentsJson: 'api/v2/incidents/unresolved.json',
  maintenancesJson: 'api/v2/scheduled-maintenances.json',
  upcomingMaintenancesJson: 'api/v2/scheduled-maintenances/upcoming.json',
  activeMaintenancesJson: 'api/v2/scheduled-maintenances/active.json',
  atomFeed: 'history.atom',
  rssFeed: 'history.rss',
  maintenanceCalendar: 'maintenance.ics',
  badge: 'badge.svg',
  widget: 'widget',
} as const;

export type PageOutput = keyof typeof PAGE_OUTPUTS;

/** The badge of one linked monitor (a Statuspage component), relative to the page's root. */
export function componentBadgePath(monitorId: string): string {
  return `components/${encodeURIComponent(monitorId)}/badge.svg`;
}
