import type { Snapshot } from '../data/snapshot.ts';
import { safeHttpUrl } from '../lib/css.ts';
import { overallView } from './status-page-view.ts';
import { pageContext } from './page-context.ts';
import { publicPages } from './routing.ts';
import { staleNotice, timeView } from './time-view.ts';
import type { IndexPageView } from './types.ts';

/** The site's index on its main host: every public page with its overall status. */
export function indexView(snapshot: Snapshot, options: { now: Date; stale: boolean }): IndexPageView {
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const pages = publicPages(snapshot.pages)
    .map((page) => {
      const basePath = `/${encodeURIComponent(page.slug)}`;
      return { name: page.name, href: basePath, overall: overallView(pageContext(snapshot, page, { ...options, basePath })) };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  return {
    organizationName: snapshot.organization?.name ?? 'Status',
    logoUrl: safeHttpUrl(snapshot.organization?.logo),
    pages,
    generatedAt: timeView(snapshot.fetchedAt, options.now),
    stale: staleNotice(snapshot.fetchedAt, options.now, options.stale),
  };
}
