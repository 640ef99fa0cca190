/**
 * The console's page access screen ("Who can read this page", issue 32) end to end, in Chromium
 * at 375 px with JavaScript off, against the real launcher and the embedded API: an admin gives
 * the demo's non-public page an audience and creates an invitation link, which a fresh browser
 * opens to read the page; revoking it refuses that browser within seconds, as removing one
 * viewer does; the passphrase and address ranges change without the secret reaching the audit
 * trail; an editor gets 403 and writes nothing; a form from another origin is refused; axe on
 * the screen in light, dark and right-to-left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { AudienceStore } from '../../src/audiences/store.ts';
import { apiFor, demoPage } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { DEMO_ADMIN } from '../../src/server/console-setup.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, signInAs, signInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

const PASSPHRASE = 'a shared passphrase for the build farm';
let site: PorchlightProcess;
let dir: string;
let origin: string;
let console_: string;
let pageId: string;
const links = new Map<string, string>();

const cliEnv = (): Record<string, string> => ({ ...consoleCliEnv(dir, origin), AUDIENCES_DB: join(dir, 'audiences.db'), STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey });

async function cli(args: string[]) {
  const result = await runPorchlight([...args, '--json'], cliEnv());
  return { ...result, json: result.code === 0 ? (JSON.parse(result.stdout) as unknown) : null };
}

type AuditRow = { actor: string; action: string; target: string; before: unknown; after: unknown };
const auditTrail = async () => (await cli(['audit', '--limit', '200'])).json as AuditRow[];

const signIn = (page: Page, email: string): Promise<void> => signInAs(page, console_, email, links);

/** The admin signs in and makes an invitation link on the page's access screen; the link shown once. */
async function adminInvites(page: Page, label: string): Promise<string> {
  await signIn(page, 'grace@example.com');
  await page.goto(`${console_}pages/${pageId}/access`);
  await page.getByLabel('Label (who it is for)').fill(label);
  await page.getByRole('button', { name: 'Create an invitation link' }).click();
  return page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
}

/** A visitor's own browser (no console cookie), as a mail's link opens in it. */
async function visitor(browser: Browser) {
  const context = await browser.newContext({ baseURL: site.siteUrl });
  return { context, page: await context.newPage() };
}

/** The page's status for that browser, polled until `status` (the site re-reads the store every 2 s). */
async function expectPageStatus(page: Page, status: number): Promise<void> {
  await expect.poll(async () => (await page.request.get(`${site.siteUrl}/internal/`, { maxRedirects: 0 })).status(), { timeout: 10_000, intervals: [250] }).toBe(status);
}

async function withAudiences<T>(work: (store: AudienceStore) => Promise<T>): Promise<T> {
  const store = await AudienceStore.open({ dialect: 'sqlite', path: join(dir, 'audiences.db') });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-access-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  console_ = `${origin}/_porchlight/console/`;
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: origin, CONSOLE: 'true', SUBSCRIBERS_DB: join(dir, 'subscribers.db'), AUDIENCES_DB: join(dir, 'audiences.db'), HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  for (const [email, role] of [['grace@example.com', 'admin'], ['eve@example.com', 'editor']] as const) {
    const added = await cli(['operator', 'add', email, '--role', role]);
    expect(added.code).toBe(0);
    links.set(email, (added.json as { setupLink: string }).setupLink);
  }
  const operators = (await cli(['operator', 'list'])).json as { id: string; email: string }[];
  for (const demo of operators.filter((o) => o.email === DEMO_ADMIN)) expect((await cli(['operator', 'remove', demo.id])).code).toBe(0);
  const api = apiFor(site);
  try {
    const internal = await demoPage(api, 'internal');
    expect(internal.isPublic).toBe(false);
    pageId = internal.id;
  } finally {
    await api.close();
  }
});

