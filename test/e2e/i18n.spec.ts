/**
 * Every shipped language of the demo page, read in Chromium from a real Porchlight: the `lang`
 * and `dir` of each, no English interface text left on a non-English page, hreflang links that
 * answer 200 in the language they name, the switcher without JavaScript, axe, the page weight;
 * and a page whose default is Arabic (PAGE_LOCALES=acme=ar): right to left, its uptime bar read
 * from oldest to newest in reading direction, its feeds, calendar, widget and badges in Arabic
 * and still read by the same consumers, and screenshots at 375 and 1280 px; and a page in a zone
 * whose date is not UTC's (PAGE_TIME_ZONES), whose uptime days end on that zone's date.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';
import { parseAtomFeed } from 'feedsmith';
import ICAL from 'ical.js';
import { en } from '../../src/site/i18n/messages/en.ts';
import { LOCALES, localeSegment, SHIPPED_LOCALES, textDirection, type Locale } from '../../src/site/i18n/locales.ts';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { translator } from '../../src/site/i18n/translator.ts';
import { apiFor } from './support/api.ts';
import { runExport } from './support/export-process.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { screenshotWholePage } from './support/full-page.ts';
import { WCAG_AA } from './support/axe-tags.ts';


/** English interface texts long enough not to occur by chance in owner text, by key. */
const ENGLISH_TEXTS: [string, string][] = Object.entries(en).flatMap(([key, value]) =>
  // language.*: each language's name and suggestion are in that language on every page, by design.
  typeof value === 'string' && !value.includes('{') && value.length >= 10 && !key.startsWith('language.') ? [[key, value] as [string, string]] : [],
);

/** Interface texts a language writes as English does (e.g. "Powered by Porchlight" in Japanese). */
function englishLeftIn(locale: Locale, text: string): string[] {
  const catalog = LOCALES[locale].catalog as Record<string, unknown>;
  return ENGLISH_TEXTS.filter(([key, english]) => catalog[key] !== english && text.includes(english)).map(([key, english]) => `${key}: ${english}`);
}

/**
 * A zone whose calendar date differs from UTC's right now: 14 hours ahead from 10:00 UTC on
 * (Kiritimati), 12 hours behind before noon UTC; a test near a boundary still sees the difference.
 */
const FAR_ZONE = new Date().getUTCHours() >= 12 ? 'Pacific/Kiritimati' : 'Etc/GMT+12';

const test = base.extend<{ baseURL: string }, { porchlight: PorchlightProcess; arabic: PorchlightProcess; zoned: PorchlightProcess }>({
  porchlight: [async ({}, use) => { const running = await startPorchlightProcess(); await use(running); await running.stop(); }, { scope: 'worker' }],
  arabic: [async ({}, use) => { const running = await startPorchlightProcess({ PAGE_LOCALES: 'acme=ar', SITE_TIME_ZONE: 'Asia/Riyadh' }); await use(running); await running.stop(); }, { scope: 'worker' }],
  zoned: [async ({}, use) => { const running = await startPorchlightProcess({ PAGE_TIME_ZONES: `acme=${FAR_ZONE}` }); await use(running); await running.stop(); }, { scope: 'worker' }],
  baseURL: async ({ porchlight }, use) => { await use(porchlight.siteUrl); },
});

const home = (locale: Locale) => (locale === 'en' ? '/acme/' : `/acme/${localeSegment(locale)}/`);

