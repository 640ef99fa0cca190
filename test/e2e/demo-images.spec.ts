/**
 * Every image of the demo's pages loads for a visitor who reaches the site by another host name
 * than the one it announced (localhost instead of 127.0.0.1: as through a proxy, a custom domain
 * or HOST=0.0.0.0): no address in a page may name the host the site happened to start on.
 */
import { test, expect } from './fixtures.ts';

test('every image on the demo pages loads when the site is reached as localhost', async ({ page, porchlight }) => {
  const other = new URL(porchlight.siteUrl);
  expect(other.hostname).toBe('127.0.0.1');
  other.hostname = 'localhost';
  const failed: string[] = [];
  // A request the browser gave up because the test navigated on (the favicon, often) is not a
  // broken address: that one is checked by its answer below.
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${request.failure()?.errorText ?? 'failed'} ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.request().resourceType() === 'image' && response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });

  await page.goto(new URL('/acme', other).href);
  const pages = [
    '/acme',
    '/acme/history/',
    await page.getByRole('link', { name: /^Daily uptime of Website, day by day$/ }).getAttribute('href'),
    await page.locator('a[href*="/incidents/"]').first().getAttribute('href'),
  ];
  let images = 0;
  for (const path of pages) {
    expect(path).toBeTruthy();
    await page.goto(new URL(path!, other).href);
    // Images inside closed disclosures (the badge preview) load once opened.
    await page.locator('details').evaluateAll((nodes) => nodes.forEach((node) => ((node as HTMLDetailsElement).open = true)));
    const count = await page.locator('img').count();
    expect(count, `images on ${path}`).toBeGreaterThan(0);
    for (let index = 0; index < count; index += 1) {
      const image = page.locator('img').nth(index);
      // Lazy images load once scrolled to.
      await image.scrollIntoViewIfNeeded();
      const src = (await image.getAttribute('src')) ?? '';
      expect(new URL(src, page.url()).hostname, `${src} on ${path}`).toBe('localhost');
      await expect.poll(() => image.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0), { message: `${src} on ${path}` }).toBe(true);
    }
    images += count;
  }
  expect(images).toBeGreaterThanOrEqual(pages.length);
  expect(failed).toEqual([]);
  // The icon each page names, on the host the visitor used.
  const icon = await page.locator('link[rel~="icon"]').first().getAttribute('href');
  expect(icon).toBeTruthy();
  expect((await page.request.get(new URL(icon!, page.url()).href)).status()).toBe(200);
});
