/**
 * What the Atom and RSS feeds of a page both say, built once: the page's most recent incidents
 * (lib/incidents.ts latestIncidents, newest first), each with a stable id, its permalink, its
 * dates and its updates as a small piece of HTML. The formats only write this down.
 *
 * Every date comes from the data, never from the clock, so unchanged data gives the same bytes
 * (and the same ETag) on every refresh.
 */
import type { Incident } from '../../contract/index.ts';
import { escapeMarkup } from '../lib/markup.ts';
import { incidentMonitorIds, incidentStatusLabel, latestIncidents, severityLabel, sortedTimeline } from '../lib/incidents.ts';
import { parseInstant } from '../lib/time.ts';
import { affectedServices, type PageContext } from '../view/page-context.ts';
import type { OutputSource } from '../view/output-route.ts';
import { latestInstant } from './latest-instant.ts';
import { idScope, recordUuid } from './stable-id.ts';

export interface FeedEntry {
  /** `urn:uuid:…`, the same on every host. */
  id: string;
  /** Plain text: the incident's title with its status in words. */
  title: string;
  /** The absolute permalink of the incident. */
  link: string;
  /** When the incident started (epoch ms); null when the API's start is unreadable. */
  published: number | null;
  /** Its latest update, resolution or start, whichever is latest (epoch ms). */
  updated: number;
  /** HTML (owner text already escaped for HTML, once); each format escapes it again for XML. */
  html: string;
}

export interface FeedData {
  id: string;
  title: string;
  description: string;
  /** The page's home: the feed's alternate link. */
  home: string;
  author: string;
  /** The latest change the feed shows (epoch ms). */
  updated: number;
  entries: FeedEntry[];
  /** The BCP 47 tag of the language the feed's text is in (RSS `<language>`, Atom `xml:lang`). */
  language: string;
}

/** HTML character data; quotes too, so the same text is also safe in an attribute. */
export const htmlText: (value: string) => string = escapeMarkup;

/** Escaped text with its line breaks kept as <br>. */
function htmlLines(value: string): string {
  return htmlText(value.trim()).replace(/\r\n|\r|\n/g, '<br>');
}


function entryHtml(incident: Incident, context: Pick<PageContext, 'rows' | 'i18n'>): string {
  const { i18n } = context;
  const affected = affectedServices(context, incidentMonitorIds(incident));
  const facts = [
    i18n.t('feed.impact', { severity: severityLabel(incident.severity, i18n) }),
    i18n.t('feed.status', { status: incidentStatusLabel(incident.status, i18n) }),
    ...(affected.length > 0 ? [i18n.t('feed.affected', { names: i18n.list(affected) })] : []),
  ];
  const summary = `<p>${htmlText(facts.join(' '))}</p>`;
  const updates = sortedTimeline(incident.updates).map(
    (update) =>
      `<p><strong>${htmlText(incidentStatusLabel(update.status, i18n))}</strong> · ${htmlText(i18n.dateTime(update.createdAt))}<br>${htmlLines(update.message)}</p>`,
  );
  return [summary, ...updates].join('\n');
}

function feedEntry(incident: Incident, source: OutputSource, scope: string): FeedEntry | null {
  const published = parseInstant(incident.startedAt);
  const updated = latestInstant([incident.startedAt, incident.resolvedAt, incident.updatedAt, ...incident.updates.map((update) => update.createdAt)]);
  // An entry needs one date; an incident with none readable cannot be placed in a feed.
  if (updated === null) return null;
  return {
    id: `urn:uuid:${recordUuid(scope, 'incident', incident.id)}`,
    title: source.context.i18n.t('feed.entryTitle', { title: incident.title, status: incidentStatusLabel(incident.status, source.context.i18n) }),
    link: source.urls.incident(incident.id),
    published,
    updated,
    html: entryHtml(incident, source.context),
  };
}

export function feedData(source: OutputSource): FeedData {
  const { page } = source.context;
  const scope = idScope(source.organization?.id, page.id);
  const entries = latestIncidents(source.context.incidents)
    .map((incident) => feedEntry(incident, source, scope))
    .filter((entry): entry is FeedEntry => entry !== null);
  // The page's own edits (its name, its monitors) change the feed too; with no data at all, the epoch.
  const updated = latestInstant([page.updatedAt, page.createdAt, ...entries.map((entry) => entry.updated)]) ?? 0;
  return {
    id: `urn:uuid:${recordUuid(scope, 'page', page.id)}`,
    title: source.context.i18n.t('feed.title', { name: page.name }),
    description: source.context.i18n.t('feed.description', { name: page.name }),
    home: source.urls.home,
    author: source.organization?.name ?? page.name,
    updated,
    entries,
    language: source.context.i18n.locale,
  };
}
