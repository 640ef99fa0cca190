/**
 * Badges, the embeddable widget and the page's Subscribe / Integrate section, in Chromium against
 * the real server. "Another site" is a tiny HTTP server on its own host name (embedder.test),
 * so the widget is framed cross-site, as on a customer's product page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';
import { componentBadgePath } from '../../src/site/view/page-outputs.ts';
import { WCAG_AA } from './support/axe-tags.ts';

test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--host-resolver-rules=MAP status.acme.test 127.0.0.1, MAP embedder.test 127.0.0.1'],
  },
});


/** Another site: answers every path with the given HTML. */
async function embedder(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>A product site</title></head><body><h1>Our product</h1>${html}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://embedder.test:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The overall status in the status page's own words, read from its banner. */
async function bannerWords(page: Page, url: string): Promise<string> {
  await page.goto(url);
  return (await page.locator('.pl-banner__label').textContent())!.trim();
}

const portOf = (url: string) => new URL(url).port;

test.describe('the widget', () => {
  test('renders in an iframe on another site, in the banner’s words, and opens the full page in the top window', async ({ page, porchlight }) => {
    const words = await bannerWords(page, '/acme');
    const site = await embedder(`<iframe id="widget" src="${porchlight.siteUrl}/acme/widget" title="Acme status" width="360" height="200"></iframe>`);
    try {
      await page.goto(site.url);
      const widget = page.frameLocator('#widget');
      await expect(widget.locator('.pl-banner__label')).toHaveText(words);
      await expect(widget.locator('.pl-widget__name')).toHaveText('Acme Cloud Status');
      await expect(widget.locator('.pl-widget__incidents a').first()).toHaveAttribute('target', '_top');
      const home = widget.getByRole('link', { name: 'Full status page' });
      await expect(home).toHaveAttribute('target', '_top');
      await home.click();
      await expect(page).toHaveURL(`${porchlight.siteUrl}/acme/`);
      await expect(page.locator('.pl-banner__label')).toHaveText(words);
    } finally {
      await site.close();
    }
  });

  test('is the only page that may be framed: the status page itself stays empty in a frame', async ({ page, request, porchlight }) => {
    const site = await embedder(
      `<iframe id="widget" src="${porchlight.siteUrl}/acme/widget" title="widget"></iframe><iframe id="page" src="${porchlight.siteUrl}/acme" title="page"></iframe>`,
    );
    try {
      await page.goto(site.url);
      await expect(page.frameLocator('#widget').locator('.pl-banner')).toBeVisible();
      const framed = await (await page.locator('#page').elementHandle())!.contentFrame();
      // Chromium refuses the document: the frame ends on its error page, never on the status page.
      await expect.poll(() => framed!.url()).not.toBe('about:blank');
      expect(framed!.url()).not.toContain('/acme');
      expect(await framed!.locator('.pl-banner, main').count()).toBe(0);
    } finally {
      await site.close();
    }
    const pageHeaders = (await request.get('/acme')).headers();
    expect(pageHeaders['x-frame-options']).toBe('DENY');
    expect(pageHeaders['content-security-policy']).toContain("frame-ancestors 'none'");
    const widgetHeaders = (await request.get('/acme/widget')).headers();
    expect(widgetHeaders['x-frame-options']).toBeUndefined();
    expect(widgetHeaders['content-security-policy']).toContain('frame-ancestors *');
    expect(widgetHeaders['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(widgetHeaders['cache-control']).toBe(pageHeaders['cache-control']);
    expect(widgetHeaders['cache-control']).toMatch(/^public, /);
  });

  test('reads at 300×150 and at 600×400 without cutting off the status or the way to the page', async ({ page }) => {
    for (const size of [{ width: 300, height: 150 }, { width: 600, height: 400 }]) {
      await page.setViewportSize(size);
      await page.goto('/acme/widget');
      for (const locator of [page.locator('.pl-banner__label'), page.getByRole('link', { name: 'Full status page' })]) {
        const box = (await locator.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(size.height);
        expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('badges', () => {
  test('render in Chromium as images, named by what they say, the same words as the page', async ({ page, porchlight }) => {
    const api = apiFor(porchlight);
    const acme = await demoPage(api);
    await api.close();
    const [link] = [...acme.monitors].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
    const words = await bannerWords(page, '/acme');
    const health = (await page.locator('.pl-monitor').first().locator('.pl-badge__label').first().textContent())!.trim();

    const site = await embedder(
      `<img id="page" src="${porchlight.siteUrl}/acme/badge.svg" alt="page badge"><img id="component" src="${porchlight.siteUrl}/acme/${componentBadgePath(link!.monitorId)}" alt="component badge">`,
    );
    try {
      await page.goto(site.url);
      for (const id of ['page', 'component']) {
        await expect.poll(() => page.locator(`#${id}`).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(40);
        expect(await page.locator(`#${id}`).evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(20);
      }
    } finally {
      await site.close();
    }

    await page.goto('/acme/badge.svg');
    await expect(page.getByRole('img', { name: `status: ${words}` })).toBeVisible();
    await page.goto(`/acme/${componentBadgePath(link!.monitorId)}`);
    await expect(page.getByRole('img', { name: `${link!.displayName}: ${health}` })).toBeVisible();
  });

  test('size their halves to the text as Chromium draws it', async ({ page }) => {
    await page.goto('/acme/badge.svg');
    const ratios = await page.locator('text').evaluateAll((texts) =>
      (texts as SVGTextElement[]).map((text) => {
        const estimate = Number(text.getAttribute('textLength'));
        text.removeAttribute('textLength');
        return text.getComputedTextLength() / estimate;
      }),
    );
    expect(ratios).toHaveLength(2);
    for (const ratio of ratios) {
      expect(ratio).toBeGreaterThan(0.9);
      expect(ratio).toBeLessThan(1.1);
    }
  });

  test('answer GET and HEAD as cacheable SVG, and 404 for what the page does not publish', async ({ request, porchlight }) => {
    const api = apiFor(porchlight);
    const acme = await demoPage(api);
    const internal = await demoPage(api, 'internal');
    await api.close();
    const linked = new Set(acme.monitors.map((link) => link.monitorId));
    const unlinked = internal.monitors.find((link) => !linked.has(link.monitorId));
    expect(unlinked).toBeDefined();

    const badge = await request.get('/acme/badge.svg');
    expect(badge.status()).toBe(200);
    expect(badge.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(badge.headers()['cache-control']).toBe((await request.get('/acme')).headers()['cache-control']);
    expect(badge.headers()['x-frame-options']).toBe('DENY');
    const head = await request.head('/acme/badge.svg');
    expect(head.status()).toBe(200);
    expect(head.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(await head.body()).toHaveLength(0);

    const unknown = await request.get('/no-such-page/badge.svg');
    expect(unknown.status()).toBe(404);
    const withoutTimes = (html: string) => html.replace(/<time[^>]*>[^<]*<\/time>/g, '<time/>');
    for (const path of [
      '/internal/badge.svg',
      `/internal/${componentBadgePath(unlinked!.monitorId)}`,
      '/internal/widget',
      `/acme/${componentBadgePath(unlinked!.monitorId)}`,
      `/acme/${componentBadgePath('mon_nope')}`,
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(response.headers()['x-frame-options'], path).toBe('DENY');
      expect(response.headers()['cache-control'], path).toBe('no-store');
      if (path.startsWith('/internal/')) expect(withoutTimes(await response.text()), path).toBe(withoutTimes(await unknown.text()));
    }
  });

  test('carry a hostile page name and service label escaped once, as well-formed SVG', async ({ page, request, porchlight }) => {
    const api = apiFor(porchlight);
    const acme = await demoPage(api);
    const hostile = `<script>alert(1)</script> & "Q" ]]> 🔥 שלום`;
    // Short enough to stay whole on the badge (longer labels end in "…").
    const label = `<b>"Q"</b> & ]]> 🔥 שלום`;
    const created = await api.statusPages.create({
      name: hostile,
      slug: 'hostile-badges',
      monitors: acme.monitors.slice(0, 1).map((link) => ({ monitorId: link.monitorId, displayName: label })),
    });
    try {
      let svg = '';
      await expect(async () => {
        const response = await request.get(`/hostile-badges/${componentBadgePath(acme.monitors[0]!.monitorId)}`);
        expect(response.status()).toBe(200);
        svg = await response.text();
      }).toPass({ timeout: 10_000 });
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return { error: doc.querySelector('parsererror')?.textContent ?? null, title: doc.querySelector('title')?.textContent, scripts: doc.querySelectorAll('script').length };
      }, svg);
      expect(parsed.error).toBeNull();
      expect(parsed.scripts).toBe(0);
      expect(parsed.title).toMatch(/^<b>"Q"<\/b> & \]\]> 🔥 שלום: [A-Z][a-z ]+$/);
      expect(svg).not.toContain('&amp;amp;');

      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto('/hostile-badges/widget');
      await expect(page.locator('.pl-widget__name')).toHaveText(hostile);
      await page.goto('/hostile-badges');
      await page.locator('#integrate summary').click();
      await expect(page.locator('#integrate pre').last()).toContainText(`title="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Q&quot; ]]&gt; 🔥 שלום status"`);
      expect(dialogs).toEqual([]);
    } finally {
      await api.statusPages.delete(created.id);
      await api.close();
    }
  });
});

test.describe('on the page’s custom domain', () => {
  test('badges and the widget live at the root, and the widget frames there too', async ({ page, porchlight }) => {
    const port = portOf(porchlight.siteUrl);
    const origin = `http://status.acme.test:${port}`;
    const api = apiFor(porchlight);
    const acme = await demoPage(api);
    await api.close();
    const [link] = [...acme.monitors].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
    const words = await bannerWords(page, `${origin}/`);

    await page.goto(`${origin}/badge.svg`);
    await expect(page.getByRole('img', { name: `status: ${words}` })).toBeVisible();
    await page.goto(`${origin}/${componentBadgePath(link!.monitorId)}`);
    await expect(page.getByRole('img', { name: new RegExp(`^${link!.displayName}: `) })).toBeVisible();
    // The request context does not resolve the test host names; the browser does.
    expect((await page.goto(`${origin}/${componentBadgePath('mon_nope')}`))?.status()).toBe(404);
    expect((await page.goto(`${origin}/acme/badge.svg`))?.status()).toBe(404);

    const site = await embedder(`<iframe id="widget" src="${origin}/widget" title="Acme status" width="360" height="200"></iframe>`);
    try {
      await page.goto(site.url);
      const widget = page.frameLocator('#widget');
      await expect(widget.locator('.pl-banner__label')).toHaveText(words);
      await expect(widget.getByRole('link', { name: 'Full status page' })).toHaveAttribute('href', '/');
      await widget.getByRole('link', { name: 'Full status page' }).click();
      await expect(page).toHaveURL(`${origin}/`);
    } finally {
      await site.close();
    }
  });

  test('the Subscribe section’s snippets name the custom domain', async ({ page, porchlight }) => {
    const origin = `http://status.acme.test:${portOf(porchlight.siteUrl)}`;
    await page.goto(`${origin}/`);
    await page.locator('#integrate summary').click();
    await expect(page.locator('#integrate pre').first()).toHaveText(`[![Acme Cloud Status status](${origin}/badge.svg)](${origin}/)`);
    await expect(page.locator('#integrate pre').last()).toContainText(`src="${origin}/widget"`);
    await expect(page.getByRole('link', { name: 'Atom feed' })).toHaveAttribute('href', '/history.atom');
  });
});

test.describe('the Subscribe / Integrate section without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('links every output, and opens to copy-paste snippets with absolute URLs', async ({ page, porchlight }) => {
    await page.goto('/acme');
    const head = page.locator('head');
    await expect(head.locator('link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute('href', '/acme/history.atom');
    await expect(head.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/acme/history.rss');

    const section = page.getByRole('region', { name: 'Subscribe / Integrate' });
    await expect(section.getByRole('link', { name: 'Atom feed' })).toHaveAttribute('href', '/acme/history.atom');
    await expect(section.getByRole('link', { name: 'RSS feed' })).toHaveAttribute('href', '/acme/history.rss');
    await expect(section.getByRole('link', { name: /calendar/i })).toHaveAttribute('href', '/acme/maintenance.ics');
    await expect(section.getByRole('link', { name: /JSON/ })).toHaveAttribute('href', '/acme/api/v2/summary.json');

    const snippets = section.locator('pre');
    await expect(snippets.first()).toBeHidden();
    await section.getByText('Badge and widget for your own site').click();
    await expect(snippets).toHaveCount(3);
    const site = porchlight.siteUrl;
    await expect(snippets.nth(0)).toHaveText(`[![Acme Cloud Status status](${site}/acme/badge.svg)](${site}/acme/)`);
    await expect(snippets.nth(1)).toHaveText(`<a href="${site}/acme/"><img src="${site}/acme/badge.svg" alt="Acme Cloud Status status" height="20"></a>`);
    await expect(snippets.nth(2)).toHaveText(new RegExp(`^<iframe src="${site.replaceAll('.', '\\.')}/acme/widget" title="Acme Cloud Status status"`));
    const preview = section.getByRole('img', { name: /^status: / });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(40);
    await section.getByRole('link', { name: 'preview' }).click();
    await expect(page).toHaveURL(`${site}/acme/widget`);
    await expect(page.locator('.pl-banner')).toBeVisible();
  });
});

test.describe('accessibility', () => {
  async function check(page: Page, base: string, label: string): Promise<string[]> {
    const found: string[] = [];
    await page.goto(`${base}/acme/widget`);
    for (const violation of (await new AxeBuilder({ page }).withTags(WCAG_AA).analyze()).violations) found.push(`${label} widget: ${violation.id} ${violation.help}`);
    await page.goto(`${base}/acme`);
    await page.locator('#integrate summary').click();
    const results = await new AxeBuilder({ page }).include('#integrate').withTags(WCAG_AA).analyze();
    for (const violation of results.violations) found.push(`${label} integrate: ${violation.id} ${violation.help}`);
    return found;
  }

  test('axe finds no WCAG 2.2 A/AA violation in the widget or the open Subscribe section, in every theme, light and dark', async ({ page, porchlight }) => {
    test.setTimeout(120_000);
    // Several active incidents, so the widget's list of links is stacked and scrolls in the small box.
    const api = apiFor(porchlight);
    const { monitorId } = (await demoPage(api)).monitors[0]!;
    const incidents = await Promise.all(
      ['Login failures for some users', 'Webhooks delayed', 'Search results are stale'].map((title) => api.incidents.create({ monitorIds: [monitorId], title, message: 'Looking into it.' })),
    );
    const found: string[] = [];
    try {
      await page.setViewportSize({ width: 360, height: 200 });
      await expect(async () => {
        await page.goto('/acme/widget');
        expect(await page.locator('.pl-widget__incidents a').count()).toBeGreaterThanOrEqual(3);
      }).toPass({ timeout: 15_000 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        found.push(...(await check(page, porchlight.siteUrl, `default/${colorScheme}`)));
      }
      for (const theme of ['dark', 'high-contrast']) {
        const site = await startPorchlightProcess({ STATUS_API_URL: porchlight.apiUrl, STATUS_API_KEY: porchlight.apiKey, SITE_THEME: theme });
        try {
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            found.push(...(await check(page, site.siteUrl, `${theme}/${colorScheme}`)));
          }
        } finally {
          await site.stop();
        }
      }
    } finally {
      await Promise.all(incidents.map((incident) => api.incidents.delete(incident.id).catch(() => undefined)));
      await api.close();
    }
    expect(found).toEqual([]);
  });
});
