import { parseAtomFeed, parseRssFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { SHIPPED_LOCALES } from '../../../src/site/i18n/locales.ts';
import { translator } from '../../../src/site/i18n/translator.ts';
import { atomFeed } from '../../../src/site/outputs/atom.ts';
import { rssFeed } from '../../../src/site/outputs/rss.ts';
import { buildOutputSource } from '../../../src/site/view/output-route.ts';
import { now, page, snapshot } from '../view/fixtures.ts';

function sourceIn(locale: (typeof SHIPPED_LOCALES)[number]) {
  return buildOutputSource(snapshot(), page(), { basePath: '/acme', now, stale: false, origin: 'https://status.example.com', i18n: translator(locale, 'UTC') });
}

describe('feeds say the language their text is in', () => {
  it.each(SHIPPED_LOCALES)('%s: RSS <language> and Atom xml:lang are the page locale', (locale) => {
    const rss = rssFeed(sourceIn(locale));
    const atom = atomFeed(sourceIn(locale));
    expect(parseRssFeed(rss).language).toBe(locale);
    expect(rss).toContain(`<language>${locale}</language>`);
    expect(atom).toMatch(new RegExp(`^<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${locale}">$`, 'm'));
    // Still a feed a parser reads, with the title in that language.
    expect(parseAtomFeed(atom).title?.value).toBe(translator(locale, 'UTC').t('feed.title', { name: page().name }));
  });

  it('German text is declared German, not the site default', () => {
    expect(rssFeed(sourceIn('de'))).toContain('<language>de</language>');
    expect(rssFeed(sourceIn('en'))).toContain('<language>en</language>');
  });
});
