/**
 * The status page a route renders, from the request's locals (set by the middleware) and its
 * slug parameter. On a custom domain only that domain's page resolves, and its links have no
 * slug prefix; on the main host any public page resolves by slug. Both sit below the site's
 * base path ('' unless the static exporter asks for one).
 */
import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { slugBasePath } from './hrefs.ts';
import { findPageBySlug } from './routing.ts';

export interface ResolvedPage {
  snapshot: Snapshot;
  page: StatusPage;
  basePath: string;
  stale: boolean;
}

export function resolvePage(locals: App.Locals, slug: string | undefined): ResolvedPage | null {
  const data = locals.data;
  if (!data || !slug) return null;
  if (locals.domainPage) {
    return locals.domainPage.slug === slug ? { snapshot: data.snapshot, page: locals.domainPage, basePath: locals.sitePath, stale: data.stale } : null;
  }
  const page = findPageBySlug(data.snapshot.pages, slug);
  return page ? { snapshot: data.snapshot, page, basePath: slugBasePath(locals.sitePath, page.slug), stale: data.stale } : null;
}
