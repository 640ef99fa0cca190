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
  /** The link preview image (og:image): 1200×630 PNG of the page's status. */
  card: 'card.png',
  /** The page's status icon for browser tabs, and its 32 px PNG fallback. */
  favicon: 'favicon.svg',
  faviconPng: 'favicon.png',
} as const;

export type PageOutput = keyof typeof PAGE_OUTPUTS;

/** The badge of one linked monitor (a Statuspage component), relative to the page's root. */
export function componentBadgePath(monitorId: string): string {
  return `components/${encodeURIComponent(monitorId)}/badge.svg`;
}

/**
 * What every host publishes at its root (not below a page): on the main host about all its
 * public pages, on a page's custom domain about that page alone. The middleware leaves these
 * paths where they are on a custom domain instead of moving them below the page.
 */
export const HOST_OUTPUTS = {
  robots: 'robots.txt',
  sitemap: 'sitemap.xml',
} as const;

/** Request paths of the host outputs below the site's base path '' (e.g. '/robots.txt'). */
export const HOST_OUTPUT_PATHS: ReadonlySet<string> = new Set(Object.values(HOST_OUTPUTS).map((name) => `/${name}`));
