/**
 * The page's incidents as an RSS 2.0 feed. Items carry the same stable ids as the Atom entries
 * (as `guid isPermaLink="false"`, since they are URNs) and the same HTML description, escaped
 * once more for XML. Dates are RFC 822 in GMT, as RSS requires.
 */
import type { OutputSource } from '../view/output-route.ts';
import { PAGE_OUTPUTS } from '../view/page-outputs.ts';
import { feedData, type FeedEntry } from './feed-entries.ts';
import { xmlElement, xmlEmptyElement } from './xml.ts';

export const RSS_CONTENT_TYPE = 'application/rss+xml; charset=utf-8';

/** "Sun, 22 Nov 2026 14:05:00 GMT": RFC 822 with a four-digit year, which RSS 2.0 allows. */
export const rfc822 = (ms: number): string => new Date(ms).toUTCString();

function rssItem(entry: FeedEntry): string {
  return [
    '    <item>',
    `      ${xmlElement('title', entry.title)}`,
    `      ${xmlElement('link', entry.link)}`,
    `      ${xmlElement('guid', entry.id, { isPermaLink: 'false' })}`,
    ...(entry.published === null ? [] : [`      ${xmlElement('pubDate', rfc822(entry.published))}`]),
    `      ${xmlElement('description', entry.html)}`,
    '    </item>',
  ].join('\n');
}

export function rssFeed(source: OutputSource): string {
  const feed = feedData(source);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    ${xmlElement('title', feed.title)}`,
    `    ${xmlElement('link', feed.home)}`,
    `    ${xmlElement('description', feed.description)}`,
    `    ${xmlElement('language', feed.language)}`,
    `    ${xmlElement('lastBuildDate', rfc822(feed.updated))}`,
    `    ${xmlEmptyElement('atom:link', { href: source.urls.at(PAGE_OUTPUTS.rssFeed), rel: 'self', type: 'application/rss+xml' })}`,
    `    ${xmlElement('generator', 'Porchlight')}`,
    ...feed.entries.map(rssItem),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
