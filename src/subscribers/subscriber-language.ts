/**
 * Which language a subscriber is spoken to in: the one of the page variant they subscribed from
 * (posted with the form, kept with the subscriber), as long as the page still offers it; else the
 * page's default language. A posted or linked value is only ever a choice among the offered ones.
 */
import { findLocale, type Locale, type PageLanguage } from '../site/public.ts';

/** The first of `candidates` (stored, posted or linked locale codes) that the page offers, else its default. */
export function chooseLocale(language: PageLanguage, ...candidates: readonly (string | null | undefined)[]): Locale {
  for (const candidate of candidates) {
    const locale = candidate && candidate.length <= 16 ? findLocale(candidate) : null;
    if (locale && language.offered.includes(locale)) return locale;
  }
  return language.locale;
}