test.afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an admin creates an invitation link that a fresh browser reads the page with; revoked, that browser is refused within seconds', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, 'grace@example.com');
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await page.getByRole('link', { name: 'Acme Internal' }).click();
  await page.getByRole('link', { name: 'Who can read this page' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who can read “Acme Internal”');
  await expect(page.locator('[data-access=none]')).toBeVisible();
  await page.getByRole('radio', { name: /Unlisted:/ }).check();
  await page.getByRole('button', { name: 'Save the mode' }).click();
  await page.getByLabel('Label (who it is for)').fill('Build farm team');
  await page.getByLabel('Works for (days)').fill('3');
  await page.getByRole('button', { name: 'Create an invitation link' }).click();
  await expect(page.getByRole('status')).toContainText('The link for “Build farm team”, shown this once');
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${origin}/_porchlight/private/invite/inv_[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
  // Shown once: the screen itself never shows it again.
  await page.goto(`${console_}pages/${pageId}/access`);
  await expect(page.getByRole('textbox', { name: 'Invitation link' })).toHaveCount(0);
  const invitationRow = page.getByRole('row').filter({ hasText: 'Build farm team' });
  await expect(invitationRow.getByRole('cell', { name: 'valid', exact: true })).toBeVisible();

  const reader = await visitor(browser);
  try {
    await expectPageStatus(reader.page, 404);
    await reader.page.goto(link);
    await expect(reader.page).toHaveURL(/\/internal\/$/);
    await expect(reader.page.getByRole('heading', { level: 1 })).toContainText('Acme Internal');
    // The viewer it let in is listed, by the way they came.
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: 'Build farm team' }).getByRole('cell', { name: /invitation link/ })).toBeVisible();

    await page.getByRole('row').filter({ hasText: 'Build farm team' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Build farm team' }).getByRole('cell', { name: 'revoked', exact: true })).toBeVisible();
    await expectPageStatus(reader.page, 404);
    await reader.page.goto(link);
    await expect(reader.page.getByRole('heading', { level: 1 })).toHaveText('This invitation link does not work');
  } finally {
    await reader.context.close();
  }

  const trail = await auditTrail();
  expect(trail.find((e) => e.action === 'page-access.mode')).toMatchObject({ actor: expect.stringContaining('grace@example.com'), target: pageId, before: null, after: { mode: 'unlisted', passphrase: 'none', cidrs: [] } });
  expect(trail.find((e) => e.action === 'page-access.invite')).toMatchObject({ target: pageId, before: null, after: { label: 'Build farm team', revoked: false } });
  expect(trail.find((e) => e.action === 'page-access.revoke')).toMatchObject({ target: pageId, before: { revoked: false }, after: { revoked: true } });
  // The link's signature is nowhere in the trail.
  expect(JSON.stringify(trail)).not.toContain(link.split('.').at(-1));
});

test('an admin removes one viewer, who is refused within seconds while another viewer of the same link reads on', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const link = await adminInvites(page, 'Contractors');
  const first = await visitor(browser);
  const second = await visitor(browser);
  try {
    for (const reader of [first, second]) {
      await reader.page.goto(link);
      await expect(reader.page.getByRole('heading', { level: 1 })).toContainText('Acme Internal');
    }
    const viewers = await withAudiences((store) => store.viewers(pageId));
    const live = viewers.filter((v) => v.subject === 'Contractors');
    expect(live).toHaveLength(2);
    await page.goto(`${console_}pages/${pageId}/access`);
    await page.locator(`tr[data-viewer="${live[0]!.viewerId}"]`).getByRole('button', { name: 'Remove access' }).click();
    await expect(page.locator(`tr[data-viewer="${live[0]!.viewerId}"]`)).toHaveCount(0);
    await expect(page.locator(`tr[data-viewer="${live[1]!.viewerId}"]`)).toHaveCount(1);
    // Which browser was the first viewer: the one the removed grant belonged to is refused.
    const statuses = async () => Promise.all([first, second].map(async (r) => (await r.page.request.get(`${site.siteUrl}/internal/`, { maxRedirects: 0 })).status()));
    await expect.poll(async () => (await statuses()).sort(), { timeout: 10_000, intervals: [250] }).toEqual([200, 404]);
  } finally {
    await first.context.close();
    await second.context.close();
  }
  expect((await auditTrail())[0]).toMatchObject({ action: 'page-access.remove-viewer', target: pageId, before: { via: 'invitation', subject: 'Contractors' }, after: null });
});

