import { describe, expect, it } from 'vitest';
import { catalogProblems } from '../../../src/site/i18n/check.ts';
import { en } from '../../../src/site/i18n/messages/en.ts';
import { LOCALES, SHIPPED_LOCALES, textDirection, type Locale } from '../../../src/site/i18n/locales.ts';
import { translator } from '../../../src/site/i18n/translator.ts';

describe('catalogs', () => {
  it('ships the twelve languages of issue 19', () => {
    expect(SHIPPED_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'ja', 'zh-CN', 'ko', 'ar']);
  });

  it.each(SHIPPED_LOCALES)('%s has every English key, no other, the same placeholders and every plural form', (locale) => {
    expect(catalogProblems(locale)).toEqual([]);
  });

  it('names what is wrong, key by key', () => {
    const catalog = LOCALES.de.catalog as Record<string, unknown>;
    const saved = { title: catalog['page.title'], days: catalog['uptime.daysAgo'] };
    try {
      delete catalog['page.title'];
      catalog['uptime.daysAgo'] = { other: 'vor {n} Tagen' };
      catalog['page.extra'] = 'x';
      expect(catalogProblems('de')).toEqual([
        `de: missing key 'page.title' (English: "{name}: {status}")`,
        "de: 'uptime.daysAgo' lacks the plural form 'one' (de uses one, other)",
        "de: 'uptime.daysAgo' (other) has unknown placeholders {n}",
        "de: 'uptime.daysAgo' (other) must show {count}",
        "de: extra key 'page.extra' (not in English: remove or rename it)",
      ]);
    } finally {
      catalog['page.title'] = saved.title;
      catalog['uptime.daysAgo'] = saved.days;
      delete catalog['page.extra'];
    }
  });

  it('translates every status word (no language leaves an English status behind)', () => {
    const statusKeys = Object.keys(en).filter((key) => /^(overall|health|incident|severity|maintenance)\.[a-z_]+$/.test(key)) as (keyof typeof en)[];
    for (const locale of SHIPPED_LOCALES.filter((code) => code !== 'en')) {
      const catalog = LOCALES[locale].catalog as Record<string, unknown>;
      const same = statusKeys.filter((key) => catalog[key] === en[key]);
      expect({ locale, same }).toEqual({ locale, same: [] });
    }
  });
});

describe('translator', () => {
  it('chooses plural forms by the language\'s rules', () => {
    const pl = translator('pl');
    expect([1, 2, 5, 22].map((count) => pl.plural('uptime.dayIncidents', count))).toEqual(['1 incydent', '2 incydenty', '5 incydentów', '22 incydenty']);
    const ar = translator('ar');
    expect([1, 2, 3, 11].map((count) => ar.plural('uptime.dayIncidents', count))).toEqual(['حادث واحد', 'حادثان', '3 حوادث', '11 حادثًا']);
    expect(translator('ja').plural('uptime.dayIncidents', 1)).toBe('インシデント 1 件');
  });

  it('formats dates in the page\'s zone, labelled with it, and numbers for the language', () => {
    expect(translator('en').dateTime('2026-11-22T14:05:00Z')).toBe('22 Nov 2026, 14:05 UTC');
    expect(translator('de', 'Europe/Berlin').dateTime('2026-11-22T14:05:00Z')).toBe('22. Nov. 2026, 15:05 MEZ');
    expect(translator('en', 'America/New_York').dateTime('2026-07-01T12:00:00Z')).toBe('1 Jul 2026, 08:00 GMT-4');
    expect(translator('de').percent(99.95)).toBe('99,95\u00a0%');
    expect(translator('fr').month('2026-11')).toBe('novembre 2026');
    expect(translator('en').list(['API', 'Website', 'Database'])).toBe('API, Website and Database');
  });

  it('fills placeholders and says durations in the language', () => {
    const de = translator('de');
    expect(de.t('page.title', { name: 'Acme', status: de.t('overall.partial_outage') })).toBe('Acme: Teilweiser Ausfall');
    expect(de.duration({ days: 0, hours: 2, minutes: 15 })).toBe('2 Std. 15 Min.');
    expect(translator('en').duration({ days: 3, hours: 0, minutes: 20 })).toBe('3 d');
    expect(translator('ja').duration('underMinute')).toBe('1 分未満');
  });

  it('writes Arabic right to left and every other shipped language left to right', () => {
    const rtl = SHIPPED_LOCALES.filter((locale: Locale) => textDirection(locale) === 'rtl');
    expect(rtl).toEqual(['ar']);
    expect(translator('ar').dir).toBe('rtl');
  });
});
