import { describe, expect, it } from 'vitest';
import { pageLanguage, DEFAULT_LANGUAGE_SETTINGS } from '../../../src/site/i18n/settings.ts';
import { languageLinks, localeBasePath, splitLocalePath } from '../../../src/site/view/languages.ts';
import { statusDescription } from '../../../src/site/view/share-view.ts';
import { translator } from '../../../src/site/i18n/translator.ts';

describe('language addresses', () => {
  it('read a language segment before the routes that have variants, and nothing else', () => {
    expect(splitLocalePath('de/')).toEqual({ locale: 'de', rest: '' });
    expect(splitLocalePath('de')).toEqual({ locale: 'de', rest: '' });
    expect(splitLocalePath('pt-br/history/2026-11/')).toEqual({ locale: 'pt-BR', rest: 'history/2026-11/' });
    expect(splitLocalePath('zh-cn/incidents/42/')).toEqual({ locale: 'zh-CN', rest: 'incidents/42/' });
    // Outputs live once, at the page's root; upper case and unknown codes are not languages.
    expect(splitLocalePath('de/history.atom')).toBeNull();
    expect(splitLocalePath('de/badge.svg')).toBeNull();
    expect(splitLocalePath('pt-BR/')).toBeNull();
    expect(splitLocalePath('xx/')).toBeNull();
    expect(splitLocalePath('history/2026-11/')).toBeNull();
  });

  it('give the default language the page root and every other its segment, on any root', () => {
    const language = pageLanguage({ ...DEFAULT_LANGUAGE_SETTINGS, siteLocales: ['en', 'ar', 'de'], pageLocales: new Map([['acme', 'ar']]) }, 'acme');
    expect(localeBasePath('/acme', language, 'ar')).toBe('/acme');
    expect(localeBasePath('', language, 'de')).toBe('/de');
    expect(languageLinks('/status/acme', language, 'de', 'incidents/42/').map(({ locale, href, current }) => [locale, href, current])).toEqual([
      ['ar', '/status/acme/incidents/42/', false],
      ['en', '/status/acme/en/incidents/42/', false],
      ['de', '/status/acme/de/incidents/42/', true],
    ]);
  });
});

describe('link previews in the page language', () => {
  it('say the status sentence and the open incidents in it', () => {
    const overall = { level: 'partial_outage' as const, label: 'Teilweiser Ausfall' };
    expect(statusDescription('Acme', overall, [{ title: 'API langsam' }], translator('de'))).toBe('Aktueller Status von Acme: Teilweiser Ausfall. Aktuelle Störung: API langsam.');
  });
});
