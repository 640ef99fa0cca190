/**
 * What the static exporter (src/export/) asks the site before each export: which public pages
 * there are and where they live, from the very snapshot the pages render, so the export never
 * disagrees with them; and the data version and staleness, so it knows when to export again.
 */
import { z } from 'zod';
import type { Snapshot } from '../data/snapshot.ts';
import { dataVersionOf } from '../data/data-version.ts';
import { pageMonitorIds } from '../lib/page-monitors.ts';
import { findPageByHost, normalizeHost, publicPages } from './routing.ts';

export const EXPORT_INDEX_PATH = '/porchlight-export.json';

export const exportIndexSchema = z.object({
  /** The snapshot's version (data-version.ts): a new one means new data. */
  dataVersion: z.string(),
  /** The pages show the stale notice (the latest refresh failed). */
  stale: z.boolean(),
  /** API requests the site has sent since it started. */
  apiRequests: z.number().int().nonnegative(),
  pages: z.array(
    z.object({
      slug: z.string(),
      /** The custom domain this page is served on (lower-case), or null. */
      customDomain: z.string().nullable(),
      /** Linked monitors (each has a component badge). */
      monitorIds: z.array(z.string()),
    }),
  ),
});

export type ExportIndex = z.infer<typeof exportIndexSchema>;

export function exportIndex(snapshot: Snapshot, options: { stale: boolean; apiRequests: number }): ExportIndex {
  const pages = publicPages(snapshot.pages);
  return {
    dataVersion: dataVersionOf(snapshot.fetchedAt),
    stale: options.stale,
    apiRequests: options.apiRequests,
    pages: pages.map((page) => {
      // A domain two pages claim serves the one routing finds: only that one gets the domain's tree.
      const owns = page.customDomain ? findPageByHost(pages, page.customDomain)?.id === page.id : false;
      return {
        slug: page.slug,
        customDomain: owns ? normalizeHost(page.customDomain) : null,
        monitorIds: [...pageMonitorIds(page.monitors)],
      };
    }),
  };
}
