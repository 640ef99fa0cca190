import type { Snapshot } from '../data/snapshot.ts';
import { safeLogoUrl } from '../lib/css.ts';
import { overallView } from './status-page-view.ts';
import { pageHrefs, slugBasePath } from './hrefs.ts';
import { pageContext } from './page-context.ts';
import { publicPages } from './routing.ts';
import { staleNotice } from './time-view.ts';
import type { IndexPageView } from './types.ts';
import { translator, type Translator } from '../i18n/translator.ts';

/** The site's index on its main host (below `sitePath`): every public page with its overall status. */
export function indexView(snapshot: Snapshot, options: { now: Date; stale: boolean; sitePath: string; i18n?: Translator }): IndexPageView {
  const i18n = options.i18n ?? translator();
  const collator = new Intl.Collator(i18n.intl, { sensitivity: 'base', numeric: true });
  const pages = publicPages(snapshot.pages)
    .map((page) => {
      const basePath = slugBasePath(options.sitePath, page.slug);
      const context = pageContext(snapshot, page, { now: options.now, stale: options.stale, basePath, i18n });
      return { name: page.name, href: pageHrefs(basePath).home, overall: overallView(context) };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  return {
    organizationName: snapshot.organization?.name ?? i18n.t('index.fallbackName'),
    logoUrl: safeLogoUrl(snapshot.organization?.logo),
    pages,
    stale: staleNotice(snapshot.fetchedAt, options.stale, i18n),
  };
}
