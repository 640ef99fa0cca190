/**
 * The theming engine's preview (src/site/preview/), in Chromium: a draft's branding rendered by
 * the site's own code over the live data of a real Porchlight (site + embedded API), shown the way
 * the console shows it: in a sandboxed frame (no allow-same-origin, no scripts) of a page on the
 * console's origin. The site thread answering previews is started here against the same API,
 * exactly as `npm start` starts it (src/server/start.ts), since only the launcher knows its
 * internal port; "the console" is a tiny server of this test that calls requestPreview(), and for
 * the e-mail the subscriptions' previewMail() (src/subscribers/mail-preview.ts), the service
 * started here too, hearing the site thread's snapshots as on its own thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Frame, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { loadLauncherConfig } from '../../src/server/config.ts';
import { startSiteThread } from '../../src/server/start.ts';
import { siteConfigOf } from '../../src/site/running-config.ts';
import { requestPreview } from '../../src/site/preview/preview-client.ts';
import { PREVIEW_HEADER, PREVIEW_PATH, previewRequestSchema, type PreviewRequestInput } from '../../src/site/preview/preview-request.ts';
import { mailPreviewRequestSchema, type MailPreviewRequestInput } from '../../src/subscribers/mail-preview.ts';
import { startSubscriptions, type RunningSubscriptions } from '../../src/subscribers/service.ts';
import { WCAG_AA } from './support/axe-tags.ts';


/** The draft's mark: a radius and an outline no theme has. */
const DRAFT_CSS = ':root{--pl-radius:13px}.pl-banner{outline:7px solid rgb(1, 2, 3)}';

/** What this console asks: a site template, or the e-mail (of the subscribers). */
type Asked = PreviewRequestInput | (MailPreviewRequestInput & { template: 'email' });

interface Console {
  url: string;
  /** The console page framing the preview of `request`, `width` px wide. */
  framePath(request: Asked): string;
  /** The preview document itself, as the console would serve it to the frame. */
  previewPath(request: Asked): string;
  close(): Promise<void>;
}

