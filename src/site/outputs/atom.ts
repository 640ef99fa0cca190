/**
 * The page's incidents as an Atom 1.0 feed (RFC 4287). Titles are text; entry content is the
 * shared HTML (feed-entries.ts), escaped once more for XML as `type="html"` requires.
 */
import type { OutputSource } from '../view/output-route.ts';
import { PAGE_OUTPUTS } from '../view/page-outputs.ts';
import { feedData, type FeedEntry } from './feed-entries.ts';
import { xmlAttribute, xmlElement, xmlEmptyElement } from './xml.ts';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** RFC 3339 in UTC. */
const rfc3339 = (ms: number): string => new Date(ms).toISOString();

function atomEntry(entry: FeedEntry): string {
  return [
    '  <entry>',
    `    ${xmlElement('id', entry.id)}`,
    `    ${xmlElement('title', entry.title, { type: 'text' })}`,
    `    ${xmlEmptyElement('link', { rel: 'alternate', type: 'text/html', href: entry.link })}`,
    ...(entry.published === null ? [] : [`    ${xmlElement('published', rfc3339(entry.published))}`]),
    `    ${xmlElement('updated', rfc3339(entry.updated))}`,
    `    ${xmlElement('content', entry.html, { type: 'html' })}`,
    '  </entry>',
  ].join('\n');
}

export function atomFeed(source: OutputSource): string {
  const feed = feedData(source);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlAttribute(feed.language)}">`,
    `  ${xmlElement('id', feed.id)}`,
    `  ${xmlElement('title', feed.title, { type: 'text' })}`,
    `  ${xmlElement('subtitle', feed.description, { type: 'text' })}`,
    `  ${xmlElement('updated', rfc3339(feed.updated))}`,
    `  ${xmlEmptyElement('link', { rel: 'self', type: 'application/atom+xml', href: source.urls.at(PAGE_OUTPUTS.atomFeed) })}`,
    `  ${xmlEmptyElement('link', { rel: 'alternate', type: 'text/html', href: feed.home })}`,
    `  <author>${xmlElement('name', feed.author)}${xmlElement('uri', feed.home)}</author>`,
    `  ${xmlElement('generator', 'Porchlight')}`,
    ...feed.entries.map(atomEntry),
    '</feed>',
    '',
  ].join('\n');
}
