/**
 * robots.txt of one host: crawlers may read the public pages (and fetch the status card for link
 * previews), but not the widget (a frame for other sites) or the machine-readable JSON; the
 * sitemap is named. Only public pages are ever listed (the caller hands in their roots).
 */
import { PAGE_OUTPUTS } from '../view/page-outputs.ts';

export const ROBOTS_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** What a crawler has no business indexing, relative to a page's root. */
export const ROBOTS_DISALLOWED: readonly string[] = Object.values(PAGE_OUTPUTS).filter((path) => path === PAGE_OUTPUTS.widget || path.endsWith('.json'));

/** `pageRoots`: each listed page's home path, e.g. '/acme/' or '/' (already URL-encoded). */
export function robotsTxt(input: { pageRoots: readonly string[]; sitemapUrl: string }): string {
  const disallowed = input.pageRoots.flatMap((root) => ROBOTS_DISALLOWED.map((path) => `Disallow: ${root}${path}`));
  return ['User-agent: *', ...disallowed, 'Allow: /', '', `Sitemap: ${input.sitemapUrl}`, ''].join('\n');
}
