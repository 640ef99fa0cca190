/**
 * The one place that spells a status page's addresses. Directory URLs with a trailing slash, so
 * the same links work on the server and on any static host (where each is a folder with an
 * index.html, see src/export/). `basePath` is the page's root without a trailing slash: `/<slug>`
 * on the main host, '' on the page's custom domain, either behind the site's base path.
 */
export interface PageHrefs {
  home: string;
  history: string;
  month(key: string): string;
  incident(id: string): string;
  /** A monitor's day-by-day uptime (the list behind its 90-day bar), by monitor id like its badge. */
  component(monitorId: string): string;
}

export function pageHrefs(basePath: string): PageHrefs {
  return {
    home: `${basePath}/`,
    history: `${basePath}/history/`,
    month: (key) => `${basePath}/history/${encodeURIComponent(key)}/`,
    incident: (id) => `${basePath}/incidents/${encodeURIComponent(id)}/`,
    component: (monitorId) => `${basePath}/components/${encodeURIComponent(monitorId)}/`,
  };
}

/** A page's root on the main host, below the site's base path ('' or e.g. `/status`). */
export function slugBasePath(sitePath: string, slug: string): string {
  return `${sitePath}/${encodeURIComponent(slug)}`;
}
