/**
 * Words and formats of one language in one time zone: catalog texts with their placeholders
 * filled, plurals chosen by `Intl.PluralRules`, numbers, dates and lists formatted by `Intl`.
 * Views get one from the page context; nothing here reads the clock or the process zone.
 */
import type { DurationParts } from '../lib/format-date.ts';
import { parseInstant } from '../lib/time.ts';
import type { Catalog, ParamsOf, PluralCategory, PluralForms, PluralKey, TextKey } from './catalog.ts';
import { DEFAULT_LOCALE, LOCALES, textDirection, type Locale } from './locales.ts';

export const DEFAULT_TIME_ZONE = 'UTC';

export interface Translator {
  locale: Locale;
  /** The locale Intl formats with (English: en-GB). */
  intl: string;
  dir: 'ltr' | 'rtl';
  timeZone: string;
  t<K extends TextKey>(key: K, ...params: keyof ParamsOf<K> extends never ? [] : [ParamsOf<K>]): string;
  /** A text with only some placeholders filled, e.g. to split it around markup (see `around`). */
  partial(key: TextKey, params?: Record<string, string | number>): string;
  plural<K extends PluralKey>(key: K, count: number, params?: Record<string, string | number>): string;
  number(value: number): string;
  /** An uptime percentage (0-100, already floored by the caller), two decimals: "99.95%". */
  percent(value: number): string;
  /** "123 ms" */
  milliseconds(value: number): string;
  /** "22 Nov 2026, 14:05 UTC" in the page's zone, labelled with it; `time.unknown` when unreadable. */
  dateTime(value: unknown): string;
  /** "22 Nov 2026" of a calendar day key 'YYYY-MM-DD' (no zone shift: the key is the day). */
  day(key: string): string;
  /** "November 2026" of a 'YYYY-MM' key. */
  month(key: string): string;
  /** "API, Website and Database" */
  list(items: readonly string[]): string;
  /** "2 h 15 min", "3 d 4 h", "< 1 min": the two largest units of a duration (durationParts). */
  duration(parts: DurationParts | null): string;
}

/** Replaces each `{name}` with its value; numbers formatted for the language. */
export function fill(text: string, params: Record<string, string | number> | undefined, number: (value: number) => string): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? number(value) : value;
  });
}

const MONTH_KEY = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

const cache = new Map<string, Translator>();

/** The translator of a locale and zone (made once per pair: Intl formatters are costly to build). */
export function translator(locale: Locale = DEFAULT_LOCALE, timeZone: string = DEFAULT_TIME_ZONE): Translator {
  const cacheKey = `${locale} ${timeZone}`;
  const known = cache.get(cacheKey);
  if (known) return known;
  const made = makeTranslator(locale, timeZone);
  cache.set(cacheKey, made);
  return made;
}

function makeTranslator(locale: Locale, timeZone: string): Translator {
  const { intl } = LOCALES[locale];
  const catalog: Catalog = LOCALES[locale].catalog;
  const numbers = new Intl.NumberFormat(intl);
  const number = (value: number) => numbers.format(value);
  const percents = new Intl.NumberFormat(intl, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const ms = new Intl.NumberFormat(intl, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 0 });
  const plurals = new Intl.PluralRules(intl);
  const dateTimes = new Intl.DateTimeFormat(intl, {
    day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short',
  });
  // Calendar keys are already days/months: formatted as UTC so no zone moves them.
  const days = new Intl.DateTimeFormat(intl, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const months = new Intl.DateTimeFormat(intl, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const lists = new Intl.ListFormat(intl, { style: 'long', type: 'conjunction' });
  const text = (key: TextKey, params?: Record<string, string | number>) => fill(catalog[key], params, number);

  return {
    locale,
    intl,
    dir: textDirection(locale),
    timeZone,
    t: (key, ...params) => text(key, params[0]),
    partial: text,
    plural(key, count, params) {
      const forms: PluralForms = catalog[key];
      const category = plurals.select(count) as PluralCategory;
      return fill(forms[category] ?? forms.other, { ...params, count }, number);
    },
    number,
    percent: (value) => percents.format(value / 100),
    milliseconds: (value) => ms.format(Math.round(value)),
    dateTime(value) {
      const at = parseInstant(value);
      return at === null ? text('time.unknown') : dateTimes.format(at);
    },
    day(key) {
      const match = DAY_KEY.exec(key);
      const at = match ? parseInstant(`${key}T00:00:00Z`) : null;
      return at === null ? text('time.unknown') : days.format(at);
    },
    month(key) {
      const match = MONTH_KEY.exec(key);
      return match ? months.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : text('time.unknown');
    },
    list: (items) => lists.format(items),
    duration(parts) {
      if (parts === null) return text('duration.unknown');
      if (parts === 'underMinute') return text('duration.underMinute');
      const units = ([['duration.days', parts.days], ['duration.hours', parts.hours], ['duration.minutes', parts.minutes]] as const)
        .filter(([, count]) => count > 0)
        .slice(0, 2)
        .map(([key, count]) => text(key, { count }));
      // Units are consecutive: "3 d 4 h", never "3 d 4 min".
      const [first = text('duration.underMinute'), second] = parts.days > 0 && parts.hours === 0 ? units.slice(0, 1) : units;
      return second === undefined ? first : text('duration.pair', { first, second });
    },
  };
}

/** A text split around one placeholder, for a template that puts markup there (a <time>, a <strong>). */
export function around(text: string, placeholder: string): [string, string] {
  const mark = `{${placeholder}}`;
  const at = text.indexOf(mark);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + mark.length)];
}
