/**
 * Who chooses a page's language and time zone: SITE_LOCALE and SITE_TIME_ZONE for every page,
 * PAGE_LOCALES and PAGE_TIME_ZONES (`slug=value,…`) per page (the API has no such fields), and
 * SITE_LOCALES, the languages visitors may switch to. Parsed once with the rest of the config.
 */
import { z } from 'zod';
import { DEFAULT_TIME_ZONE } from './translator.ts';
import { DEFAULT_LOCALE, findLocale, SHIPPED_LOCALES, type Locale } from './locales.ts';

export interface LanguageSettings {
  siteLocale: Locale;
  /** Offered to visitors, in the order the setting lists them. */
  siteLocales: readonly Locale[];
  pageLocales: ReadonlyMap<string, Locale>;
  siteTimeZone: string;
  pageTimeZones: ReadonlyMap<string, string>;
}

/** What a page speaks: its default language (at its root address), every offered one, and its zone. */
export interface PageLanguage {
  locale: Locale;
  /** The default first, then the others in SITE_LOCALES order. */
  offered: readonly Locale[];
  timeZone: string;
}

export const DEFAULT_LANGUAGE_SETTINGS: LanguageSettings = {
  siteLocale: DEFAULT_LOCALE,
  siteLocales: SHIPPED_LOCALES,
  pageLocales: new Map(),
  siteTimeZone: DEFAULT_TIME_ZONE,
  pageTimeZones: new Map(),
};

export function pageLanguage(settings: LanguageSettings, slug: string): PageLanguage {
  const locale = settings.pageLocales.get(slug) ?? settings.siteLocale;
  return {
    locale,
    offered: [locale, ...settings.siteLocales.filter((other) => other !== locale)],
    timeZone: settings.pageTimeZones.get(slug) ?? settings.siteTimeZone,
  };
}

/** Every zone some page speaks (the site's and each page's), sorted: the uptime bars count their days. */
export function timeZonesInUse(settings: LanguageSettings): string[] {
  return [...new Set([settings.siteTimeZone, ...settings.pageTimeZones.values()])].sort();
}

const SHIPPED = `one of ${SHIPPED_LOCALES.join(', ')}`;

/** The canonical IANA name of a zone ('utc' -> 'UTC'), or null when Intl does not know it. */
export function canonicalTimeZone(value: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const localeSetting = z.string().transform((value, ctx) => {
  const locale = findLocale(value);
  if (!locale) ctx.addIssue({ code: 'custom', message: `must be ${SHIPPED}, got "${value}"` });
  return locale ?? DEFAULT_LOCALE;
});

export const localeListSetting = z.string().transform((value, ctx) => {
  const locales: Locale[] = [];
  for (const item of value.split(',').map((part) => part.trim()).filter(Boolean)) {
    const locale = findLocale(item);
    if (!locale) ctx.addIssue({ code: 'custom', message: `names "${item}", which is not ${SHIPPED}` });
    else if (!locales.includes(locale)) locales.push(locale);
  }
  if (locales.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one language' });
  return locales;
});

export const timeZoneSetting = z.string().transform((value, ctx) => {
  const zone = canonicalTimeZone(value);
  if (!zone) ctx.addIssue({ code: 'custom', message: `must be an IANA time zone such as Europe/Berlin, got "${value}"` });
  return zone ?? DEFAULT_TIME_ZONE;
});

/** `slug=value,slug=value`, each value read by `read` (null: not valid, with `what` it must be). */
function slugMap<T>(read: (value: string) => T | null, what: string) {
  return z.string().transform((text, ctx) => {
    const map = new Map<string, T>();
    for (const pair of text.split(',').map((part) => part.trim()).filter(Boolean)) {
      const at = pair.indexOf('=');
      const slug = at > 0 ? pair.slice(0, at).trim() : '';
      const value = at > 0 ? read(pair.slice(at + 1)) : null;
      if (!slug || value === null) {
        ctx.addIssue({ code: 'custom', message: `must be slug=value pairs separated by commas, each value ${what}; "${pair}" is not` });
        continue;
      }
      map.set(slug, value);
    }
    return map;
  });
}

export const pageLocalesSetting = slugMap(findLocale, SHIPPED);
export const pageTimeZonesSetting = slugMap(canonicalTimeZone, 'an IANA time zone');
