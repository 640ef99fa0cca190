import { formatDateTime, formatRelative, isoString } from '../lib/format-date.ts';
import type { StaleNotice, TimeView } from './types.ts';

/** A moment for the templates; an unreadable one keeps an empty datetime and fallback words. */
export function timeView(value: unknown, now: Date): TimeView {
  return { iso: isoString(value) ?? '', absolute: formatDateTime(value), relative: formatRelative(value, now) };
}

/** The dated notice shown while the data is the last known state, or null when it is live. */
export function staleNotice(fetchedAt: Date, now: Date, stale: boolean): StaleNotice | null {
  return stale ? { asOf: timeView(fetchedAt, now) } : null;
}
