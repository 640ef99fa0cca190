/**
 * The languages Porchlight ships. Adding one is one file in messages/ and one line here (see
 * docs/i18n.md). `segment` is the language's part of a page's address (/acme/pt-br/), `intl` the
 * locale `Intl` formats its dates and numbers with.
 */
import type { Catalog } from './catalog.ts';
import { en } from './messages/en.ts';

export interface LocaleEntry {
  catalog: Catalog;
  /** English keeps day-month-year and a 24-hour clock, as the pages always showed it. */
  intl: string;
}

export const LOCALES = {
  en: { catalog: en, intl: 'en-GB' },
} as const satisfies Record<string, LocaleEntry>;

export type Locale = keyof typeof LOCALES;

export const DEFAULT_LOCALE: Locale = 'en';

export const SHIPPED_LOCALES = Object.keys(LOCALES) as Locale[];

export function isLocale(value: string): value is Locale {
  return Object.hasOwn(LOCALES, value);
}

/** The shipped locale a setting names, matched case-insensitively ('pt-br' is 'pt-BR'); null if none. */
export function findLocale(value: string): Locale | null {
  const wanted = value.trim().toLowerCase();
  return SHIPPED_LOCALES.find((locale) => locale.toLowerCase() === wanted) ?? null;
}

/** The locale's path segment: lower case, e.g. 'pt-br'. */
export function localeSegment(locale: Locale): string {
  return locale.toLowerCase();
}

/** The locale a path segment names, or null. */
export function localeOfSegment(segment: string): Locale | null {
  return SHIPPED_LOCALES.find((locale) => localeSegment(locale) === segment) ?? null;
}

/** Writing direction, from the locale's own data in Intl (Arabic: rtl). */
export function textDirection(locale: Locale): 'ltr' | 'rtl' {
  const info = new Intl.Locale(locale) as Intl.Locale & { getTextInfo?: () => { direction?: string }; textInfo?: { direction?: string } };
  const direction = info.getTextInfo?.().direction ?? info.textInfo?.direction;
  return direction === 'rtl' ? 'rtl' : 'ltr';
}
