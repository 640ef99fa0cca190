/**
 * What the badges say: the page's overall status in the banner's own words, and one linked
 * monitor's health as the page's monitor list words it, each coloured by its status tone.
 */
import { healthTone, levelTone } from '../components/tones.ts';
import { BADGE_TONE_COLORS, type BadgeInput } from '../outputs/badge.ts';
import type { PageContext } from './page-context.ts';
import type { OverallView } from './types.ts';

/** Label of the page's own badge. */
export const PAGE_BADGE_LABEL = 'status';

export function pageBadge(overall: OverallView): BadgeInput {
  return { label: PAGE_BADGE_LABEL, message: overall.label, color: BADGE_TONE_COLORS[levelTone[overall.level]] };
}

/** The badge of a monitor linked to the page, or null when the page links no such monitor. */
export function componentBadge(context: Pick<PageContext, 'rows'>, monitorId: string | undefined): BadgeInput | null {
  const row = context.rows.find((item) => item.monitorId === monitorId);
  if (!row) return null;
  return { label: row.label, message: row.statusLabel, color: BADGE_TONE_COLORS[healthTone[row.status]] };
}
