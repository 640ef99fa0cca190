/**
 * sitemap.xml (sitemaps.org 0.9) of one host: each public page's home, its incident history and
 * every month of it, and every incident's permalink, with `lastmod` taken from the data (never
 * the clock: unchanged data, same bytes).
 */
import { incidentsByMonth } from '../lib/incidents.ts';
import type { OutputSource } from '../view/output-route.ts';
import { latestInstant } from './latest-instant.ts';
import { incidentUpdatedAt, pageUpdatedAt } from './statuspage.ts';
import { xmlElement } from './xml.ts';

export const SITEMAP_CONTENT_TYPE = 'application/xml; charset=utf-8';
/** The protocol's limit for one file. */
const MAX_URLS = 50_000;

export interface SitemapUrl {
  loc: string;
  /** ISO 8601, or null when the data says nothing readable. */
  lastmod: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The addresses of one page, home first, then its history, its months (newest first), its incidents. */
export function pageSitemapUrls(source: OutputSource): SitemapUrl[] {
  const { context, urls } = source;
  const incidents = context.incidents;
  const latestOf = (list: typeof incidents): string | null => iso(latestInstant(list.map(incidentUpdatedAt)));
  return [
    { loc: urls.home, lastmod: pageUpdatedAt(source) },
    { loc: urls.history, lastmod: latestOf(incidents) },
    ...incidentsByMonth(incidents, context.i18n.timeZone).map((group) => ({ loc: urls.month(group.month), lastmod: latestOf(group.incidents) })),
    ...incidents.map((incident) => ({ loc: urls.incident(incident.id), lastmod: incidentUpdatedAt(incident) })),
  ];
}

export function sitemapXml(entries: readonly SitemapUrl[]): string {
  const lines = entries.slice(0, MAX_URLS).map((entry) => {
    const lastmod = entry.lastmod === null ? '' : xmlElement('lastmod', entry.lastmod);
    return `  <url>${xmlElement('loc', entry.loc)}${lastmod}</url>`;
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...lines, '</urlset>', ''].join('\n');
}
