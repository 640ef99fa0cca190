import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/site/i18n/translator.ts';
import { pageContext } from '../../../src/site/view/page-context.ts';
import { subscribeView } from '../../../src/site/view/subscribe-view.ts';
import { now, page, snapshot } from './fixtures.ts';

describe('subscribeView', () => {
  const context = (basePath: string, rootPath: string, locale: 'en' | 'de' | 'ar') => pageContext(snapshot(), page(), { basePath, rootPath, now, stale: false, i18n: translator(locale) });

  it('every language variant posts to the page one route, naming its language', () => {
    expect(subscribeView(context('/acme/de', '/acme', 'de'), { enabled: true, formOrigin: null })).toMatchObject({ action: '/acme/subscribe', locale: 'de' });
    expect(subscribeView(context('/acme', '/acme', 'en'), { enabled: true, formOrigin: null })).toMatchObject({ action: '/acme/subscribe', locale: 'en' });
    // On the custom domain the page's root is the site's.
    expect(subscribeView(context('/ar', '', 'ar'), { enabled: true, formOrigin: null })).toMatchObject({ action: '/subscribe', locale: 'ar' });
    // A static copy posts to the server, by slug.
    expect(subscribeView(context('/acme/de', '/acme', 'de'), { enabled: true, formOrigin: 'https://status.example.com' })).toMatchObject({ action: 'https://status.example.com/acme/subscribe', locale: 'de' });
  });

  it('is null when subscriptions are off', () => {
    expect(subscribeView(context('/acme', '/acme', 'en'), { enabled: false, formOrigin: null })).toBeNull();
  });
});
