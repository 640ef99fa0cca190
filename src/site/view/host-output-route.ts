/**
 * What the host-level outputs (robots.txt, sitemap.xml) start from: the public pages this host
 * serves, each read at this host's address. The main host serves every public page below its
 * slug; a page's custom domain serves that page alone, at its root. A page that is not public is
 * never among them.
 */
import type { APIContext } from 'astro';
import { siteConfig } from '../running-config.ts';
import { slugBasePath } from './hrefs.ts';
import { buildOutputSource, type OutputSource } from './output-route.ts';
import { publicOrigin } from './public-url.ts';
import { publicPages } from './routing.ts';

export interface HostOutputSource {
  /** The host's own origin and base path, e.g. https://status.example.com or https://status.acme.com/status */
  root: string;
  pages: OutputSource[];
}

/** null when the site has no data (the middleware then answers its 503 before any route). */
export function hostOutputSource(request: Pick<APIContext, 'locals' | 'url'>): HostOutputSource | null {
  const { locals } = request;
  const data = locals.data;
  if (!data) return null;
  const domainPage = locals.domainPage;
  const origin = publicOrigin({ requestUrl: request.url, customDomain: domainPage?.customDomain ?? null, configured: siteConfig().publicUrl });
  const now = new Date();
  const pages = domainPage
    ? [{ page: domainPage, basePath: locals.sitePath }]
    : publicPages(data.snapshot.pages).map((page) => ({ page, basePath: slugBasePath(locals.sitePath, page.slug) }));
  return {
    root: `${origin}${locals.sitePath}`,
    pages: pages.map(({ page, basePath }) => buildOutputSource(data.snapshot, page, { basePath, now, stale: data.stale, origin })),
  };
}
