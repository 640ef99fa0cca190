import { describe, expect, it } from 'vitest';
import { loadLauncherConfig } from '../../src/server/config.ts';
import { ConfigError, languageSettings } from '../../src/site/config.ts';
import { SHIPPED_LOCALES } from '../../src/site/i18n/locales.ts';
import { pageLanguage, timeZonesInUse } from '../../src/site/i18n/settings.ts';

describe('language settings', () => {
  it('default to English and UTC for every page, offering every shipped language', () => {
    const settings = languageSettings(loadLauncherConfig({}).site);
    expect(pageLanguage(settings, 'acme')).toEqual({ locale: 'en', offered: SHIPPED_LOCALES, timeZone: 'UTC' });
  });

  it('read a page default, the offered list (default first) and zones, case-insensitively', () => {
    const settings = languageSettings(loadLauncherConfig({ SITE_LOCALE: 'DE', SITE_LOCALES: 'de, en ,pt-br,ar', PAGE_LOCALES: 'acme=ar, beta=pt-BR', SITE_TIME_ZONE: 'europe/berlin', PAGE_TIME_ZONES: 'acme=Asia/Riyadh' }).site);
    expect(pageLanguage(settings, 'acme')).toEqual({ locale: 'ar', offered: ['ar', 'de', 'en', 'pt-BR'], timeZone: 'Asia/Riyadh' });
    expect(pageLanguage(settings, 'beta')).toEqual({ locale: 'pt-BR', offered: ['pt-BR', 'de', 'en', 'ar'], timeZone: 'Europe/Berlin' });
    expect(pageLanguage(settings, 'other')).toEqual({ locale: 'de', offered: ['de', 'en', 'pt-BR', 'ar'], timeZone: 'Europe/Berlin' });
  });

  it('list every zone a page uses once, for the uptime days to be counted in', () => {
    expect(timeZonesInUse(languageSettings(loadLauncherConfig({}).site))).toEqual(['UTC']);
    const settings = languageSettings(loadLauncherConfig({ SITE_TIME_ZONE: 'Europe/Berlin', PAGE_TIME_ZONES: 'acme=Asia/Tokyo, beta=europe/berlin, gamma=Etc/UTC' }).site);
    expect(timeZonesInUse(settings)).toEqual(['Asia/Tokyo', 'Europe/Berlin', 'UTC']);
  });
});

describe('card fonts', () => {
  it('are absolute paths of existing font files', () => {
    const font = new URL('../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf', import.meta.url).pathname;
    expect(loadLauncherConfig({ CARD_FONT_FILES: ` ${font} ,${font}` }).site.CARD_FONT_FILES).toEqual([font, font]);
    expect(() => loadLauncherConfig({ CARD_FONT_FILES: 'fonts/cjk.ttf' })).toThrow(/^CARD_FONT_FILES must list absolute paths \(fonts\/cjk.ttf is not\)$/);
    expect(() => loadLauncherConfig({ CARD_FONT_FILES: '/etc/passwd' })).toThrow(/^CARD_FONT_FILES must list .ttf, .otf or .ttc files/);
    expect(() => loadLauncherConfig({ CARD_FONT_FILES: '/nowhere/cjk.ttc' })).toThrow(/^CARD_FONT_FILES lists \/nowhere\/cjk.ttc, which is not a file$/);
  });
});

