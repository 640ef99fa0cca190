/**
 * The status page's "Subscribe / Integrate" section and its <head> alternates: links to the
 * feeds, the calendar and the Statuspage JSON (relative, like every link of the page), and the
 * badge and widget snippets people paste elsewhere (absolute, from the page's public URLs).
 */
import { escapeMarkdownText, escapeMarkup, markdownUrl } from '../lib/markup.ts';
import { badgeLayout } from '../outputs/badge.ts';
import { pageBadge } from './badge-view.ts';
import { PAGE_OUTPUTS } from './page-outputs.ts';
import type { PublicUrls } from './public-url.ts';
import type { OverallView } from './types.ts';

export interface AlternateLink {
  type: string;
  title: string;
  href: string;
}

export interface IntegrateLink {
  label: string;
  href: string;
}

export interface IntegrateView {
  /** Feeds for the document head: `<link rel="alternate">`. */
  alternates: AlternateLink[];
  /** Feeds, calendar and JSON. */
  links: IntegrateLink[];
  badge: {
    /** Preview of the page's badge as it is now. */
    src: string;
    alt: string;
    width: number;
    height: number;
    markdown: string;
    html: string;
  };
  widget: { href: string; html: string };
}

/** Size of the widget in the snippet; it reads well from 300×150 up to 600×400. */
export const WIDGET_SNIPPET_SIZE = { width: 360, height: 200 } as const;

export function integrateView(input: { pageName: string; basePath: string; urls: PublicUrls; overall: OverallView }): IntegrateView {
  const { pageName, basePath, urls } = input;
  const href = (path: string) => `${basePath}/${path}`;
  const badge = pageBadge(input.overall);
  const layout = badgeLayout(badge);
  const badgeUrl = urls.at(PAGE_OUTPUTS.badge);
  const badgeAlt = `${pageName} status`;
  const { width, height } = WIDGET_SNIPPET_SIZE;
  return {
    alternates: [
      { type: 'application/atom+xml', title: `${pageName} incidents (Atom)`, href: href(PAGE_OUTPUTS.atomFeed) },
      { type: 'application/rss+xml', title: `${pageName} incidents (RSS)`, href: href(PAGE_OUTPUTS.rssFeed) },
    ],
    links: [
      { label: 'Atom feed', href: href(PAGE_OUTPUTS.atomFeed) },
      { label: 'RSS feed', href: href(PAGE_OUTPUTS.rssFeed) },
      { label: 'Maintenance calendar (iCalendar)', href: href(PAGE_OUTPUTS.maintenanceCalendar) },
      { label: 'Status JSON (Statuspage API v2)', href: href(PAGE_OUTPUTS.summaryJson) },
    ],
    badge: {
      src: href(PAGE_OUTPUTS.badge),
      alt: layout.title,
      width: layout.width,
      height: layout.height,
      markdown: `[![${escapeMarkdownText(badgeAlt)}](${markdownUrl(badgeUrl)})](${markdownUrl(urls.home)})`,
      html: `<a href="${escapeMarkup(urls.home)}"><img src="${escapeMarkup(badgeUrl)}" alt="${escapeMarkup(badgeAlt)}" height="${layout.height}"></a>`,
    },
    widget: {
      href: href(PAGE_OUTPUTS.widget),
      html: `<iframe src="${escapeMarkup(urls.at(PAGE_OUTPUTS.widget))}" title="${escapeMarkup(badgeAlt)}" width="${width}" height="${height}" style="border:0" loading="lazy"></iframe>`,
    },
  };
}
