import { formatDateTime, formatRelative, isoString } from '../lib/format-date.ts';
import type { TimeView } from './types.ts';

/** A moment for the templates; an unreadable one keeps an empty datetime and fallback words. */
export function timeView(value: unknown, now: Date): TimeView {
  return { iso: isoString(value) ?? '', absolute: formatDateTime(value), relative: formatRelative(value, now) };
}