describe('launcher configuration', () => {
  it('has working defaults: the embedded API and the demo', () => {
    const config = loadLauncherConfig({});
    expect(config.launcher).toMatchObject({ PORT: 4321, HOST: '127.0.0.1', API_PORT: 4322, SEED_DEMO: true, PAGE_CACHE_SECONDS: 5 });
    expect(config.site).toMatchObject({ SITE_THEME: 'default', CACHE_FRESH_SECONDS: 30, PUSH_POLL_SECONDS: 300 });
    expect(config.site.STATUS_API_URL).toBeUndefined();
  });

  it('takes a PostgreSQL DATABASE_URL for the subscribers\' store, several hosts included; unset, SQLite', () => {
    expect(loadLauncherConfig({}).launcher.DATABASE_URL).toBeUndefined();
    const url = 'postgresql://porchlight:s3cret@db1:5432,db2:5432/porchlight?target_session_attrs=read-write';
    expect(loadLauncherConfig({ DATABASE_URL: url }).launcher.DATABASE_URL).toBe(url);
  });

  it.each([
    [{ STATUS_API_URL: 'ftp://status.example.com/api/v1', STATUS_API_KEY: 'k' }, /^STATUS_API_URL must be an http\(s\) URL/],
    [{ STATUS_API_URL: 'https://status.example.com/api' , STATUS_API_KEY: 'k' }, /^STATUS_API_URL must end in \/api\/v1$/],
    [{ STATUS_API_URL: 'https://status.example.com/api/v1' }, /^STATUS_API_KEY is required when STATUS_API_URL is set$/],
    [{ PORT: 'eighty' }, /^PORT must be a port number$/],
    [{ PORT: '70000' }, /^PORT must be a port number from 0 to 65535$/],
    [{ SITE_THEME: 'pink' }, /^SITE_THEME must be one of default, dark, high-contrast$/],
    [{ SEED_DEMO: 'maybe' }, /^SEED_DEMO must be true or false$/],
    [{ CACHE_FRESH_SECONDS: '0' }, /^CACHE_FRESH_SECONDS must be at least 1$/],
    [{ CACHE_FRESH_SECONDS: '60', CACHE_MAX_STALE_SECONDS: '30' }, /^CACHE_MAX_STALE_SECONDS must be at least CACHE_FRESH_SECONDS$/],
    [{ PUSH_POLL_SECONDS: '0' }, /^PUSH_POLL_SECONDS must be at least 1$/],
    [{ PUSH_POLL_SECONDS: 'often' }, /^PUSH_POLL_SECONDS must be a whole number of seconds$/],
    [{ METRICS_PORT: 'nine' }, /^METRICS_PORT must be a port number$/],
    [{ METRICS_PORT: '4321' }, /^METRICS_PORT must differ from PORT/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent$/],
    [{ PUSH_UPDATES: 'sometimes' }, /^PUSH_UPDATES must be true or false$/],
    [{ DATABASE_URL: 'mysql://u:hunter2@db/porchlight' }, /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL \(postgres:\/\/user:password@host:5432\/database\)$/],
    [{ DATABASE_URL: 'postgres://u:hunter2@db:99999/porchlight' }, /^DATABASE_URL has a port that is not a number from 1 to 65535$/],
    [{ PUSH_TOKEN: 'too-short' }, /^PUSH_TOKEN must be 32 to 128 letters, digits, - or _$/],
    [{ SITE_LOCALE: 'klingon' }, /^SITE_LOCALE must be one of en, de, fr, es, pt-BR, it, nl, pl, ja, zh-CN, ko, ar, got "klingon"$/],
    [{ SITE_LOCALES: 'en,xx' }, /^SITE_LOCALES names "xx", which is not one of en, de/],
    [{ SITE_LOCALES: ' , ' }, /^SITE_LOCALES must name at least one language$/],
    [{ SITE_LOCALE: 'de', SITE_LOCALES: 'en,fr' }, /^SITE_LOCALES must include SITE_LOCALE \(de\)$/],
    [{ PAGE_LOCALES: 'acme' }, /^PAGE_LOCALES must be slug=value pairs separated by commas, each value one of en, .*; "acme" is not$/],
    [{ PAGE_LOCALES: 'acme=ar', SITE_LOCALES: 'en,de' }, /^PAGE_LOCALES gives acme ar, which SITE_LOCALES does not list$/],
    [{ SITE_TIME_ZONE: 'Mars/Olympus' }, /^SITE_TIME_ZONE must be an IANA time zone such as Europe\/Berlin, got "Mars\/Olympus"$/],
    [{ PAGE_TIME_ZONES: 'acme=Nowhere' }, /^PAGE_TIME_ZONES must be slug=value pairs .* an IANA time zone; "acme=Nowhere" is not$/],
  ])('%j is refused with one line naming the variable', (env, message) => {
    const error = (() => {
      try {
        loadLauncherConfig(env);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('has metrics off, logs at info and push on by default; takes the operational settings', () => {
    const defaults = loadLauncherConfig({}).launcher;
    expect(defaults).toMatchObject({ LOG_LEVEL: 'info', PUSH_UPDATES: true });
    expect(defaults.METRICS_PORT).toBeUndefined();
    expect(defaults.PUSH_TOKEN).toBeUndefined();
    const token = 'A'.repeat(43);
    expect(loadLauncherConfig({ METRICS_PORT: '9464', LOG_LEVEL: 'warn', PUSH_UPDATES: 'false', PUSH_TOKEN: token }).launcher).toMatchObject({ METRICS_PORT: 9464, LOG_LEVEL: 'warn', PUSH_UPDATES: false, PUSH_TOKEN: token });
  });

  it('accepts a trailing slash on the API URL and treats empty variables as unset', () => {
    const config = loadLauncherConfig({ STATUS_API_URL: 'https://status.example.com/api/v1/', STATUS_API_KEY: 'key', PORT: '' });
    expect(config.site.STATUS_API_URL).toBe('https://status.example.com/api/v1');
    expect(config.launcher.PORT).toBe(4321);
  });
});