test('the passphrase is set and removed, never shown or audited; a range is checked before it is kept', async ({ page }) => {
  await signIn(page, 'grace@example.com');
  await page.goto(`${console_}pages/${pageId}/access`);
  await page.getByLabel('New passphrase (at least 12 characters)').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Set the passphrase' }).click();
  await expect(page.locator('[data-passphrase]')).toHaveAttribute('data-passphrase', 'set');
  expect(await page.content()).not.toContain(PASSPHRASE);
  expect((await auditTrail())[0]).toMatchObject({ action: 'page-access.passphrase', before: { passphrase: 'none' }, after: { passphrase: 'set' } });
  await page.getByRole('button', { name: 'Remove the passphrase' }).click();
  await expect(page.locator('[data-passphrase]')).toHaveAttribute('data-passphrase', 'none');
  expect(JSON.stringify(await auditTrail())).not.toMatch(/build farm|scrypt/);

  await page.getByLabel(/Range \(for example/).fill('10.0.0.0/33');
  await page.getByRole('button', { name: 'Add the range' }).click();
  await expect(page.getByRole('alert')).toHaveText('That is not an address range (a.b.c.d/n or x:y::/n).');
  await page.getByLabel(/Range \(for example/).fill('10.0.0.0/8');
  await page.getByRole('button', { name: 'Add the range' }).click();
  await expect(page.getByRole('button', { name: 'Remove 10.0.0.0/8' })).toBeVisible();
  expect((await withAudiences((store) => store.access(pageId)))?.cidrs).toEqual(['10.0.0.0/8']);
  await page.getByRole('button', { name: 'Remove 10.0.0.0/8' }).click();
  await expect(page.getByText('No address ranges.')).toBeVisible();
});

test('an editor gets 403 on the screen and its forms, and nothing is written; a form from another origin is refused', async ({ page }) => {
  const before = await withAudiences(async (store) => ({ access: await store.access(pageId), invitations: await store.invitations(pageId) }));
  const accessEntries = async () => (await auditTrail()).filter((entry) => entry.action.startsWith('page-access.'));
  const trailLength = (await accessEntries()).length;
  await signIn(page, 'eve@example.com');
  expect((await page.goto(`${console_}pages/${pageId}/access`))?.status()).toBe(403);
  await page.goto(`${console_}pages/${pageId}`);
  await expect(page.getByRole('link', { name: 'Who can read this page' })).toHaveCount(0);
  const csrf = await page.locator('input[name=csrf]').first().inputValue();
  for (const [action, form] of [['mode', { mode: 'sign-in-shown' }], ['invite', { label: 'Editor link', days: '7' }], ['range-add', { range: '0.0.0.0/0' }]] as const) {
    expect((await page.request.post(`${console_}pages/${pageId}/access/${action}`, { form: { csrf, ...form }, headers: { origin } })).status(), action).toBe(403);
  }

  // The admin's own session and token, from another origin: refused before anything is read.
  await signIn(page, 'grace@example.com');
  await page.goto(`${console_}pages/${pageId}/access`);
  const adminCsrf = await page.locator('input[name=csrf]').first().inputValue();
  const crossOrigin = await page.request.post(`${console_}pages/${pageId}/access/range-add`, { form: { csrf: adminCsrf, range: '0.0.0.0/0' }, headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' } });
  expect(crossOrigin.status()).toBe(403);
  // Without the form's token, from this origin: refused too.
  expect((await page.request.post(`${console_}pages/${pageId}/access/range-add`, { form: { range: '0.0.0.0/0' }, headers: { origin } })).status()).toBe(403);

  const after = await withAudiences(async (store) => ({ access: await store.access(pageId), invitations: await store.invitations(pageId) }));
  expect(after).toEqual(before);
  expect(await accessEntries()).toHaveLength(trailLength);
});

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on the page access screen (${name})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    try {
      await signInOperator(page, console_, 'grace@example.com', { labels: signInLabels(locale) });
      await expect(page.locator('h1')).toHaveText(locale === 'ar' ? ar['console.navHome'] : 'Overview');
      await page.goto(`${console_}pages/${pageId}/access`);
      if (locale === 'ar') {
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        await expect(page.locator('h1')).toHaveText(ar['console.access.heading'].replace('{page}', 'Acme Internal'));
      }
      // With a range and a shown link, every section is on the screen.
      await page.locator('#range').fill('192.168.0.0/16');
      await page.locator('form[action$="/range-add"] button').click();
      await page.locator('#invite-label').fill(`Axe ${name}`);
      await page.locator('form[action$="/invite"] button').click();
      await expect(page.locator('#invitation-link')).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await page.goto(`${console_}pages/${pageId}/access`);
      const listed = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(listed.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}

test("an admin removes the page's whole audience by typing its slug: every reader is refused within seconds, as with the CLI", async ({ page, browser }) => {
  const link = await adminInvites(page, 'Last readers');
  const reader = await visitor(browser);
  try {
    await reader.page.goto(link);
    await expect(reader.page.getByRole('heading', { level: 1 })).toContainText('Acme Internal');
    await page.goto(`${console_}pages/${pageId}/access`);
    const confirm = page.getByLabel("Type the page's address name (internal) to remove its audience.");
    await confirm.fill('interna');
    await page.getByRole('button', { name: "Remove this page's audience" }).click();
    await expect(page.getByRole('alert')).toHaveText('The address name typed does not match; nothing was removed.');
    expect(await withAudiences((store) => store.access(pageId))).not.toBeNull();

    await confirm.fill('internal');
    await page.getByRole('button', { name: "Remove this page's audience" }).click();
    await expect(page.locator('[data-access="none"]')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create an invitation link' })).toHaveCount(0);
    expect(await withAudiences((store) => store.access(pageId))).toBeNull();
    await expect.poll(async () => (await reader.page.request.get(`${site.siteUrl}/internal/`, { maxRedirects: 0 })).status(), { timeout: 10_000, intervals: [250] }).toBe(404);
  } finally {
    await reader.context.close();
  }
  expect((await auditTrail())[0]).toMatchObject({ action: 'page-access.remove', target: pageId, after: null, actor: expect.stringContaining('grace@example.com') });
});
