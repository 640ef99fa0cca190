/**
 * The console's theming screen end to end, in Chromium against the real launcher and the embedded
 * API: an editor's draft (CSS, header) shown in the sandboxed preview frame, rendered by the site's
 * own code, and on the public page only once published; undo; the audit trail's before and after;
 * a responder refused (403) on every theming route with nothing written; a `</style>` breakout
 * neutralized in the preview; axe on the screen in light, dark and right-to-left. The main flow
 * runs with JavaScript off: the screen is plain forms (Preview re-renders it with the draft, kept
 * server-side, which the frame renders).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Frame, type Page } from '@playwright/test';
import { apiFor, demoPage } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { startApiProcess } from './support/api-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { ConsoleStore } from '../../src/console/store.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, setUpOperator, signInLabels, type SignInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 }, locale: 'en-GB' });

/** The draft's mark: a radius and an outline no theme has. */
const DRAFT_CSS = ':root{--pl-radius:13px}.pl-banner{outline:7px solid rgb(1, 2, 3)}';
let site: PorchlightProcess;
let dir: string;
let origin: string;
let console_: string;
const links = new Map<string, string>();

const cliEnv = (where = dir, at = origin): Record<string, string> => consoleCliEnv(where, at);

async function audit(): Promise<{ actor: string; action: string; target: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[]> {
  const result = await runPorchlight(['audit', '--json'], cliEnv());
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Awaited<ReturnType<typeof audit>>;
}

const setUp = (page: Page, email: string, link = links.get(email)!): Promise<void> => setUpOperator(page, link);
const signIn = (page: Page, email: string, labels: SignInLabels): Promise<void> => signInOperator(page, console_, email, { labels });

async function previewFrame(page: Page): Promise<Frame> {
  const frame = await (await page.locator('iframe').elementHandle())!.contentFrame();
  await frame!.waitForSelector('.pl-header');
  return frame!;
}

const styleOf = (frame: Frame, selector: string, property: string) => frame.locator(selector).first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

/** The demo page as a visitor gets it, on its custom domain. */
async function publicHtml(): Promise<string> {
  return (await request(`${origin}/`, { headers: { host: 'status.acme.test' } })).body.text();
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-theming-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  console_ = `${origin}/_porchlight/console/`;
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: origin, CONSOLE: 'true', SUBSCRIBERS_DB: join(dir, 'subscribers.db'), HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  for (const [email, role] of [['eve@example.com', 'editor'], ['rob@example.com', 'responder']] as const) {
    const result = await runPorchlight(['operator', 'add', email, '--role', role, '--json'], cliEnv());
    expect(result.code).toBe(0);
    links.set(email, (JSON.parse(result.stdout) as { setupLink: string }).setupLink);
  }
});

