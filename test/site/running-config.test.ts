import { afterEach, describe, expect, it } from 'vitest';
import { loadLauncherConfig } from '../../src/server/config.ts';
import { provideSiteConfig, siteConfig, siteConfigOf, SiteConfigMissingError, type SiteConfig } from '../../src/site/running-config.ts';

const SLOT = Symbol.for('porchlight.site-config');
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[SLOT];
});

function configOf(env: Record<string, string>): SiteConfig {
  const parsed = loadLauncherConfig(env);
  return siteConfigOf(parsed.site, parsed.languages, { api: { url: 'http://127.0.0.1:4322/api/v1', key: 'sk_test' }, subscriptions: true, subscribeFormOrigin: null, audiences: null });
}

describe("the site's configuration, handed to it as data", () => {
  it('is the parsed settings with what the launcher learnt at start', () => {
    const config = configOf({ SITE_THEME: 'dark', CACHE_FRESH_SECONDS: '45', SITE_PUBLIC_URL: 'https://status.example.com/', SITE_LOCALES: 'en,de' });
    expect(config).toMatchObject({
      apiUrl: 'http://127.0.0.1:4322/api/v1',
      apiKey: 'sk_test',
      theme: 'dark',
      freshSeconds: 45,
      publicUrl: 'https://status.example.com',
      subscriptions: true,
      subscribeFormOrigin: null,
      cardFontFiles: [],
    });
    expect(config.languages.siteLocales).toEqual(['en', 'de']);
    // Plain data: it crosses to the site's thread as workerData unchanged.
    expect(structuredClone(config)).toEqual(config);
  });

  it('is what the run says, whatever the environment claims: internal values are no settings', () => {
    const config = configOf({ SUBSCRIBE_FORM_ORIGIN: 'https://elsewhere.example', STATUS_API_URL: 'https://api.example.com/api/v1', STATUS_API_KEY: 'operator-key' });
    expect(config.subscribeFormOrigin).toBeNull();
    expect(config.apiUrl).toBe('http://127.0.0.1:4322/api/v1');
    expect(config.apiKey).toBe('sk_test');
  });

  it('reaches every copy of the module: the built site carries its own', async () => {
    const config = configOf({});
    provideSiteConfig(config);
    const another = '../../src/site/running-config.ts?another-copy';
    const copy = (await import(/* @vite-ignore */ another)) as typeof import('../../src/site/running-config.ts');
    expect(copy.siteConfig).not.toBe(siteConfig);
    expect(copy.siteConfig()).toBe(config);
  });

  it('is an error to ask for before it is provided', () => {
    expect(() => siteConfig()).toThrow(SiteConfigMissingError);
  });
});
