/**
 * The operators' console end to end, in Chromium at 375 px with JavaScript off (every form is a
 * plain POST and a redirect), against the real launcher and the embedded API: operators added with
 * `porchlight operator add`, their set-up links, sign-in, an incident opened from the CLI's
 * template and on the public page within 2 s, roles checked on the server, forms from another
 * origin refused, the cookie's flags, sign-in throttling by address, axe on every screen (light,
 * dark, right-to-left), the console absent from custom domains and from the export.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { apiFor, demoPage } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { runExport } from './support/export-process.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { DEFAULT_THROTTLE_POLICY } from '../../src/auth/throttle.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, OPERATOR_PASSWORD, setUpOperator, signInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

const PASSWORD = OPERATOR_PASSWORD;
let site: PorchlightProcess;
let dir: string;
let origin: string;
let console_: string;
const links = new Map<string, string>();

const cliEnv = (): Record<string, string> => consoleCliEnv(dir, origin);

async function addOperator(email: string, role: string): Promise<string> {
  const result = await runPorchlight(['operator', 'add', email, '--role', role, '--json'], cliEnv());
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const parsed = JSON.parse(result.stdout) as { setupLink: string; role: string };
  expect(parsed.role).toBe(role);
  return parsed.setupLink;
}

const setUp = (page: Page, email: string): Promise<void> => setUpOperator(page, links.get(email)!);
const signIn = (page: Page, email: string, password = PASSWORD): Promise<void> => signInOperator(page, console_, email, { password });

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  console_ = `${origin}/_porchlight/console/`;
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: origin, CONSOLE: 'true', SUBSCRIBERS_DB: join(dir, 'subscribers.db'), HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  for (const [email, role] of [['ada@example.com', 'responder'], ['grace@example.com', 'admin']] as const) links.set(email, await addOperator(email, role));
});

test.afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an operator sets a password, signs in and opens an incident from a template at 375 px; the public page shows it within 2 s', async ({ page }) => {
  await setUp(page, 'ada@example.com');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
  await signIn(page, 'ada@example.com');
  await expect(page.getByText('Signed in as ada@example.com (Responder)')).toBeVisible();

  await page.getByRole('link', { name: 'Open an incident' }).first().click();
  await page.getByRole('link', { name: 'db-outage' }).click();
  await page.getByLabel('Value of region').fill('eu-west');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'What the page will say' });
  await expect(preview).toContainText('Database unavailable in eu-west');
  await expect(preview).toContainText('Requests that need the database in eu-west are failing');
  // Nothing is published by a preview.
  const api = apiFor(site);
  try {
    const titles = async () => (await api.incidents.list()).data.map((incident) => incident.title);
    expect(await titles()).not.toContain('Database unavailable in eu-west');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Database unavailable in eu-west' })).toBeVisible();
    const published = Date.now();
    // The demo page on its custom domain, as a visitor reaches it.
    await expect.poll(async () => (await (await request(`${origin}/`, { headers: { host: 'status.acme.test' } })).body.text()).includes('Database unavailable in eu-west'), { timeout: 2_000, intervals: [100] }).toBe(true);
    expect(Date.now() - published).toBeLessThan(2_000);

    // An update, then the resolution, from the incident's own screen.
    await page.getByLabel('Status').selectOption('resolved');
    await page.getByLabel('Message').fill('Fixed: the failover completed.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    const incident = (await api.incidents.list()).data.find((i) => i.title === 'Database unavailable in eu-west');
    expect(incident?.status).toBe('resolved');
  } finally {
    await api.close();
  }

  // Maintenance: schedule, change, cancel.
  await page.goto(`${console_}maintenance/new`);
  await page.getByLabel('Title').fill('Database upgrade');
  await page.getByLabel('Starts (UTC)').fill('2030-01-05T10:00');
  await page.getByLabel('Ends (UTC)').fill('2030-01-05T11:00');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Database upgrade' }).click();
  await page.getByLabel('Ends (UTC)').fill('2030-01-05T12:00');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Database upgrade' }).click();
  await expect(page.getByLabel('Ends (UTC)')).toHaveValue('2030-01-05T12:00');
  await page.getByRole('button', { name: 'Cancel this maintenance' }).click();
  await expect(page.getByRole('link', { name: 'Database upgrade' })).toHaveCount(0);

  // The audit trail has each change, who made it, before and after; so does `porchlight audit`.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page.getByRole('cell', { name: /incident\.open/ })).toBeVisible();
  const audit = await runPorchlight(['audit', '--json'], cliEnv());
  const entries = JSON.parse(audit.stdout) as { actor: string; action: string; before: unknown; after: unknown }[];
  expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['incident.open', 'incident.resolve', 'maintenance.schedule', 'maintenance.change', 'maintenance.cancel', 'operator.add']));
  const change = entries.find((e) => e.action === 'maintenance.change')!;
  expect(change.actor).toMatch(/^operator:op_\S+ ada@example\.com$/);
  expect(change.before).toMatchObject({ scheduledEnd: '2030-01-05T11:00:00.000Z' });
  expect(change.after).toMatchObject({ scheduledEnd: '2030-01-05T12:00:00.000Z' });
});

test('the session cookie is HttpOnly and SameSite=Strict, scoped to the console', async ({ page, context }) => {
  await signIn(page, 'ada@example.com');
  await expect(page.getByText('Signed in as ada@example.com (Responder)')).toBeVisible();
  const cookie = (await context.cookies(console_)).find((c) => c.name === 'pl-console');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/_porchlight/console/' });
  // Plain HTTP on loopback (development): the one case without Secure and __Host- (unit-tested).
  expect(cookie?.secure).toBe(false);
  expect((await context.cookies(`${origin}/acme`)).some((c) => c.name === 'pl-console')).toBe(false);
});

test('a responder gets 403 on a branding change and nothing is written; an admin\'s goes through', async ({ page }) => {
  const api = apiFor(site);
  try {
    const before = (await demoPage(api)).brandColor;
    await signIn(page, 'ada@example.com');
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    expect((await page.goto(`${console_}branding`))?.status()).toBe(403);
    expect((await page.goto(`${console_}operators`))?.status()).toBe(403);
    const refused = await page.request.post(`${console_}branding`, { form: { csrf, page: (await demoPage(api)).id, brandColor: '#123456' }, headers: { origin } });
    expect(refused.status()).toBe(403);
    expect((await demoPage(api)).brandColor).toBe(before);

    await page.context().clearCookies();
    await setUp(page, 'grace@example.com');
    await page.goto(`${console_}branding`);
    await page.getByLabel('Brand color').first().fill('#123456');
    await page.getByRole('button', { name: 'Save' }).first().click();
    expect((await demoPage(api)).brandColor?.toLowerCase()).toBe('#123456');
    // The colour went through the theming history: the theming screen's Undo puts the old one back.
    await page.goto(`${console_}theming?page=${(await demoPage(api)).id}`);
    await page.getByRole('button', { name: 'Undo the last publish' }).click();
    expect((await demoPage(api)).brandColor).toBe(before);

    // An admin adds an operator from the console; the set-up link is shown once.
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByLabel('E-mail address').fill('linus@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add an operator' }).click();
    await expect(page.getByRole('status')).toContainText('Set-up link for linus@example.com');
    await expect(page.getByRole('cell', { name: 'linus@example.com', exact: true })).toBeVisible();
  } finally {
    await api.close();
  }
});

test('a form posted from another origin is refused, even with the right token', async ({ page }) => {
  await signIn(page, 'ada@example.com');
  const csrf = await page.locator('input[name=csrf]').first().inputValue();
  // Another origin on this machine (another port: same site, so the SameSite cookie still goes along).
  const evil: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><form method="post" action="${console_}incidents"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="intent" value="publish"><input type="hidden" name="title" value="Forged incident"><input type="hidden" name="severity" value="critical"><input type="hidden" name="status" value="investigating"><input type="hidden" name="message" value="forged"><button>go</button></form>`);
  });
  const evilPort = await freePort();
  await new Promise<void>((resolve) => evil.listen(evilPort, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${evilPort}/`);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${console_}incidents`), page.getByRole('button', { name: 'go' }).click()]);
    expect(answer.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: /This form was not sent from the console/ })).toBeVisible();
    const api = apiFor(site);
    try {
      expect((await api.incidents.list()).data.map((incident) => incident.title)).not.toContain('Forged incident');
    } finally {
      await api.close();
    }
  } finally {
    await new Promise((resolve) => evil.close(resolve));
  }
});

test('ten wrong passwords from one address slow it down, and do not lock the right operator out from another', async ({ page }) => {
  // The guesser: another loopback address (127.0.0.7), a plain HTTP client.
  const guesser = new Agent({ connect: { localAddress: '127.0.0.7' } });
  try {
    const form = await request(`${console_}sign-in`, { dispatcher: guesser });
    const pre = /pl-console-pre=([^;]+)/.exec(String(form.headers['set-cookie']))?.[1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.body.text())?.[1];
    expect(pre && csrf).toBeTruthy();
    const attempt = async (password: string) => {
      const answer = await request(`${console_}sign-in`, {
        dispatcher: guesser,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `pl-console-pre=${pre}`, origin },
        body: new URLSearchParams({ csrf: csrf!, email: 'ada@example.com', password }).toString(),
      });
      await answer.body.dump();
      return { status: answer.statusCode, retryAfter: answer.headers['retry-after'] };
    };
    const results = [];
    for (let i = 0; i < 10; i += 1) results.push(await attempt(`wrong password ${i}`));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([401, 401, 401]);
    const slowed = results.filter((r) => r.status === 429);
    expect(slowed.length).toBeGreaterThan(0);
    expect(Number(slowed[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    // Even the right password waits from the guesser's address...
    expect((await attempt(PASSWORD)).status).toBe(429);
  } finally {
    await guesser.close();
  }
  // ...while the operator, from their own address, gets in: at once, or after the account-wide
  // delay, which is capped at seconds (DEFAULT_THROTTLE_POLICY.account), never a lock-out.
  const started = Date.now();
  await expect(async () => {
    await signIn(page, 'ada@example.com');
    await expect(page.getByText('Signed in as ada@example.com (Responder)')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000, intervals: [1_000] });
  expect(Date.now() - started).toBeLessThan(DEFAULT_THROTTLE_POLICY.account.capMs + 10_000);
});

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on any console screen (${name})`, async ({ browser }) => {
    test.setTimeout(120_000);
    // axe runs as a script: JavaScript on here (the console itself has none; its CSP allows none, so axe's injection bypasses it).
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    try {
      const check = async (path: string) => {
        await page.goto(`${console_}${path}`);
        if (locale === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        expect(results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      };
      await check('sign-in');
      await signInOperator(page, console_, 'grace@example.com', { password: PASSWORD, labels: signInLabels(locale) });
      // Signed in (the admin set up in an earlier test): the screens below are the real ones, not the sign-in form again.
      await expect(page.locator('h1')).toHaveText(locale === 'ar' ? ar['console.navHome'] : 'Overview');
      for (const path of ['', 'incidents/new', 'incidents/new?template=db-outage', 'maintenance/new', 'branding', 'audit', 'operators']) await check(path);
      const api = apiFor(site);
      try {
        const incident = (await api.incidents.list()).data[0];
        if (incident) await check(`incidents/${incident.id}`);
      } finally {
        await api.close();
      }
    } finally {
      await context.close();
    }
  });
}

test('the console is 404 on a custom domain and absent from the export', async () => {
  for (const path of ['/_porchlight/console/', '/_porchlight/console/sign-in']) {
    const answer = await request(`${origin}${path}`, { headers: { host: 'status.acme.test' } });
    expect(answer.statusCode).toBe(404);
    expect(await answer.body.text()).not.toContain('console');
  }
  const onMain = await request(`${console_}sign-in`);
  expect(onMain.statusCode).toBe(200);
  expect(onMain.headers['cache-control']).toBe('no-store');
  expect(onMain.headers['cross-origin-opener-policy']).toBe('same-origin');
  await onMain.body.dump();

  const out = join(dir, 'export');
  const run = await runExport(['--out', out], { apiUrl: site.apiUrl, apiKey: site.apiKey });
  expect(run.code).toBe(0);
  const files = readdirSync(out, { recursive: true }).map(String);
  expect(files.length).toBeGreaterThan(0);
  expect(files.filter((file) => file.includes('_porchlight') || file.includes('console'))).toEqual([]);
});
