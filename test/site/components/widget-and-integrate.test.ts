import { describe, expect, it } from 'vitest';
import IntegrateSection from '../../../src/site/components/IntegrateSection.astro';
import WidgetStatus from '../../../src/site/components/WidgetStatus.astro';
import PageLayout from '../../../src/site/layouts/PageLayout.astro';
import WidgetLayout from '../../../src/site/layouts/WidgetLayout.astro';
import { enhanceScript } from '../../../src/site/scripts/enhance.ts';
import { ownerStyleText } from '../../../src/site/view/branding.ts';
import { integrateView } from '../../../src/site/view/integrate-view.ts';
import { publicUrls } from '../../../src/site/view/public-url.ts';
import type { WidgetView } from '../../../src/site/view/widget-view.ts';
import { branding, overall, time } from './fixtures.ts';
import { count, cspOffenders, render, startTags, text } from './render.ts';

function widget(overrides: Partial<WidgetView> = {}): WidgetView {
  return {
    branding,
    title: 'Acme Status: Partial outage',
    overall: overall('partial_outage'),
    incidents: [{ id: 'i1', title: 'Payments <failing> & "slow"', href: '/acme/incidents/i1/' }],
    moreIncidents: 0,
    homeHref: '/acme',
    stale: null,
    refreshSeconds: 60,
    ...overrides,
  };
}

describe('WidgetStatus', () => {
  it('shows the page name, the status in words and shape, and incident titles escaped once', async () => {
    const html = await render(WidgetStatus, { view: widget() });
    expect(html).toContain(`<h1 class="pl-widget__name">${branding.pageName}</h1>`);
    expect(html).toContain('data-shape="partial-outage"');
    expect(html).toContain('>Partial outage</p>');
    expect(html).toContain('Payments &lt;failing&gt; &amp; &quot;slow&quot;');
    expect(html).not.toContain('&amp;lt;');
    expect(cspOffenders(html)).toEqual([]);
  });

  it('opens every link in the top window, never inside the frame', async () => {
    const html = await render(WidgetStatus, { view: widget() });
    const links = startTags(html).filter((tag) => tag.startsWith('<a '));
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toContain('target="_top"');
    expect(html).toContain('href="/acme"');
    expect(html).toContain('href="/acme/incidents/i1/"');
  });

  it('counts the incidents it does not list, leaves out an empty list, and tells when data is stale', async () => {
    const more = await render(WidgetStatus, { view: widget({ moreIncidents: 2 }) });
    expect(text(more)).toContain('and 2 more active incidents');
    const none = await render(WidgetStatus, { view: widget({ incidents: [] }) });
    expect(none).not.toContain('Active incidents');
    const stale = await render(WidgetStatus, { view: widget({ stale: { asOf: time('2026-11-22T13:00:00Z') } }) });
    expect(text(stale)).toContain('Live data unavailable: status as of 22 Nov 2026, 13:00 UTC');
  });
});

describe('WidgetLayout', () => {
  it('carries the theme, owner CSS, refresh period and the one script, and no page chrome', async () => {
    const html = await render(WidgetLayout, { title: 'Acme Status: Partial outage', theme: 'dark', branding, refreshSeconds: 60, sitePath: '' }, { slots: { default: '<main>x</main>' } });
    expect(html).toMatch(/<html lang="en" dir="ltr" data-intl="en-GB" data-theme="dark" data-refresh="60"/);
    expect(html).toContain(`<style>${ownerStyleText(branding)}</style>`);
    expect(html).toContain(enhanceScript.source);
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).not.toContain('pl-skip-link');
    expect(cspOffenders(html)).toEqual([]);
  });
});

describe('IntegrateSection', () => {
  const view = integrateView({ pageName: 'Acme <Status>', rootPath: '/acme', urls: publicUrls('https://status.example.com', '/acme'), overall: overall('operational') });

  it('links feeds, calendar and JSON, and shows the snippets as text, escaped once, in a disclosure', async () => {
    const html = await render(IntegrateSection, { view });
    expect(html).toContain('<h2 class="pl-section__title" id="integrate-heading">Subscribe / Integrate</h2>');
    for (const href of ['/acme/history.atom', '/acme/history.rss', '/acme/maintenance.ics', '/acme/api/v2/summary.json']) expect(html).toContain(`href="${href}"`);
    expect(html).toMatch(/<details class="pl-integrate__embed"><summary>/);
    expect(html).toContain('&lt;iframe src=&quot;https://status.example.com/acme/widget&quot;');
    expect(html).toContain('title=&quot;Acme &amp;lt;Status&amp;gt; status&quot;');
    expect(count(html, '<iframe')).toBe(0);
    expect(html).toContain('<img class="pl-integrate__badge" src="/acme/badge.svg" alt="status: All systems operational"');
    expect(cspOffenders(html)).toEqual([]);
  });
});

describe('PageLayout alternates', () => {
  it('lists the feeds in the head', async () => {
    const alternates = [{ type: 'application/atom+xml', title: 'Acme "Status" & co (Atom)', href: '/acme/history.atom' }];
    const html = await render(PageLayout, { title: 'x', theme: 'default', branding, stale: null, sitePath: '', alternates }, { slots: { default: '<h1>x</h1>' } });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<link rel="alternate" type="application/atom+xml" title="Acme &quot;Status&quot; &amp; co (Atom)" href="/acme/history.atom">');
  });
});
