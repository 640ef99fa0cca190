import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../../src/site/outputs/robots.ts';
import { pageSitemapUrls, sitemapXml } from '../../../src/site/outputs/sitemap.ts';
import { incident, snapshot } from '../view/fixtures.ts';
import { outputFor } from './fixtures.ts';
import { parseXml } from './xml.ts';

describe('sitemap.xml', () => {
  const data = snapshot({
    incidents: [
      incident('i1', { startedAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-21T09:00:00.000Z' }),
      incident('i2', { status: 'resolved', startedAt: '2026-10-03T10:00:00.000Z', resolvedAt: '2026-10-03T12:00:00.000Z', updatedAt: '2026-10-03T12:00:00.000Z' }),
    ],
  });

  it("lists the page's home, history, months and incidents, with lastmod from the data", () => {
    const urls = pageSitemapUrls(outputFor(data));
    expect(urls.map((url) => url.loc)).toEqual([
      'https://status.example.com/acme/',
      'https://status.example.com/acme/history/',
      'https://status.example.com/acme/history/2026-11/',
      'https://status.example.com/acme/history/2026-10/',
      'https://status.example.com/acme/incidents/i1/',
      'https://status.example.com/acme/incidents/i2/',
    ]);
    expect(urls.slice(1).map((url) => url.lastmod)).toEqual([
      '2026-11-21T09:00:00.000Z',
      '2026-11-21T09:00:00.000Z',
      '2026-10-03T12:00:00.000Z',
      '2026-11-21T09:00:00.000Z',
      '2026-10-03T12:00:00.000Z',
    ]);
  });

  it('is the same bytes whenever it is read from the same data', () => {
    const later = outputFor(data, { at: new Date('2027-01-01T00:00:00.000Z') });
    expect(sitemapXml(pageSitemapUrls(later))).toBe(sitemapXml(pageSitemapUrls(outputFor(data))));
  });

  it('is well-formed sitemaps.org XML with addresses escaped once', () => {
    const xml = sitemapXml([{ loc: 'https://x.test/a?b=1&c=<2>', lastmod: null }]);
    const document = parseXml(xml);
    expect(document.documentElement?.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(document.getElementsByTagName('loc')[0]?.textContent).toBe('https://x.test/a?b=1&c=<2>');
    expect(document.getElementsByTagName('lastmod')).toHaveLength(0);
  });
});

describe('robots.txt', () => {
  it('keeps crawlers off the widget and the JSON of each page, and names the sitemap', () => {
    const text = robotsTxt({ pageRoots: ['/acme/'], sitemapUrl: 'https://status.example.com/sitemap.xml' });
    const lines = text.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Disallow: /acme/widget');
    expect(lines).toContain('Disallow: /acme/api/v2/summary.json');
    expect(lines.filter((line) => line.startsWith('Disallow:')).every((line) => line.startsWith('Disallow: /acme/'))).toBe(true);
    // The card must stay fetchable: link previews obey robots.txt.
    expect(lines.some((line) => /card\.png|badge|favicon|history|\/acme\/incidents\//.test(line))).toBe(false);
    expect(lines).toContain('Allow: /');
    expect(lines).toContain('Sitemap: https://status.example.com/sitemap.xml');
  });
});