/** "The console": a page with a sandboxed frame, and the frame's document from requestPreview(). */
async function startConsole(siteOrigin: string, subscriptions: RunningSubscriptions): Promise<Console> {
  const encode = (request: Asked) => encodeURIComponent(JSON.stringify(request));
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://console.test');
    const body = JSON.parse(url.searchParams.get('r') ?? '{}') as { template?: string };
    const email = body.template === 'email';
    const parsed = email ? mailPreviewRequestSchema.safeParse(body) : previewRequestSchema.safeParse(body);
    if (!parsed.success || (url.pathname !== '/frame' && url.pathname !== '/preview')) {
      // The browser's own asks (favicon.ico) and anything else.
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    const asked = parsed.data;
    if (url.pathname === '/frame') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(`<!doctype html><html lang="en"><head><title>Theming</title></head><body><main><h1>Theming</h1><iframe id="preview" sandbox="" title="Preview" width="${asked.width}" height="800" src="/preview?r=${encode(body as Asked)}"></iframe></main></body></html>`);
      return;
    }
    const answer = email ? Promise.resolve(subscriptions.previewMail(asked)) : requestPreview(siteOrigin, previewRequestSchema.parse(body));
    void answer.then((result) => {
      if (!result.ok) {
        response.writeHead(result.status, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(result.message);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': result.contentSecurityPolicy });
      response.end(result.html);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    framePath: (request) => `/frame?r=${encode(request)}`,
    previewPath: (request) => `/preview?r=${encode(request)}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let site: Awaited<ReturnType<typeof startSiteThread>> | null = null;
let subscriptions: RunningSubscriptions | null = null;
let consoleServer: Console | null = null;
const storeDir = mkdtempSync(join(tmpdir(), 'porchlight-theming-preview-'));

test.beforeAll(async ({ porchlight }) => {
  const config = loadLauncherConfig({ ...process.env, STATUS_API_URL: porchlight.apiUrl, STATUS_API_KEY: porchlight.apiKey, CACHE_FRESH_SECONDS: '1', PUSH_POLL_SECONDS: '1', TZ: 'UTC', CACHE_DIR: join(storeDir, 'cache') });
  // Before the site, as the launcher does, so that it hears the first snapshot; it mails nothing (no subscriber).
  subscriptions = await startSubscriptions({
    database: join(storeDir, 'subscribers.db'),
    smtp: { host: '127.0.0.1', port: 9, secure: false, from: 'Status <status@example.com>' },
    links: { origin: porchlight.siteUrl, configured: false },
    languages: config.languages,
    transport: { send: async () => ({ outcome: 'permanent' }), close: () => undefined },
  });
  // The site thread copies the environment when it starts: a quiet one for it alone (its refresh
  // every second would fill npm test's output), restored before anything else starts.
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'warn';
  try {
    site = await startSiteThread(siteConfigOf(config.site, config.languages, { api: { url: porchlight.apiUrl, key: porchlight.apiKey }, subscriptions: true, subscribeFormOrigin: null, audiences: null }));
  } finally {
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
  }
  consoleServer = await startConsole(site.origin, subscriptions);
});

test.afterAll(async () => {
  await consoleServer?.close();
  await site?.close();
  await subscriptions?.close();
  rmSync(storeDir, { recursive: true, force: true });
});

function consoleUrl(): Console {
  if (!consoleServer) throw new Error('the console did not start');
  return consoleServer;
}

async function previewFrame(page: Page, request: Asked): Promise<Frame> {
  await page.goto(`${consoleUrl().url}${consoleUrl().framePath(request)}`);
  const element = await page.locator('#preview').elementHandle();
  const frame = await element!.contentFrame();
  await frame!.waitForSelector('.pl-header, body');
  return frame!;
}

const styleOf = (frame: Frame | Page, selector: string, property: string) => frame.locator(selector).first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

test.describe('the theming preview', () => {
  test.use({ colorScheme: 'light' });

  test('shows the draft CSS in the sandboxed frame, and the public page stays as published', async ({ page, porchlight }) => {
    const frame = await previewFrame(page, { slug: 'acme', template: 'status', draft: { customCss: DRAFT_CSS, headerText: '<p class="draft-note">Draft header</p>' } });
    expect(await styleOf(frame, '.pl-banner', 'outline-color')).toBe('rgb(1, 2, 3)');
    expect(await styleOf(frame, '.pl-monitor', 'border-top-left-radius')).toBe('13px');
    await expect(frame.locator('.pl-owner-header .draft-note')).toHaveText('Draft header');
    // The live data: the same banner words as the public page.
    await page.context().newPage().then(async (visitor) => {
      await visitor.goto(`${porchlight.siteUrl}/acme/`);
      await expect(frame.locator('.pl-banner__label')).toHaveText((await visitor.locator('.pl-banner__label').textContent())!.trim());
      expect(await styleOf(visitor, '.pl-banner', 'outline-color')).not.toBe('rgb(1, 2, 3)');
      expect(await styleOf(visitor, '.pl-monitor', 'border-top-left-radius')).not.toBe('13px');
      await expect(visitor.locator('.draft-note')).toHaveCount(0);
      await visitor.close();
    });
  });

  test('every template renders with the draft: incident, history, component, widget, e-mail, card', async ({ page }) => {
    const draft = { brandColor: '#0b6e4f', customCss: DRAFT_CSS };
    for (const template of ['incident', 'history', 'component', 'widget'] as const) {
      const frame = await previewFrame(page, { slug: 'acme', template, draft });
      expect(await frame.locator('html').getAttribute('data-theme'), template).toBe('default');
      expect(await frame.locator('style').last().textContent(), template).toContain('--pl-brand: #0b6e4f');
      expect(await frame.locator('style').last().textContent(), template).toContain('--pl-radius:13px');
    }
    // The e-mail, from the subscribers (the site renders no mail): its snapshot arrives over the channel.
    await expect.poll(() => subscriptions!.previewMail({ slug: 'acme' }).ok, { timeout: 20_000 }).toBe(true);
    const mail = await previewFrame(page, { slug: 'acme', template: 'email', draft });
    await expect(mail.locator('body')).toContainText('Acme Cloud Status');
    expect(await mail.locator('body > div > div').first().evaluate((bar) => getComputedStyle(bar).backgroundColor)).toBe('rgb(11, 110, 79)');
    const card = await previewFrame(page, { slug: 'acme', template: 'card', draft });
    const image = card.locator('img');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  });

  test('right-to-left, dark and 375 px variants render', async ({ page }) => {
    const frame = await previewFrame(page, { slug: 'acme', template: 'status', draft: { customCss: DRAFT_CSS }, direction: 'rtl', scheme: 'dark', width: 375 });
    await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(frame.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');
    // Dark although the console's browser prefers light: the scheme is the preview's, not the frame's.
    expect(await styleOf(frame, 'html', 'background-color')).toBe('rgb(14, 17, 22)');
    expect(await frame.locator('html').evaluate((html) => html.clientWidth)).toBe(375);
    expect(await frame.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(375);
    const light = await previewFrame(page, { slug: 'acme', template: 'status', scheme: 'light' });
    expect(await styleOf(light, 'html', 'background-color')).toBe('rgb(244, 245, 247)');
    const contrast = await previewFrame(page, { slug: 'acme', template: 'status', scheme: 'high-contrast' });
    await expect(contrast.locator('html')).toHaveAttribute('data-theme', 'high-contrast');
    expect(await styleOf(contrast, 'html', 'background-color')).toBe('rgb(255, 255, 255)');
  });

  test('a custom CSS that tries to leave its style element stays inert text', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const breakout = ':root{--pl-radius:13px}</style><script>alert("xss");document.title="owned"</script><img src=x onerror=alert(2)><style>';
    const frame = await previewFrame(page, { slug: 'acme', template: 'status', draft: { customCss: breakout, headerText: '<img src=x onerror=alert(3)><script>alert(4)</script><p>Hello</p>' } });
    expect(await frame.locator('script').count()).toBe(0);
    expect(await frame.locator('img[onerror]').count()).toBe(0);
    expect(await frame.title()).not.toBe('owned');
    // The rule before the attempt applies: the rest is text inside the one owner style element.
    expect(await styleOf(frame, '.pl-monitor', 'border-top-left-radius')).toBe('13px');
    expect(await frame.locator('style').last().textContent()).toContain('<\\/style><script>');
    await expect(frame.locator('.pl-owner-header')).toHaveText('Hello');
    expect(dialogs).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    // axe is a script: in the sandboxed document (its header says `sandbox`) none may run, axe's
    // included, so this browser ignores the policy; what axe checks is the markup and the styles.
    test.describe(() => {
      test.use({ bypassCSP: true });
      test(`axe finds no WCAG 2.2 A/AA violation in the status page's preview (${scheme})`, async ({ page }) => {
        test.setTimeout(60_000);
        // The preview document on its own (as the frame loads it): axe runs in it.
        await page.goto(`${consoleUrl().url}${consoleUrl().previewPath({ slug: 'acme', template: 'status', scheme, draft: { customCss: DRAFT_CSS, headerText: '<p>Planned work on <a href="https://acme.test/">Sunday</a></p>' } })}`);
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        expect(results.violations.map((violation) => `${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
      });
    });
  }

  test('is never on the public server, never cached, and says why when there is nothing to show', async ({ porchlight }) => {
    const post = await fetch(`${porchlight.siteUrl}${PREVIEW_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', [PREVIEW_HEADER]: '1' }, body: JSON.stringify({ slug: 'acme', template: 'status' }) });
    expect(post.status).toBe(405);
    const get = await fetch(`${porchlight.siteUrl}${PREVIEW_PATH}`, { headers: { [PREVIEW_HEADER]: '1' } });
    expect(get.status).toBe(404);
    const direct = await fetch(new URL(PREVIEW_PATH, site!.origin), { method: 'POST', headers: { 'content-type': 'application/json', [PREVIEW_HEADER]: '1' }, body: JSON.stringify({ slug: 'acme', template: 'status' }) });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('cache-control')).toBe('no-store');
    expect(direct.headers.get('content-security-policy')).toContain("script-src 'none'");
    // Without the internal header the path is just an unknown page.
    expect((await fetch(new URL(PREVIEW_PATH, site!.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
    const missing = await requestPreview(site!.origin, { slug: 'no-such-page', template: 'status', direction: 'rtl' });
    expect(missing).toEqual({ ok: false, status: 404, error: 'no-page', message: 'لا توجد صفحة حالة بهذا العنوان.' });
    const bad = await fetch(new URL(PREVIEW_PATH, site!.origin), { method: 'POST', headers: { 'content-type': 'application/json', [PREVIEW_HEADER]: '1' }, body: '{"slug":"acme","template":"admin"}' });
    expect(bad.status).toBe(400);
    // The site renders no mail: the e-mail's preview is the subscribers'.
    const mail = await fetch(new URL(PREVIEW_PATH, site!.origin), { method: 'POST', headers: { 'content-type': 'application/json', [PREVIEW_HEADER]: '1' }, body: '{"slug":"acme","template":"email"}' });
    expect(mail.status).toBe(400);
  });
});
