import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { badgeLayout } from '../../../src/site/outputs/badge.ts';
import { integrateView } from '../../../src/site/view/integrate-view.ts';
import { publicUrls } from '../../../src/site/view/public-url.ts';

const overall = { level: 'partial_outage', label: 'Partial outage' } as const;
const main = { pageName: 'Acme Status', rootPath: '/acme', urls: publicUrls('https://status.example.com', '/acme'), overall };
const domain = { pageName: 'Acme Status', rootPath: '', urls: publicUrls('https://status.acme.test', ''), overall };

/** The first element named `tag` of an HTML snippet, as a browser would read it. */
function element(html: string, tag: string) {
  const found = new DOMParser().parseFromString(html, 'text/html').getElementsByTagName(tag)[0];
  if (!found) throw new Error(`no <${tag}> in ${html}`);
  return found;
}

/** What CommonMark makes of backslash escapes in plain text. */
const unescapeMarkdown = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('integrateView', () => {
  it('links the feeds, calendar and JSON relative to the page, in the head and in the section', () => {
    const view = integrateView(main);
    expect(view.alternates).toEqual([
      { type: 'application/atom+xml', title: 'Acme Status incidents (Atom)', href: '/acme/history.atom' },
      { type: 'application/rss+xml', title: 'Acme Status incidents (RSS)', href: '/acme/history.rss' },
    ]);
    expect(view.links.map((link) => link.href)).toEqual(['/acme/history.atom', '/acme/history.rss', '/acme/maintenance.ics', '/acme/api/v2/summary.json']);
    expect(view.widget.href).toBe('/acme/widget');
    expect(view.badge.src).toBe('/acme/badge.svg');
  });

  it('has no slug prefix on a custom domain', () => {
    const view = integrateView(domain);
    expect(view.alternates.map((link) => link.href)).toEqual(['/history.atom', '/history.rss']);
    expect(view.links[2]?.href).toBe('/maintenance.ics');
    expect(view.badge.src).toBe('/badge.svg');
  });

  it('writes the snippets with absolute URLs', () => {
    const view = integrateView(main);
    expect(view.badge.markdown).toBe('[![Acme Status status](https://status.example.com/acme/badge.svg)](https://status.example.com/acme/)');
    expect(view.badge.html).toBe('<a href="https://status.example.com/acme/"><img src="https://status.example.com/acme/badge.svg" alt="Acme Status status" height="20"></a>');
    expect(element(view.widget.html, 'iframe').getAttribute('src')).toBe('https://status.example.com/acme/widget');
    expect(element(integrateView(domain).widget.html, 'iframe').getAttribute('src')).toBe('https://status.acme.test/widget');
    expect(element(integrateView(domain).badge.html, 'a').getAttribute('href')).toBe('https://status.acme.test/');
  });

  it('previews the badge at its real size, named by what it says now', () => {
    const view = integrateView(main);
    const layout = badgeLayout({ label: 'status', message: 'Partial outage' });
    expect(view.badge).toMatchObject({ alt: 'status: Partial outage', width: layout.width, height: 20 });
  });

  it('escapes a hostile page name once, for each snippet’s own format', () => {
    const name = `Evil "Co" <script>alert(1)</script> & ]]> [x](javascript:alert(1)) 'q'`;
    const view = integrateView({ ...main, pageName: name });
    expect(element(view.badge.html, 'img').getAttribute('alt')).toBe(`${name} status`);
    expect(element(view.widget.html, 'iframe').getAttribute('title')).toBe(`${name} status`);
    expect(view.widget.html).not.toContain('<script');
    const alt = /^\[!\[(.*)\]\(https:\/\/status\.example\.com\/acme\/badge\.svg\)\]\(https:\/\/status\.example\.com\/acme\/\)$/.exec(view.badge.markdown)?.[1];
    expect(alt).toBeDefined();
    // No bracket, parenthesis or angle bracket is left unescaped to end the alt text or open a link or tag.
    expect(alt!.replace(/\\[!-/:-@[-`{-~]/g, '')).not.toMatch(/[[\]()<>&]/);
    expect(unescapeMarkdown(alt!)).toBe(`${name} status`);
  });

  it('keeps characters that would end a Markdown link out of its URLs', () => {
    const view = integrateView({ ...main, rootPath: '/a(b)', urls: publicUrls('https://status.example.com', '/a(b)') });
    expect(view.badge.markdown).toContain('(https://status.example.com/a%28b%29/badge.svg)');
  });
});
