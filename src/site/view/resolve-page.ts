/**
 * The status page a route renders, from the request's locals (set by the middleware) and its
 * slug parameter. On a custom domain only that domain's page resolves, and its links have no
 * slug prefix; on the main host any public page resolves by slug. Both sit below the site's
 * base path ('' unless the static exporter asks for one). The page's language is the one its
 * address names, else its default (i18n/settings.ts); an address naming a language the page does
 * not offer, or its default one under a second address, resolves to nothing (a 404).
 */
import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { siteConfig } from '../running-config.ts';
import { pageLanguage, type PageLanguage } from '../i18n/settings.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { slugBasePath } from './hrefs.ts';
import { localeBasePath } from './languages.ts';
import { findPageBySlug } from './routing.ts';
import { withDraft } from '../preview/draft.ts';

export interface ResolvedPage {
  snapshot: Snapshot;
  page: StatusPage;
  /** The root of the page in the language shown: links of the page stay in that language. */
  basePath: string;
  /** The root of the page in its default language, where its feeds, JSON and badges live. */
  rootPath: string;
  language: PageLanguage;
  i18n: Translator;
  stale: boolean;
}

/** Also sets `locals.i18n`, so the layout and components speak the page's language. */
export function resolvePage(locals: App.Locals, slug: string | undefined): ResolvedPage | null {
  const data = locals.data;
  if (!data || !slug) return null;
  let page: StatusPage | null;
  let rootPath: string;
  if (locals.domainPage) {
    page = locals.domainPage.slug === slug ? locals.domainPage : null;
    rootPath = locals.sitePath;
  } else {
    // A non-public page only for its audience's own request (src/site/private/private-access.ts).
    page = findPageBySlug(data.snapshot.pages, slug) ?? (locals.viewerPage?.slug === slug ? locals.viewerPage : null);
    rootPath = page ? slugBasePath(locals.sitePath, page.slug) : '';
  }
  if (!page) return null;
  const language = pageLanguage(siteConfig().languages, page.slug);
  if (locals.preview) {
    // The console's preview: the draft over the live page, in the language it asks for (a
    // right-to-left one whether the page offers it or not), through this same code.
    const i18n = translator(locals.preview.locale, language.timeZone);
    locals.i18n = i18n;
    return { snapshot: data.snapshot, page: withDraft(page, locals.preview.draft), basePath: rootPath, rootPath, language, i18n, stale: data.stale };
  }
  const locale = locals.locale ?? language.locale;
  if (locals.locale !== null && (locals.locale === language.locale || !language.offered.includes(locals.locale))) return null;
  const i18n = translator(locale, language.timeZone);
  locals.i18n = i18n;
  return { snapshot: data.snapshot, page, basePath: localeBasePath(rootPath, language, locale), rootPath, language, i18n, stale: data.stale };
}
