import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures.ts';
import { apiFor } from './support/api.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

async function templates(porchlight: Parameters<typeof apiFor>[0]) {
  const api = apiFor(porchlight);
  const [incident] = (await api.incidents.list()).data;
  await api.close();
  return [
    { name: 'status page', path: '/acme' },
    { name: 'incident', path: `/acme/incidents/${incident!.id}` },
    { name: 'history', path: '/acme/history' },
    { name: '404', path: '/no-such-page' },
  ];
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in ${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test('axe finds no WCAG 2.2 A/AA violation on any template', async ({ page, porchlight }) => {
      for (const template of await templates(porchlight)) {
        await page.goto(template.path);
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        const summary = results.violations.map((violation) => `${template.name}: ${violation.id} (${violation.nodes.length}) ${violation.help}`);
        expect(summary).toEqual([]);
      }
    });
  });
}

test('axe finds no violation on the index of several pages, light and dark', async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const extra = await api.statusPages.create({ name: 'Second page', slug: 'second' });
  try {
    await expect(async () => {
      await page.goto('/');
      await expect(page.getByRole('link', { name: /Second page/ })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 10_000 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(results.violations.map((violation) => `${colorScheme}: ${violation.id}`)).toEqual([]);
    }
  } finally {
    await api.statusPages.delete(extra.id);
    await api.close();
  }
});

test('the dark and high-contrast site themes pass axe too', async ({ page, porchlight }) => {
  for (const theme of ['dark', 'high-contrast']) {
    const site = await startPorchlightProcess({ STATUS_API_URL: porchlight.apiUrl, STATUS_API_KEY: porchlight.apiKey, SITE_THEME: theme });
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(`${site.siteUrl}/acme`);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        expect(results.violations.map((violation) => `${theme}/${colorScheme}: ${violation.id} ${violation.help}`)).toEqual([]);
      }
    } finally {
      await site.stop();
    }
  }
});

test('the page is keyboard usable: skip link first, then every control reachable', async ({ page }) => {
  await page.goto('/acme');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
  const pause = page.getByRole('button', { name: 'Pause auto-refresh' });
  await pause.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Resume auto-refresh' })).toBeFocused();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });
  test('everything is still there, without the script-only controls', async ({ page }) => {
    await page.goto('/acme');
    await expect(page.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();
    await expect(page.locator('#monitors-heading').locator('..').locator('ol').first().locator('li')).toHaveCount(90);
    await expect(page.getByRole('button', { name: /auto-refresh/i })).toHaveCount(0);
  });
});

test('the page fits a 320 px wide screen without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/acme');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('one document plus one stylesheet, no web fonts', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === '127.0.0.1') requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`);
  });
  await page.goto('/acme');
  await page.waitForLoadState('networkidle');
  expect(requests.filter((entry) => entry.startsWith('font'))).toEqual([]);
  expect(requests.filter((entry) => entry.startsWith('stylesheet'))).toHaveLength(1);
  expect(requests.filter((entry) => entry.startsWith('document'))).toHaveLength(1);
  expect(requests.filter((entry) => entry.startsWith('script'))).toEqual([]);
});

test('the demo page weighs under 30 KB gzipped, HTML and CSS together', async ({ request }) => {
  const gzip = { 'accept-encoding': 'gzip' };
  const html = await request.get('/acme', { headers: gzip });
  const cssPath = /href="(\/_astro\/[^"]+\.css)"/.exec(await html.text())?.[1];
  const css = await request.get(cssPath!, { headers: gzip });
  // Sizes on the wire: what Content-Length says for the gzip representation.
  const bytes = Number(html.headers()['content-length']) + Number(css.headers()['content-length']);
  expect(html.headers()['content-encoding']).toBe('gzip');
  expect(css.headers()['content-encoding']).toBe('gzip');
  expect(bytes).toBeLessThan(30 * 1024);
});

for (const width of [375, 1280]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screenshot of the demo page at ${width} px, ${colorScheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/acme');
      const path = testInfo.outputPath(`demo-${width}-${colorScheme}.png`);
      await page.screenshot({ path, fullPage: true });
      await testInfo.attach(`demo-${width}-${colorScheme}`, { path, contentType: 'image/png' });
    });
  }
}
