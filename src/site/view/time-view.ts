import { isoString } from '../lib/format-date.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import type { StaleNotice, TimeView } from './types.ts';

/**
 * A moment for the templates: the instant and its UTC words, never words relative to the render
 * ("5 minutes ago"), which would turn false while the page sits in a cache or on a static host;
 * enhance.js adds those in the visitor's browser. An unreadable moment keeps an empty datetime
 * and fallback words.
 */
export function timeView(value: unknown, i18n: Translator = translator()): TimeView {
  return { iso: isoString(value) ?? '', absolute: i18n.dateTime(value) };
}

/**
 * The dated notice shown while the data is the last known state, or null when it is live. The
 * only place a page states its data time: a visitor needs it exactly then.
 */
export function staleNotice(fetchedAt: Date, stale: boolean, i18n: Translator = translator()): StaleNotice | null {
  return stale ? { asOf: timeView(fetchedAt, i18n) } : null;
}
