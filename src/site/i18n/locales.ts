/**
 * The languages Porchlight ships. Adding one is one file in messages/ and one line here (see
 * docs/i18n.md). `segment` is the language's part of a page's address (/acme/pt-br/), `intl` the
 * locale `Intl` formats its dates and numbers with.
 */
import type { Catalog } from './catalog.ts';
import { ar } from './messages/ar.ts';
import { de } from './messages/de.ts';
import { en } from './messages/en.ts';
import { es } from './messages/es.ts';
import { fr } from './messages/fr.ts';
import { it } from './messages/it.ts';
import { ja } from './messages/ja.ts';
import { ko } from './messages/ko.ts';
import { nl } from './messages/nl.ts';
import { pl } from './messages/pl.ts';
import { ptBR } from './messages/pt-BR.ts';
import { zhCN } from './messages/zh-CN.ts';

export interface LocaleEntry {
  catalog: Catalog;
  /** English keeps day-month-year and a 24-hour clock, as the pages always showed it. */
  intl: string;
}

export const LOCALES = {
  en: { catalog: en, intl: 'en-GB' },
  de: { catalog: de, intl: 'de' },
  fr: { catalog: fr, intl: 'fr' },
  es: { catalog: es, intl: 'es' },
  'pt-BR': { catalog: ptBR, intl: 'pt-BR' },
  it: { catalog: it, intl: 'it' },
  nl: { catalog: nl, intl: 'nl' },
  pl: { catalog: pl, intl: 'pl' },
  ja: { catalog: ja, intl: 'ja' },
  'zh-CN': { catalog: zhCN, intl: 'zh-CN' },
  ko: { catalog: ko, intl: 'ko' },
  ar: { catalog: ar, intl: 'ar' },
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