test.describe('every shipped language of the demo page', () => {
  test('has its lang and dir, no English interface text, and hreflang links that answer in the language they name', async ({ page, request }) => {
    test.setTimeout(120_000);
    for (const locale of SHIPPED_LOCALES) {
      const response = await page.goto(home(locale));
      expect(response?.status(), locale).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.locator('html')).toHaveAttribute('dir', textDirection(locale));
      if (locale !== 'en') {
        const text = await page.locator('body').innerText();
        const attributes = await page.locator('[aria-label], [title], img[alt]').evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('aria-label') ?? ''} ${node.getAttribute('title') ?? ''} ${node.getAttribute('alt') ?? ''}`).join('\n'));
        expect(englishLeftIn(locale, `${text}\n${attributes}\n${await page.title()}`), locale).toEqual([]);
        await expect(page.locator('.pl-banner__label')).toHaveText(LOCALES[locale].catalog['overall.partial_outage']);
      }
      const hrefs = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((links) => links.map((link) => [link.getAttribute('hreflang'), link.getAttribute('href')] as const));
      expect(hrefs.map(([lang]) => lang)).toEqual([...SHIPPED_LOCALES, 'x-default']);
      if (locale === 'en' || locale === 'ar') {
        for (const [lang, href] of hrefs) {
          const answer = await request.get(href!);
          expect(answer.status(), `${lang} ${href}`).toBe(200);
          expect(/<html lang="([^"]+)"/.exec(await answer.text())?.[1], href!).toBe(lang === 'x-default' ? 'en' : lang);
        }
      }
      // One address, one language: the browser's preference never changes the bytes (no Vary).
      const german = await request.get(home(locale), { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
      expect(german.headers()['vary'] ?? '').not.toMatch(/accept-language/i);
      expect(/<html lang="([^"]+)"/.exec(await german.text())?.[1]).toBe(locale);
    }
  });

  test('stays under 110 KB of HTML in every language', async ({ request }) => {
    const sizes = await Promise.all(SHIPPED_LOCALES.map(async (locale) => [locale, (await (await request.get(home(locale), { headers: { 'accept-encoding': 'identity' } })).body()).length] as const));
    expect(sizes.filter(([, size]) => size > 110 * 1024)).toEqual([]);
  });

  test('is axe-clean in every language', async ({ page }) => {
    test.setTimeout(300_000);
    for (const locale of SHIPPED_LOCALES) {
      await page.goto(home(locale));
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(results.violations.map((violation) => `${locale}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
    }
  });

  test('the incident and history pages have their language variants, and unknown or duplicate ones are 404', async ({ page, request, porchlight }) => {
    const api = apiFor(porchlight);
    const [incident] = (await api.incidents.list()).data;
    await api.close();
    await page.goto(`/acme/ja/incidents/${incident!.id}/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('.pl-breadcrumb a').first()).toHaveAttribute('href', '/acme/ja/');
    await page.goto('/acme/fr/history/');
    await expect(page.locator('h1')).toHaveText('Historique des incidents');
    expect((await request.get('/acme/en/')).status()).toBe(404);
    expect((await request.get('/acme/xx/')).status()).toBe(404);
    expect((await request.get('/acme/de/history.atom')).status()).toBe(404);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('every language still has no English interface text, and dates and numbers written for it in the page zone', async ({ page }) => {
      test.setTimeout(120_000);
      for (const locale of SHIPPED_LOCALES) {
        await page.goto(home(locale));
        await expect(page.locator('html')).toHaveAttribute('dir', textDirection(locale));
        if (locale !== 'en') expect(englishLeftIn(locale, await page.locator('body').innerText()), locale).toEqual([]);
        const time = page.locator('main time').first();
        const words = translator(locale).dateTime(await time.getAttribute('datetime'));
        expect(words, locale).toMatch(/UTC/);
        await expect(time, locale).toHaveText(words);
        const uptime = await page.locator('.pl-monitor__uptime strong').first().innerText();
        expect(uptime, locale).toBe(new Intl.NumberFormat(LOCALES[locale].intl, { style: 'percent', minimumFractionDigits: 2 }).format(Number.parseFloat(uptime.replace(/[^\d,.]/g, '').replace(',', '.')) / 100));
      }
    });

    test('the switcher changes language by plain links, and times stay in the page zone, labelled', async ({ page }) => {
      await page.goto('/acme/');
      // Folded under the current language's name, the other names are not laid out until opened.
      await expect(page.locator('.pl-languages summary')).toHaveText('English');
      await expect(page.locator('.pl-languages a[hreflang="de"]')).toBeHidden();
      await page.locator('.pl-languages summary').click();
      await page.locator('.pl-languages a[hreflang="de"]').click();
      await expect(page).toHaveURL(/\/acme\/de\/$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page.locator('.pl-languages a[aria-current="true"]')).toHaveText('Deutsch');
      await expect(page.locator('time').first()).toHaveText(/UTC$/);
    });
  });

  test('the browser language only suggests its page, in that language', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: 'ko-KR' });
    const page = await context.newPage();
    await page.goto('/acme/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const suggestion = page.locator('.pl-suggest a');
    await expect(suggestion).toHaveText(LOCALES.ko.catalog['language.suggest']);
    await expect(suggestion).toHaveAttribute('href', '/acme/ko/');
    await page.goto('/acme/ko/');
    await expect(page.locator('.pl-suggest')).toHaveCount(0);
    await context.close();
  });
});

test.describe('a page whose default language is Arabic', () => {
  test('reads right to left: the bar runs from oldest to newest in reading direction', async ({ page, arabic }) => {
    await page.goto(`${arabic.siteUrl}/acme/`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    // The drawing runs oldest to newest along x; right to left it is mirrored, under its legend.
    const drawing = page.locator('.pl-uptime__bar svg').first();
    expect(await drawing.evaluate((svg) => getComputedStyle(svg).transform)).toMatch(/^matrix\(-1, 0, 0, 1,/);
    const oldest = await page.locator('.pl-uptime__start:visible').first().boundingBox();
    const today = page.locator('.pl-uptime__end').first();
    await expect(today).toHaveText('اليوم');
    expect(oldest!.x).toBeGreaterThan((await today.boundingBox())!.x);
  });

  for (const width of [375, 1280]) {
    test(`screenshots of the page, an incident and the history at ${width} px`, async ({ page, arabic }, testInfo) => {
      const api = apiFor(arabic);
      const [incident] = (await api.incidents.list()).data;
      await api.close();
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of [['page', '/acme/'], ['incident', `/acme/incidents/${incident!.id}/`], ['history', '/acme/history/']] as const) {
        await page.goto(`${arabic.siteUrl}${path}`);
        const shot = testInfo.outputPath(`rtl-${name}-${width}.png`);
        if (name === 'page') await page.screenshot({ path: shot });
        else await screenshotWholePage(page, shot);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
      }
    });
  }

  test('its feeds, calendar, widget and badges speak Arabic and parse as before', async ({ page, request, arabic }) => {
    const atom = parseAtomFeed(await (await request.get(`${arabic.siteUrl}/acme/history.atom`)).text());
    expect(atom.title?.value).toBe('سجل حالة Acme Cloud Status');
    expect(atom.entries?.length).toBeGreaterThan(0);
    const calendar = new ICAL.Component(ICAL.parse(await (await request.get(`${arabic.siteUrl}/acme/maintenance.ics`)).text()));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('صيانة Acme Cloud Status');
    const badge = await (await request.get(`${arabic.siteUrl}/acme/badge.svg`)).text();
    expect(badge).toMatch(/aria-label="الحالة: [^"]+"/);
    await page.goto(`${arabic.siteUrl}/acme/widget`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('.pl-widget__home')).toHaveText('صفحة الحالة الكاملة');
    const json = await (await request.get(`${arabic.siteUrl}/acme/api/v2/status.json`)).json() as { status: { description: string } };
    expect(json.status.description).toMatch(/^[\x20-\x7e]+$/);
  });
});

test.describe('a page in another time zone', () => {
  test.use({ javaScriptEnabled: false });

  test('the days of its uptime bar end on that zone\'s date, not UTC\'s', async ({ page, zoned }) => {
    const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(new Date()).replace('Sept', 'Sep');
    const before = dateIn(FAR_ZONE);
    expect(before, 'the chosen zone is on another date than UTC').not.toBe(dateIn('UTC'));
    await page.goto(`${zoned.siteUrl}/acme/`);
    await expect(page.locator('main time').first()).toHaveText(new RegExp(FAR_ZONE === 'Etc/GMT+12' ? 'GMT-12$' : 'GMT\\+14$'));
    await page.getByRole('link', { name: 'Daily uptime of API, day by day' }).click();
    const days = page.getByRole('region', { name: 'Days, newest first' }).getByRole('listitem');
    await expect(days).toHaveCount(90);
    // Newest first: the zone's today opens the list (either side of a midnight passed meanwhile).
    const newest = (await days.first().textContent())!.trim();
    expect([before, dateIn(FAR_ZONE)].some((date) => newest.startsWith(`${date}:`)), newest).toBe(true);
  });
});

test('the export writes every offered language, on the main host and the custom domain, as the server answers it', async ({ porchlight, request }) => {
  test.setTimeout(120_000);
  const out = await mkdtemp(path.join(tmpdir(), 'porchlight-i18n-export-'));
  try {
    const run = await runExport(['--out', out], { apiUrl: porchlight.apiUrl, apiKey: porchlight.apiKey }, { SITE_LOCALES: SHIPPED_LOCALES.join(',') });
    expect(run.code, run.stderr.join('\n')).toBe(0);
    for (const locale of SHIPPED_LOCALES) {
      const folder = locale === 'en' ? 'acme' : `acme/${localeSegment(locale)}`;
      const html = await readFile(path.join(out, folder, 'index.html'), 'utf8');
      expect(/<html lang="([^"]+)"/.exec(html)?.[1], folder).toBe(locale);
      expect(await readFile(path.join(out, folder, 'history', 'index.html'), 'utf8')).toContain(`lang="${locale}"`);
    }
    const [domain] = await readdir(path.join(out, 'domains'));
    const onDomain = await readFile(path.join(out, 'domains', domain!, 'ar', 'index.html'), 'utf8');
    expect(onDomain).toContain('<html lang="ar" dir="rtl"');
    expect(onDomain).toContain('<link rel="alternate" hreflang="ar" href="/ar/">');
    const served = await (await request.get('/acme/ko/')).text();
    expect(/<title>[^<]*<\/title>/.exec(await readFile(path.join(out, 'acme', 'ko', 'index.html'), 'utf8'))?.[0]).toBe(/<title>[^<]*<\/title>/.exec(served)?.[0]);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
