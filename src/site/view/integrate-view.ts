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
import { translator, type Translator } from '../i18n/translator.ts';

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

/**
 * `rootPath` is the page's root in its default language: the outputs live there once, whatever
 * language the page is read in (see view/languages.ts).
 */
export function integrateView(input: { pageName: string; rootPath: string; urls: PublicUrls; overall: OverallView; i18n?: Translator }): IntegrateView {
  const { pageName, rootPath, urls } = input;
  const i18n = input.i18n ?? translator();
  const href = (path: string) => `${rootPath}/${path}`;
  const badge = pageBadge(input.overall, i18n);
  const layout = badgeLayout(badge);
  const badgeUrl = urls.at(PAGE_OUTPUTS.badge);
  const badgeAlt = i18n.t('integrate.badgeAlt', { name: pageName });
  const { width, height } = WIDGET_SNIPPET_SIZE;
  return {
    alternates: [
      { type: 'application/atom+xml', title: i18n.t('integrate.atomTitle', { name: pageName }), href: href(PAGE_OUTPUTS.atomFeed) },
      { type: 'application/rss+xml', title: i18n.t('integrate.rssTitle', { name: pageName }), href: href(PAGE_OUTPUTS.rssFeed) },
    ],
    links: [
      { label: i18n.t('integrate.atom'), href: href(PAGE_OUTPUTS.atomFeed) },
      { label: i18n.t('integrate.rss'), href: href(PAGE_OUTPUTS.rssFeed) },
      { label: i18n.t('integrate.calendar'), href: href(PAGE_OUTPUTS.maintenanceCalendar) },
      { label: i18n.t('integrate.json'), href: href(PAGE_OUTPUTS.summaryJson) },
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
