/**
 * What the status card and the favicon show, from the same page context as the HTML page: the
 * banner's overall status, the open incidents the page lists, and when the data last changed
 * (Statuspage's page.updated_at rule, never the clock, so unchanged data gives the same image).
 */
import { levelTone, type StatusTone } from '../components/tones.ts';
import { formatDateTime } from '../lib/format-date.ts';
import type { CardInput } from '../outputs/card.ts';
import { pageUpdatedAt } from '../outputs/statuspage.ts';
import type { OutputSource } from './output-route.ts';
import { overallView } from './status-page-view.ts';

export function cardView(source: OutputSource): CardInput {
  const { context } = source;
  const overall = overallView(context);
  return {
    pageName: context.branding.pageName,
    brandColor: context.page.brandColor,
    tone: levelTone[overall.level],
    statusLabel: overall.label,
    activeTitles: context.active.map((incident) => incident.title),
    updated: formatDateTime(pageUpdatedAt(source)),
    staleAsOf: context.stale?.asOf.absolute ?? null,
  };
}

/** The tone of the page's overall status: the favicon's colour and shape. */
export function pageTone(source: OutputSource): StatusTone {
  return levelTone[overallView(source.context).level];
}
