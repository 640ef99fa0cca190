import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import PageLayout from '../../../src/site/layouts/PageLayout.astro';
import { enhanceScript } from '../../../src/site/scripts/enhance.ts';
import { sha256Source } from '../../../src/site/security/csp.ts';
import { ownerStyleText } from '../../../src/site/view/branding.ts';
import { branding, time } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

const base = { title: 'Acme Status', theme: 'default', branding, stale: null, sitePath: '' };
const slots = { default: '<h1 class="pl-page-title">Acme Status</h1>' };

describe('PageLayout', () => {
  it('sets the theme and language on <html> and lays out the landmarks in order', async () => {
    const html = await render(PageLayout, { ...base, theme: 'high-contrast' }, { slots });
    expect(html).toMatch(/<html lang="en" dir="ltr" data-intl="en-GB" data-theme="high-contrast"/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('<title>Acme Status</title>');
    const order = ['class="pl-skip-link" href="#main"', '<header class="pl-header"', '<main id="main"', '<h1', '<footer class="pl-footer"'].map((marker) => html.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(cspOffenders(html)).toEqual([]);
  });

  it('carries its Content-Security-Policy in a <meta> too, allowing exactly its script and owner style (a static copy keeps it)', async () => {
    const html = await render(PageLayout, base, { slots });
    const policy = /<meta http-equiv="content-security-policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src ${enhanceScript.hash}`);
    expect(policy).toContain(sha256Source(ownerStyleText(branding)!));
    expect(policy).not.toContain('frame-ancestors');
    expect(policy).not.toContain('unsafe-inline');
    expect(html.indexOf('content-security-policy')).toBeLessThan(html.indexOf('<style'));
  });

  it('only says "dark" for the dark theme', async () => {
    const html = await render(PageLayout, { ...base, theme: 'dark' }, { slots });
    expect(html).toContain('<meta name="color-scheme" content="dark">');
  });

  it('emits the owner header, footer and CSS exactly as given, the CSS in one <style> (the text routes hash)', async () => {
    const html = await render(PageLayout, base, { slots });
    expect(html).toContain(`<div class="pl-owner-header">${branding.headerHtml}</div>`);
    expect(html).toContain(`<div class="pl-owner-footer">${branding.footerHtml}</div>`);
    const owner = `:root{${branding.brandCss}}\n${branding.customCss}`;
    expect(ownerStyleText(branding)).toBe(owner);
    expect(html).toContain(`<style>${owner}</style>`);
    // The site's stylesheet, then the owner's: the owner's rules come last and win.
    expect(count(html, '<style')).toBe(2);
    expect(html.indexOf(`<style>${owner}</style>`)).toBeGreaterThan(html.indexOf('<style>'));
  });

  it('has no owner <style> and no owner HTML without branding, and names the site instead', async () => {
    const html = await render(PageLayout, { ...base, branding: null, siteName: 'Acme Cloud' }, { slots });
    // Only the site's own stylesheet.
    expect(count(html, '<style')).toBe(1);
    expect(html).not.toContain('pl-owner-');
    expect(text(html)).toContain('Acme Cloud');
  });

  it('shows the logo as a plain <img> with alt, width and height, never through /_image', async () => {
    const html = await render(PageLayout, base, { slots });
    expect(html).toMatch(/<img class="pl-header__logo" src="https:\/\/cdn\.example\.com\/acme-logo\.png" alt="Acme" width="\d+" height="\d+"/);
    expect(html).not.toContain('/_image');
  });

  it('makes the logo decorative when its alt only repeats the name printed beside it', async () => {
    const html = await render(PageLayout, { ...base, branding: { ...branding, logoAlt: 'Acme Status logo' } }, { slots });
    // Astro writes an empty attribute as a bare `alt`, which HTML parses as alt="".
    expect(html).toMatch(/<img class="pl-header__logo" src="[^"]+" alt(="")? width/);
  });

  it('shows the stale banner only when the data is stale', async () => {
    const fresh = await render(PageLayout, base, { slots });
    expect(fresh).not.toContain('pl-stale');
    expect(text(fresh)).not.toContain('Live data unavailable');

    const asOf = time('2026-11-22T13:00:00Z');
    const stale = await render(PageLayout, { ...base, stale: { asOf } }, { slots });
    expect(stale).toMatch(/<div class="pl-stale" role="status"/);
    expect(text(stale)).toContain('Live data unavailable — showing status as of 22 Nov 2026, 13:00 UTC');
    expect(stale).toContain('datetime="2026-11-22T13:00:00.000Z"');
  });

  it('inlines exactly the hashed enhancement script, once, and a refresh slot only when asked', async () => {
    const html = await render(PageLayout, { ...base, refreshSeconds: 60 }, { slots });
    expect(count(html, '<script')).toBe(1);
    expect(html).toContain(`<script>${enhanceScript.source}</script>`);
    expect(html).toContain('data-refresh="60"');
    expect(html).toMatch(/<div class="pl-refresh" data-refresh-slot hidden/);

    const still = await render(PageLayout, base, { slots });
    expect(still).toMatch(/<html lang="en" dir="ltr" data-intl="en-GB" data-theme="default">/);
    expect(still).not.toContain('data-refresh-slot hidden');
  });

  it('says what powers it, and no time of rendering (the same data must give the same bytes)', async () => {
    const html = await render(PageLayout, base, { slots });
    expect(text(html)).toContain('Powered by Porchlight');
    expect(html).not.toContain('<time');
  });

  it('writes the site stylesheet into the head, allowed by its hash, and links the home below the site path', async () => {
    const root = await render(PageLayout, { ...base, branding: null }, { slots });
    // No second, render-blocking request: the stylesheet is in the document.
    expect(count(root, '<link rel="stylesheet"')).toBe(0);
    const style = /<style>([\s\S]*?)<\/style>/.exec(root);
    expect(style).not.toBeNull();
    const hash = createHash('sha256').update(style![1]!, 'utf8').digest('base64');
    expect(root).toMatch(new RegExp(`<meta http-equiv="content-security-policy" content="[^"]*style-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
    expect(root).toContain('class="pl-header__home" href="/"');
    const below = await render(PageLayout, { ...base, branding: null, sitePath: '/status' }, { slots });
    expect(below).toContain('class="pl-header__home" href="/status/"');
  });

  it('draws a logo given by its path on the site below the site path, from the visitor\'s own host', async () => {
    const html = await render(PageLayout, { ...base, branding: { ...base.branding!, logoUrl: '/demo/acme-logo.svg' }, sitePath: '/status' }, { slots });
    expect(html).toMatch(/<img class="pl-header__logo" src="\/status\/demo\/acme-logo\.svg"/);
  });
});
