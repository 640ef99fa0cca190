/**
 * Where the preview meets the public code: every route finds its page through resolvePage, and a
 * preview's draft is laid over the live page there, so each template's own view model carries it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLauncherConfig } from '../../../src/server/config.ts';
import { provideSiteConfig, siteConfigOf } from '../../../src/site/running-config.ts';
import { translator } from '../../../src/site/i18n/translator.ts';
import { resolvePage } from '../../../src/site/view/resolve-page.ts';
import { statusPageView } from '../../../src/site/view/status-page-view.ts';
import { now, snapshot } from '../view/fixtures.ts';

const SLOT = Symbol.for('porchlight.site-config');

beforeEach(() => {
  const parsed = loadLauncherConfig({});
  provideSiteConfig(siteConfigOf(parsed.site, parsed.languages, { api: { url: 'http://127.0.0.1:4322/api/v1', key: 'sk_test' }, subscriptions: false, subscribeFormOrigin: null, audiences: null }));
});
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[SLOT];
});

function locals(preview: App.Locals['preview']): App.Locals {
  return {
    data: { snapshot: snapshot(), stale: false } as unknown as App.Locals['data'],
    unavailable: null,
    domainPage: null,
    cspStyles: [],
    formOrigin: null,
    frameAncestors: 'none',
    sitePath: '',
    exporting: false,
    locale: null,
    preview,
    viewerPage: null,
    viewerControls: null,
    privateView: false,
    i18n: translator(),
  };
}

describe('a preview resolves the live page with the draft over it', () => {
  it('visitors get the page as published', () => {
    const resolved = resolvePage(locals(null), 'acme');
    expect(resolved?.page).toEqual(snapshot().pages.find((page) => page.slug === 'acme'));
    expect(resolved?.i18n.locale).toBe('en');
  });

  it('the preview gets the draft, in the language it asks for, through the same view code', () => {
    const resolved = resolvePage(locals({ draft: { customCss: '.draft{}', brandColor: '#0B6E4F', headerText: '<p onclick="x">Draft</p>' }, theme: 'dark', locale: 'ar' }), 'acme');
    expect(resolved?.page).toMatchObject({ customCss: '.draft{}', brandColor: '#0b6e4f', headerText: '<p onclick="x">Draft</p>' });
    expect(resolved?.i18n.dir).toBe('rtl');
    const view = statusPageView(resolved!.snapshot, resolved!.page, { basePath: resolved!.basePath, now, stale: false, i18n: resolved!.i18n });
    // The public page's own sanitizing and embedding apply to the draft.
    expect(view.branding).toMatchObject({ customCss: '.draft{}', brandCss: '--pl-brand: #0b6e4f; --pl-on-brand: #ffffff;', headerHtml: '<p>Draft</p>' });
  });

  it('a page the data does not show publicly stays unresolved, draft or not', () => {
    expect(resolvePage(locals({ draft: {}, theme: 'default', locale: 'en' }), 'internal')).toBeNull();
  });
});
