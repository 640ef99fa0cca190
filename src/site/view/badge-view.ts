/**
 * What the badges say: the page's overall status in the banner's own words, and one linked
 * monitor's health as the page's monitor list words it, each coloured by its status tone.
 */
import { healthTone, levelTone } from '../components/tones.ts';
import { BADGE_TONE_COLORS, type BadgeInput } from '../outputs/badge.ts';
import type { PageContext } from './page-context.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { monitorStatusLabel } from '../lib/overall-status.ts';
import type { OverallView } from './types.ts';

/** Label of the page's own badge (English; a page says it in its default language). */
export const PAGE_BADGE_LABEL = translator().t('badge.label');

export function pageBadge(overall: OverallView, i18n: Translator = translator()): BadgeInput {
  return { label: i18n.t('badge.label'), message: overall.label, color: BADGE_TONE_COLORS[levelTone[overall.level]] };
}

/** The badge of a monitor linked to the page, or null when the page links no such monitor. */
export function componentBadge(context: Pick<PageContext, 'rows' | 'i18n'>, monitorId: string | undefined): BadgeInput | null {
  const row = context.rows.find((item) => item.monitorId === monitorId);
  if (!row) return null;
  return { label: row.label, message: monitorStatusLabel(row.status, context.i18n), color: BADGE_TONE_COLORS[healthTone[row.status]] };
}