test.afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an editor\'s CSS appears in the preview, on the public page only after publishing, and undo restores it', async ({ page }) => {
  test.setTimeout(90_000);
  const api = apiFor(site);
  try {
    const before = await demoPage(api);
    await setUp(page, 'eve@example.com');
    await page.getByRole('link', { name: 'Theming' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Theming' })).toBeVisible();
    await expect(page.getByLabel('Custom CSS', { exact: true })).toHaveValue(before.customCss ?? '');

    await page.getByLabel('Custom CSS', { exact: true }).fill(DRAFT_CSS);
    await page.getByLabel('Header', { exact: true }).fill('<p class="draft-note">Draft header</p><script>alert(1)</script>');
    await page.getByLabel('Brand colour', { exact: true }).fill('#ffd700');
    await page.getByRole('button', { name: 'Preview' }).click();

    // The screen again, with the draft: the fields, the sanitizer's report, the contrast warnings.
    await expect(page.getByLabel('Custom CSS', { exact: true })).toHaveValue(DRAFT_CSS);
    await expect(page.getByText('You have an unpublished draft for this page.')).toBeVisible();
    const strip = page.getByRole('region', { name: 'What the page will remove or neutralize' });
    await expect(strip).toContainText('<script>');
    await expect(strip).toContainText('Scripts never run on a status page');
    const contrast = page.getByRole('region', { name: 'Contrast of the brand colour' });
    await expect(contrast).toContainText('#ffd700 on the page background is 1.28:1, below 3:1');
    await expect(contrast.getByRole('row')).toHaveCount(16);

    // The frame: sandboxed without scripts, the draft rendered by the site's own page.
    const iframe = page.locator('iframe');
    await expect(iframe).toHaveAttribute('sandbox', '');
    await expect(iframe).toHaveAttribute('title', 'Preview of the draft: Status page, Light, Left to right, 1280 px');
    const frame = await previewFrame(page);
    expect(await styleOf(frame, '.pl-banner', 'outline-color')).toBe('rgb(1, 2, 3)');
    await expect(frame.locator('.pl-owner-header .draft-note')).toHaveText('Draft header');
    expect(await frame.locator('script').count()).toBe(0);

    // Nothing published yet: not in the API, not on the public page.
    expect((await demoPage(api)).customCss ?? '').not.toContain('rgb(1, 2, 3)');
    expect(await publicHtml()).not.toContain('rgb(1, 2, 3)');

    // Another template, scheme, direction and width, chosen with the same form.
    await page.getByLabel('Template').selectOption('component');
    await page.getByLabel('Colour scheme').selectOption('dark');
    await page.getByLabel('Direction').selectOption('rtl');
    await page.getByLabel('Width').selectOption('375');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(iframe).toHaveAttribute('width', '375');
    const rtl = await previewFrame(page);
    await expect(rtl.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(rtl.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await styleOf(rtl, '.pl-banner, .pl-header', 'border-top-left-radius')).toBeDefined();

    // The subscribers' e-mail about the page's incident, rendered by the mail code with the draft's colour.
    await page.getByLabel('Template').selectOption('email');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(iframe).toHaveAttribute('title', 'Preview of the draft: E-mail to subscribers, Dark, Right to left (Arabic), 375 px');
    const mail = (await (await iframe.elementHandle())!.contentFrame())!;
    await mail.waitForSelector('body a');
    await expect(mail.locator('html')).toHaveAttribute('dir', 'rtl');
    expect(await mail.content()).toContain('#ffd700');
    expect(await mail.locator('script').count()).toBe(0);
    expect((await demoPage(api)).brandColor?.toLowerCase()).not.toBe('#ffd700');

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('status')).toHaveText('Published. Visitors see it within seconds.');
    await expect(page.getByText('You have an unpublished draft for this page.')).toHaveCount(0);
    const published = await demoPage(api);
    expect(published.customCss).toBe(DRAFT_CSS);
    expect(published.brandColor?.toLowerCase()).toBe('#ffd700');
    await expect.poll(publicHtml, { timeout: 15_000, intervals: [250] }).toContain('rgb(1, 2, 3)');

    const publish = (await audit()).find((entry) => entry.action === 'page.branding.publish');
    expect(publish).toMatchObject({ target: before.id, before: { customCss: before.customCss ?? null }, after: { customCss: DRAFT_CSS, brandColor: '#ffd700' } });
    expect(publish?.actor).toMatch(/^operator:op_\S+ eve@example\.com$/);

    // Undo: the version the publish replaced, back through the API.
    await page.getByRole('button', { name: 'Undo the last publish' }).click();
    await expect(page.getByRole('status')).toHaveText('The earlier version is back on the page.');
    const undone = await demoPage(api);
    expect(undone.customCss ?? null).toBe(before.customCss ?? null);
    expect(undone.brandColor?.toLowerCase()).toBe(before.brandColor?.toLowerCase());
    expect(undone.headerText ?? null).toBe(before.headerText ?? null);
    await expect.poll(publicHtml, { timeout: 15_000, intervals: [250] }).not.toContain('rgb(1, 2, 3)');
    const undo = (await audit()).find((entry) => entry.action === 'page.branding.undo');
    expect(undo).toMatchObject({ target: before.id, before: { customCss: DRAFT_CSS }, after: { customCss: before.customCss ?? null } });
    // Nothing more to undo: the button is gone.
    await expect(page.getByRole('button', { name: 'Undo the last publish' })).toHaveCount(0);
  } finally {
    await api.close();
  }
});

test('a responder gets 403 on every theming route and nothing is written', async ({ page }) => {
  const api = apiFor(site);
  const store = await ConsoleStore.open({ dialect: 'sqlite', path: join(dir, 'console.db') });
  try {
    const target = await demoPage(api);
    await setUp(page, 'rob@example.com');
    const entries = (await audit()).length;
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    expect((await page.goto(`${console_}theming`))?.status()).toBe(403);
    expect((await page.goto(`${console_}theming/preview?page=${target.id}`))?.status()).toBe(403);
    for (const [path, form] of [
      ['theming', { csrf, page: target.id, intent: 'publish', customCss: 'body{display:none}', brandColor: '#123456', logoUrl: '', headerText: '', footerText: '' }],
      ['theming', { csrf, page: target.id, intent: 'preview', customCss: 'body{display:none}' }],
      ['theming/undo', { csrf, page: target.id }],
    ] as const) {
      const refused = await page.request.post(`${console_}${path}`, { form, headers: { origin } });
      expect(refused.status(), path).toBe(403);
      // Refused for the role (the token and the origin are right).
      expect(await refused.text(), path).toContain('Your role does not allow this.');
    }
    expect(await demoPage(api)).toEqual(target);
    expect((await audit()).length).toBe(entries);
    const rob = await store.credentials('rob@example.com');
    expect(await store.theming().drafts.get(rob!.operator.id, target.id)).toBeNull();
    expect(await store.theming().history.peek(target.id)).toBeNull();
  } finally {
    await store.close();
    await api.close();
  }
});

test('a custom CSS that tries to leave its style element is neutralized in the preview', async ({ page }) => {
  test.setTimeout(90_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, 'eve@example.com', { email: 'E-mail address', password: 'Password', submit: 'Sign in' });
  const screen = await page.goto(`${console_}theming`);
  // The console's policy frames its own preview route only; the preview's own forbids any script.
  expect(screen?.headers()['content-security-policy']).toContain(`frame-src ${origin}/_porchlight/console/theming/preview`);
  expect(screen?.headers()['content-security-policy']).not.toContain('script-src');
  // A long style sheet (45 KB, about 66 KB percent-encoded: more than the console's other forms may post) is taken whole.
  const long = '.a{color:red}'.repeat(3500);
  await page.getByLabel('Custom CSS', { exact: true }).fill(long);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText('You have an unpublished draft for this page.')).toBeVisible();
  expect((await page.getByLabel('Custom CSS', { exact: true }).inputValue()).length).toBe(long.length);
  const breakout = ':root{--pl-radius:13px}</style><script>alert("xss");document.title="owned"</script><img src=x onerror=alert(2)><style>';
  await page.getByLabel('Custom CSS', { exact: true }).fill(breakout);
  await page.getByLabel('Header', { exact: true }).fill('<p>Hello</p>');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('region', { name: 'What the page will remove or neutralize' })).toContainText('A closing tag such as </style> is escaped');

  const src = await page.locator('iframe').getAttribute('src');
  const document = await page.request.get(new URL(src!, origin).toString());
  expect(document.status()).toBe(200);
  expect(document.headers()['content-security-policy']).toMatch(/script-src 'none'.*frame-ancestors 'self'; sandbox$/);
  expect(document.headers()['x-frame-options']).toBe('SAMEORIGIN');
  expect(document.headers()['cache-control']).toBe('no-store');

  const frame = await previewFrame(page);
  expect(await frame.locator('script').count()).toBe(0);
  expect(await frame.locator('img[onerror]').count()).toBe(0);
  expect(await frame.title()).not.toBe('owned');
  expect(await styleOf(frame, '.pl-monitor', 'border-top-left-radius')).toBe('13px');
  expect(await frame.locator('style').last().textContent()).toContain('<\\/style><script>');
  await expect(frame.locator('.pl-owner-header')).toHaveText('Hello');
  expect(dialogs).toEqual([]);
  // Left as a draft: discarded, the form shows the page as published again.
  await page.getByRole('button', { name: 'Discard the draft' }).click();
  await expect(page.getByRole('status')).toHaveText('The draft is discarded.');
  await expect(page.getByLabel('Custom CSS', { exact: true })).not.toHaveValue(breakout);
});

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on the theming screen (${name})`, async ({ browser }) => {
    test.setTimeout(90_000);
    // axe runs as a script: JavaScript on here (the console itself has none; its CSP allows none, so axe's injection bypasses it).
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    try {
      const arabic = locale === 'ar';
      await signIn(page, 'eve@example.com', signInLabels(locale));
      await expect(page.locator('h1')).toHaveText(arabic ? ar['console.navHome'] : 'Overview');
      await page.goto(`${console_}theming`);
      if (arabic) await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      // A draft with a contrast warning and stripped parts, so every part of the screen is checked.
      await page.locator('#brandColor').fill('#ffd700');
      await page.locator('#headerText').fill('<p onclick="x()">Hi</p><script>1</script>');
      await page.locator('#customCss').fill('@import url(https://evil.test/x.css); .a{color:red}');
      await page.getByRole('button', { name: arabic ? ar['console.preview'] : 'Preview' }).click();
      await expect(page.locator('table')).toBeVisible();
      // The framed page is the public page's own markup (its axe run is theming-preview.spec.ts): the screen is what is checked here.
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).exclude('iframe').analyze();
      expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await page.getByRole('button', { name: arabic ? ar['console.theming.discard'] : 'Discard the draft' }).click();
    } finally {
      await context.close();
    }
  });
}

test('undo works after the console restarts: the kept version is in its store, not in memory', async ({ page }) => {
  test.setTimeout(120_000);
  // The API in its own process with its own file, so only Porchlight (and its console) restarts.
  const where = mkdtempSync(join(tmpdir(), 'pl-e2e-console-theming-restart-'));
  const api = await startApiProcess(join(where, 'api.db'));
  const port = await freePort();
  const at = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), SITE_PUBLIC_URL: at, CONSOLE: 'true', STATUS_API_URL: api.url, STATUS_API_KEY: api.key, SUBSCRIBERS_DB: join(where, 'subscribers.db'), HISTORY_BACKFILL_PAGES: '0' };
  let running = await startPorchlightProcess(env);
  const client = apiFor(running);
  try {
    const before = await demoPage(client);
    const added = await runPorchlight(['operator', 'add', 'ida@example.com', '--role', 'editor', '--json'], cliEnv(where, at));
    expect(added.code).toBe(0);
    await setUp(page, 'ida@example.com', (JSON.parse(added.stdout) as { setupLink: string }).setupLink);
    await page.goto(`${at}/_porchlight/console/theming?page=${before.id}`);
    await page.getByLabel('Custom CSS', { exact: true }).fill(DRAFT_CSS);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('status')).toHaveText('Published. Visitors see it within seconds.');
    expect((await demoPage(client)).customCss).toBe(DRAFT_CSS);

    await running.stop();
    running = await startPorchlightProcess(env);
    // Signed in still (the session is in the sign-in store); the undo step is still there.
    await page.reload();
    await page.getByRole('button', { name: 'Undo the last publish' }).click();
    await expect(page.getByRole('status')).toHaveText('The earlier version is back on the page.');
    expect((await demoPage(client)).customCss ?? null).toBe(before.customCss ?? null);
  } finally {
    await client.close();
    await running.stop();
    await api.stop();
    rmSync(where, { recursive: true, force: true });
  }
});
