import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { apiFor } from './support/api.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';
import { screenshotWholePage } from './support/full-page.ts';
import { WCAG_AA } from './support/axe-tags.ts';


async function templates(porchlight: Parameters<typeof apiFor>[0]) {
  const api = apiFor(porchlight);
  const [incident] = (await api.incidents.list()).data;
  await api.close();
  return [
    { name: 'status page', path: '/acme' },
    { name: 'incident', path: `/acme/incidents/${incident!.id}` },
    { name: 'history', path: '/acme/history' },
    { name: 'days of a monitor', path: `/acme/components/${incident!.monitors[0]!.monitor.id}/` },
    { name: '404', path: '/no-such-page' },
  ];
}

/** Focuses the first bar, points at the second, opens an issue list; then axe. */
async function axeWithDaysShown(page: Page): Promise<string[]> {
  const bars = page.locator('.pl-uptime__bar');
  await bars.nth(0).focus();
  await page.locator('.pl-uptime__issues summary').first().click();
  await bars.nth(1).hover();
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  return results.violations.map((violation) => `${violation.id} (${violation.nodes.length}) ${violation.help}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in ${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test('axe finds no WCAG 2.2 A/AA violation on any template', async ({ page, porchlight }) => {
      // Four axe runs (each page now with its language switcher): 30 to 40 s on a busy 2-core machine.
      test.setTimeout(90_000);
      for (const template of await templates(porchlight)) {
        await page.goto(template.path);
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        const summary = results.violations.map((violation) => `${template.name}: ${violation.id} (${violation.nodes.length}) ${violation.help}`);
        expect(summary).toEqual([]);
      }
    });

    test('axe finds no violation with days of the uptime bars shown and the issue days open', async ({ page }) => {
      // One axe run of this page takes 8 to 15 s on a busy 2-core machine.
      test.setTimeout(60_000);
      await page.goto('/acme');
      expect(await axeWithDaysShown(page)).toEqual([]);
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

for (const theme of ['dark', 'high-contrast']) {
  test(`the ${theme} site theme passes axe too, with and without days of the bars shown`, async ({ page, porchlight }) => {
    // A site process of its own, and four axe runs of the whole page (8 to 15 s each).
    test.setTimeout(120_000);
    const site = await startPorchlightProcess({ STATUS_API_URL: porchlight.apiUrl, STATUS_API_KEY: porchlight.apiKey, SITE_THEME: theme });
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(`${site.siteUrl}/acme`);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        expect(results.violations.map((violation) => `${theme}/${colorScheme}: ${violation.id} ${violation.help}`)).toEqual([]);
        expect((await axeWithDaysShown(page)).map((violation) => `${theme}/${colorScheme} with days shown: ${violation}`)).toEqual([]);
      }
    } finally {
      await site.stop();
    }
  });
}

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
    await expect(page.getByRole('link', { name: 'Daily uptime of Website, day by day' })).toHaveAttribute('href', /\/acme\/components\/[^/]+\/$/);
    await expect(page.getByRole('button', { name: /auto-refresh/i })).toHaveCount(0);
  });
});

test('the page fits a 320 px wide screen without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/acme');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('one document and nothing that blocks its first paint: no stylesheet request, no web fonts', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === '127.0.0.1') requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`);
  });
  await page.goto('/acme');
  await page.waitForLoadState('networkidle');
  expect(requests.filter((entry) => entry.startsWith('font'))).toEqual([]);
  // The stylesheet is in the document (allowed by its hash): no second round trip before the status shows.
  expect(requests.filter((entry) => entry.startsWith('stylesheet'))).toEqual([]);
  expect(requests.filter((entry) => entry.startsWith('document'))).toHaveLength(1);
  expect(requests.filter((entry) => entry.startsWith('script'))).toEqual([]);
  // And the page is styled: the banner is a block with its tone's background.
  const banner = await page.locator('.pl-banner').evaluate((node) => ({ display: getComputedStyle(node).display, background: getComputedStyle(node).backgroundColor }));
  expect(banner.display).not.toBe('inline');
  expect(banner.background).not.toBe('rgba(0, 0, 0, 0)');
});

test('the demo page weighs under 30 KB gzipped, its stylesheet included', async ({ request }) => {
  const html = await request.get('/acme', { headers: { 'accept-encoding': 'gzip' } });
  // Sizes on the wire: what Content-Length says for the gzip representation.
  expect(html.headers()['content-encoding']).toBe('gzip');
  expect(await html.text()).toContain('<style>');
  expect(Number(html.headers()['content-length'])).toBeLessThan(30 * 1024);
});

test('the demo page\'s HTML is no heavier than with the old radio bars (103 KB), its stylesheet included', async ({ request }) => {
  const html = await request.get('/acme', { headers: { 'accept-encoding': 'identity' } });
  expect(html.headers()['content-encoding']).toBeUndefined();
  const body = await html.body();
  // The demo seeds 90 days of history for 8 monitors: a realistic page. It weighed 228 KB when
  // every day carried its sentence twice, 103 KB with 90 labelled radios a bar (no stylesheet inside).
  expect(body.toString('utf8')).toContain('Daily uptime of DNS');
  expect(body.length).toBeLessThanOrEqual(103 * 1024);
});

for (const width of [375, 1280]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screenshot of the demo page at ${width} px, ${colorScheme}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/acme');
      const path = testInfo.outputPath(`demo-${width}-${colorScheme}.png`);
      await screenshotWholePage(page, path);
      await testInfo.attach(`demo-${width}-${colorScheme}`, { path, contentType: 'image/png' });
    });
  }
}
