import { describe, expect, it } from 'vitest';
import HistoryMonth from '../../../src/site/components/HistoryMonth.astro';
import NotFound from '../../../src/site/components/NotFound.astro';
import PageIndexList from '../../../src/site/components/PageIndexList.astro';
import { activeIncident, overall, resolvedIncident } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

const month = { key: '2026-11', label: 'November 2026' };

describe('HistoryMonth', () => {
  it('lists the month newest first with newer/older links in a labelled nav', async () => {
    const html = await render(HistoryMonth, {
      month,
      incidents: [activeIncident, resolvedIncident],
      newer: { key: '2026-12', label: 'December 2026', href: '/acme/history/2026-12' },
      older: { key: '2026-10', label: 'October 2026', href: '/acme/history/2026-10' },
    });
    const words = text(html);
    expect(words.indexOf('Database connection errors')).toBeLessThan(words.indexOf('Slow image loading'));
    expect(html).toMatch(/<nav class="pl-pager" aria-label="Incident history by month">/);
    expect(html).toMatch(/href="\/acme\/history\/2026-12" rel="prev">[\s\S]*Newer: December 2026/);
    expect(html).toMatch(/href="\/acme\/history\/2026-10" rel="next">Older: October 2026/);
    expect(cspOffenders(html)).toEqual([]);
  });

  it('says a quiet month was quiet, and has no nav without neighbours', async () => {
    const html = await render(HistoryMonth, { month, incidents: [], newer: null, older: null });
    expect(text(html)).toContain('No incidents in November 2026.');
    expect(html).not.toContain('<nav');
  });
});

describe('PageIndexList', () => {
  it('links each page and tells its status in words with a shape', async () => {
    const html = await render(PageIndexList, {
      pages: [
        { name: 'Acme Status', href: '/acme', overall: overall('operational') },
        { name: 'Beta', href: '/beta', overall: overall('major_outage') },
      ],
    });
    expect(html).toContain('<a class="pl-page-index__link" href="/acme">Acme Status</a>');
    expect(text(html)).toContain('Status: Major outage');
    expect(count(html, 'data-shape=')).toBe(2);
  });

  it('says when there are no pages', async () => {
    expect(text(await render(PageIndexList, { pages: [] }))).toBe('There are no public status pages yet.');
  });
});

describe('NotFound', () => {
  it('has the one h1 and a way home', async () => {
    const html = await render(NotFound, { homeHref: '/acme' });
    expect(count(html, '<h1')).toBe(1);
    expect(html).toContain('href="/acme"');
  });
});
