/**
 * A page's languages as addresses: the default language at the page's root (/acme/), every
 * other offered one below a segment of its own (/acme/de/, /acme/de/history/2026-11/,
 * /acme/de/incidents/42/; on a custom domain /de/…). Only the HTML pages have language
 * variants; feeds, calendar, JSON, badges and the widget live once, at the root, in the page's
 * default language. Each address always answers the same language: the browser's preference
 * is only ever a suggestion (enhance.js), so caches need no Vary.
 */
import { localeOfSegment, localeSegment, LOCALES, type Locale } from '../i18n/locales.ts';
import type { PageLanguage } from '../i18n/settings.ts';

/** Path segments after a page's root that have language variants: its home, history, incidents and systems' days. */
const LOCALIZED_ROUTES = new Set(['', 'history', 'incidents', 'components']);

/** The page's root for one of its languages: the root itself for the default. */
export function localeBasePath(rootPath: string, language: Pick<PageLanguage, 'locale'>, locale: Locale): string {
  return locale === language.locale ? rootPath : `${rootPath}/${localeSegment(locale)}`;
}

/**
 * Splits a path below a page's root ('de/history/2026-11/') into the language it names and the
 * rest ('history/2026-11/'); null when it names no shipped language or a route without variants.
 */
export function splitLocalePath(rest: string): { locale: Locale; rest: string } | null {
  const [segment = '', next = '', ...others] = rest.split('/');
  const locale = localeOfSegment(segment);
  // Only pages have variants: files such as components/<id>/badge.svg live once, at the root.
  if (!locale || !LOCALIZED_ROUTES.has(next) || /\.[a-z]+$/i.test(rest)) return null;
  return { locale, rest: [next, ...others].join('/') };
}

export interface LanguageLink {
  locale: Locale;
  /** The language's own name for itself. */
  name: string;
  /** "This page is also available in …", in that language (enhance.js may show it). */
  suggest: string;
  href: string;
  current: boolean;
}

/** The same page in each offered language; `subPath` is the address below the page's root ('' for home). */
export function languageLinks(rootPath: string, language: PageLanguage, current: Locale, subPath: string): LanguageLink[] {
  return language.offered.map((locale) => ({
    locale,
    name: LOCALES[locale].catalog['language.name'],
    suggest: LOCALES[locale].catalog['language.suggest'],
    href: `${localeBasePath(rootPath, language, locale)}/${subPath}`,
    current: locale === current,
  }));
}
