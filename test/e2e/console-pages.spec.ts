/**
 * The console's pages, monitors and operator screens end to end, in Chromium at 375 px with
 * JavaScript off, against the real launcher and the embedded API (set up as console.spec.ts):
 * an admin creates a page and it answers on the public site within 2 s; a page's monitors are
 * reordered with plain-form buttons; an editor pauses a monitor but cannot remove an operator
 * (403, nothing written); the last admin is kept; the CLI's `operator role|remove` are audited
 * with values before and after; subscriber counts, the CSV export and a removal, a chat subscription shown by its host and removed; axe on the new screens in light, dark and right-to-left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { apiFor, demoPage } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { DEMO_ADMIN } from '../../src/server/console-setup.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { parseEmailAddress } from '../../src/subscribers/email-address.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, signInAs, signInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

let site: PorchlightProcess;
let dir: string;
let origin: string;
let console_: string;
const links = new Map<string, string>();

const cliEnv = (): Record<string, string> => consoleCliEnv(dir, origin);

async function cli(args: string[]) {
  const result = await runPorchlight([...args, '--json'], cliEnv());
  return { ...result, json: result.code === 0 ? (JSON.parse(result.stdout) as unknown) : null };
}

const signIn = (page: Page, email: string): Promise<void> => signInAs(page, console_, email, links);

type AuditRow = { actor: string; action: string; target: string; before: unknown; after: unknown };
const auditTrail = async () => (await cli(['audit', '--limit', '200'])).json as AuditRow[];
const operators = async () => (await cli(['operator', 'list'])).json as { id: string; email: string; role: string }[];

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-pages-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  console_ = `${origin}/_porchlight/console/`;
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: origin, CONSOLE: 'true', SUBSCRIBERS_DB: join(dir, 'subscribers.db'), HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  for (const [email, role] of [['grace@example.com', 'admin'], ['eve@example.com', 'editor'], ['vic@example.com', 'viewer']] as const) {
    const added = await cli(['operator', 'add', email, '--role', role]);
    expect(added.code).toBe(0);
    links.set(email, (added.json as { setupLink: string }).setupLink);
  }
  // The embedded demo's own first admin, when start-up made one: grace is to be the only admin.
  for (const demo of (await operators()).filter((o) => o.email === DEMO_ADMIN)) expect((await cli(['operator', 'remove', demo.id])).code).toBe(0);
});

test.afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an admin creates a page and it answers on the public site within 2 s; its monitors are reordered without JavaScript', async ({ page }) => {
  await signIn(page, 'grace@example.com');
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await page.getByLabel('Name').fill('Billing');
  await page.getByLabel('Slug (the address of the page)').fill('billing');
  await page.getByRole('button', { name: 'Create a page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const created = Date.now();
  await expect.poll(async () => (await request(`${origin}/billing`)).statusCode, { timeout: 2_000, intervals: [100] }).toBe(200);
  expect(Date.now() - created).toBeLessThan(2_000);
  expect((await auditTrail()).find((entry) => entry.action === 'page.create')).toMatchObject({ actor: expect.stringContaining('grace@example.com'), before: null, after: { slug: 'billing', isPublic: true } });

  // The demo page: its custom domain with the TLS gate's verdict, its monitors in order.
  const api = apiFor(site);
  try {
    const acme = await demoPage(api);
    const order = async () => [...(await demoPage(api)).monitors].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0)).map((link) => link.monitorId);
    const before = await order();
    expect(before.length).toBeGreaterThan(1);
    await page.goto(`${console_}pages/${acme.id}`);
    await expect(page.locator('#tls-verdict')).toHaveText('Certificate: the TLS gate allows this domain.');
    const second = page.locator(`li[data-monitor="${before[1]}"]`);
    await second.getByRole('button', { name: 'Move up' }).click();
    await expect(page.locator('ol li').first()).toHaveAttribute('data-monitor', before[1]!);
    expect(await order()).toEqual([before[1], before[0], ...before.slice(2)]);
    const audited = (await auditTrail()).find((entry) => entry.action === 'page.monitors');
    expect(audited).toMatchObject({ target: acme.id, before: { monitors: before }, after: { monitors: [before[1], before[0], ...before.slice(2)] } });
    // And back down: the first one's "Move up" is disabled, its "Move down" works.
    await page.locator(`li[data-monitor="${before[1]}"]`).getByRole('button', { name: 'Move down' }).click();
    expect(await order()).toEqual(before);
    await expect(page.locator('ol li').first().getByRole('button', { name: 'Move up' })).toBeDisabled();
  } finally {
    await api.close();
  }
});

test('an editor pauses and resumes a monitor, and the CLI\'s pause is audited with a before value; a viewer sees the states but cannot', async ({ page }) => {
  const api = apiFor(site);
  try {
    const monitor = (await api.monitors.list()).data.find((m) => m.active !== false)!;
    await signIn(page, 'vic@example.com');
    await page.getByRole('link', { name: 'Monitors', exact: true }).click();
    await expect(page.getByRole('cell', { name: monitor.name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    expect((await page.request.post(`${console_}monitors/${monitor.id}`, { form: { csrf, intent: 'pause' }, headers: { origin } })).status()).toBe(403);
    expect((await api.monitors.get(monitor.id)).active).not.toBe(false);

    await signIn(page, 'eve@example.com');
    await page.goto(`${console_}monitors`);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: monitor.name, exact: true }) });
    await row.getByRole('button', { name: 'Pause' }).click();
    await expect(row.getByRole('cell', { name: 'Paused' })).toBeVisible();
    expect((await api.monitors.get(monitor.id)).active).toBe(false);
    expect((await auditTrail()).find((entry) => entry.action === 'monitor.pause')).toMatchObject({ target: monitor.id, before: { active: true }, after: { active: false, status: 'paused' } });
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect(row.getByRole('button', { name: 'Pause' })).toBeVisible();
    expect((await api.monitors.get(monitor.id)).active).toBe(true);

    // The CLI's pause is audited with the monitor before the change too.
    const paused = await runPorchlight(['monitor', 'pause', monitor.id], { ...cliEnv(), STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey });
    expect(paused.code).toBe(0);
    expect((await auditTrail())[0]).toMatchObject({ actor: expect.stringMatching(/^cli:/), action: 'monitor.pause', target: monitor.id, before: { id: monitor.id, status: expect.not.stringMatching(/^paused$/) }, after: { id: monitor.id, status: 'paused' } });
    expect((await runPorchlight(['monitor', 'resume', monitor.id], { ...cliEnv(), STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey })).code).toBe(0);
  } finally {
    await api.close();
  }
});

test('an editor cannot remove an operator (403, nothing written); an admin changes roles and removes, never the last admin', async ({ page }) => {
  const vic = (await operators()).find((o) => o.email === 'vic@example.com')!;
  const grace = (await operators()).find((o) => o.email === 'grace@example.com')!;
  await signIn(page, 'eve@example.com');
  const auditBefore = (await auditTrail()).length;
  const csrf = await page.locator('input[name=csrf]').first().inputValue();
  for (const [path, form] of [[`operators/${vic.id}/remove`, {}], [`operators/${vic.id}/role`, { role: 'admin' }]] as const) {
    expect((await page.request.post(`${console_}${path}`, { form: { csrf, ...form }, headers: { origin } })).status()).toBe(403);
  }
  expect((await operators()).find((o) => o.id === vic.id)?.role).toBe('viewer');
  expect(await auditTrail()).toHaveLength(auditBefore);

  // The viewer is signed in elsewhere; the admin removes them and that session ends at once.
  const elsewhere = await page.context().browser()!.newContext({ javaScriptEnabled: false });
  try {
    const vicPage = await elsewhere.newPage();
    await signIn(vicPage, 'vic@example.com');
    await signIn(page, 'grace@example.com');
    await page.goto(`${console_}operators`);
    // The last admin: neither demoted nor removed.
    await page.getByLabel('Role of grace@example.com').selectOption('editor');
    await page.getByRole('row').filter({ hasText: 'grace@example.com' }).getByRole('button', { name: 'Change the role' }).click();
    await expect(page.getByRole('alert')).toHaveText('The console must keep an admin: make another operator admin first.');
    expect((await operators()).find((o) => o.id === grace.id)?.role).toBe('admin');

    await page.getByLabel('Role of eve@example.com').selectOption('responder');
    await page.getByRole('row').filter({ hasText: 'eve@example.com' }).getByRole('button', { name: 'Change the role' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'eve@example.com' }).getByRole('cell', { name: 'Responder', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Remove vic@example.com' }).click();
    await expect(page.getByRole('cell', { name: 'vic@example.com' })).toHaveCount(0);
    await vicPage.goto(`${console_}monitors`);
    await expect(vicPage.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
  } finally {
    await elsewhere.close();
  }
  const trail = await auditTrail();
  expect(trail.find((e) => e.action === 'operator.role')).toMatchObject({ before: { email: 'eve@example.com', role: 'editor' }, after: { role: 'responder' } });
  expect(trail.find((e) => e.action === 'operator.remove')).toMatchObject({ target: vic.id, before: { email: 'vic@example.com', role: 'viewer' }, after: null });

  // The CLI: the same rule and the same audit entries, as cli:<user>.
  const refused = await runPorchlight(['operator', 'remove', 'grace@example.com'], cliEnv());
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('last admin');
  expect((await cli(['operator', 'role', 'eve@example.com', '--role', 'admin'])).json).toMatchObject({ before: 'responder', after: 'admin' });
  expect((await cli(['operator', 'remove', 'grace@example.com'])).code).toBe(0);
  const cliTrail = await auditTrail();
  expect(cliTrail[0]).toMatchObject({ actor: expect.stringMatching(/^cli:/), action: 'operator.remove', before: { email: 'grace@example.com', role: 'admin' }, after: null });
  expect(cliTrail[1]).toMatchObject({ actor: expect.stringMatching(/^cli:/), action: 'operator.role', before: { role: 'responder' }, after: { role: 'admin' } });
});

test('an admin deletes a page by typing its slug, and it is gone from the public site within 2 s; an editor cannot', async ({ page }) => {
  const api = apiFor(site);
  let id: string;
  try {
    id = (await api.statusPages.create({ name: 'Doomed', slug: 'doomed', isPublic: true })).id;
  } finally {
    await api.close();
  }
  await expect.poll(async () => (await request(`${origin}/doomed`)).statusCode, { timeout: 10_000 }).toBe(200);
  // By now eve is the admin (the test above); an editor of our own.
  const added = await cli(['operator', 'add', 'ed@example.com', '--role', 'editor']);
  expect(added.code).toBe(0);
  links.set('ed@example.com', (added.json as { setupLink: string }).setupLink);
  await signIn(page, 'ed@example.com');
  await page.goto(`${console_}pages/${id}`);
  // An editor sees no delete form, and a posted one is refused.
  await expect(page.getByRole('button', { name: 'Delete this page' })).toHaveCount(0);
  const csrf = await page.locator('input[name=csrf]').first().inputValue();
  expect((await page.request.post(`${console_}pages/${id}/delete`, { form: { csrf, confirmSlug: 'doomed' }, headers: { origin } })).status()).toBe(403);

  await signIn(page, 'eve@example.com');
  await page.goto(`${console_}pages/${id}`);
  await page.getByLabel(/Type the page's address name \(doomed\)/).fill('billing');
  await page.getByRole('button', { name: 'Delete this page' }).click();
  await expect(page.getByText('The address name typed does not match; nothing was deleted.')).toBeVisible();
  expect((await request(`${origin}/doomed`)).statusCode).toBe(200);

  await page.getByLabel(/Type the page's address name \(doomed\)/).fill('doomed');
  await page.getByRole('button', { name: 'Delete this page' }).click();
  const deleted = Date.now();
  await expect(page).toHaveURL(`${console_}pages`);
  await expect.poll(async () => (await request(`${origin}/doomed`)).statusCode, { timeout: 2_000, intervals: [100] }).toBe(404);
  expect(Date.now() - deleted).toBeLessThan(2_000);
  expect((await auditTrail()).find((entry) => entry.action === 'page.delete')).toMatchObject({ target: id, actor: expect.stringContaining('eve@example.com'), before: { slug: 'doomed' }, after: null });
});

test('an admin sees subscriber counts, downloads a page\'s confirmed addresses and removes one address', async ({ page }) => {
  const api = apiFor(site);
  const store = await SubscriberStore.open(join(dir, 'subscribers.db'));
  try {
    const acme = await demoPage(api);
    for (const address of ['kim@example.com', 'lee@example.com', 'pat@example.com']) {
      const made = await store.subscribe(acme.id, parseEmailAddress(address)!, [], Date.now());
      if (address !== 'pat@example.com') await store.confirm(made!.token, Date.now());
    }
    const hook = (await store.subscribeEndpoint(acme.id, { channel: 'slack', url: 'https://hooks.slack.com/services/T0/B0/SECRETTOKEN', host: 'hooks.slack.com', signingSecret: null, contactEmail: null }, [], Date.now(), null))!;
    await store.confirmEndpoint(hook, Date.now());
    // One that stays, so that axe (below) sees the webhooks and chats table too.
    await store.confirmEndpoint((await store.subscribeEndpoint(acme.id, { channel: 'webhook', url: 'https://ops.example/in/OTHERTOKEN', host: 'ops.example', signingSecret: null, contactEmail: null }, [], Date.now(), null))!, Date.now());
    await signIn(page, 'eve@example.com');
    await page.getByRole('link', { name: 'Subscribers', exact: true }).click();
    // The counts' table (the webhooks and chats table names the page too).
    const row = page.getByRole('table').first().getByRole('row').filter({ has: page.getByRole('cell', { name: acme.name, exact: true }) });
    await expect(row.getByRole('cell')).toHaveText([acme.name, '2', '1', '2', /^Export confirmed addresses \(CSV\)\s*Export webhooks and chats \(CSV\)$/]);
    // Webhooks and chats exported as the CLI exports them: by host, never the URL.
    const endpointsCsv = await page.request.get(new URL(await row.getByRole('link', { name: 'Export webhooks and chats (CSV)' }).getAttribute('href') ?? '', page.url()).href);
    expect(endpointsCsv.headers()['content-type']).toContain('text/csv');
    const [header, ...endpointLines] = (await endpointsCsv.text()).trim().split('\r\n').map((line) => line.split(',').slice(0, 2).join(' '));
    expect(header).toBe('channel endpoint_host');
    // Oldest first; the two were made within a millisecond or two of each other.
    expect(endpointLines.sort()).toEqual(['slack hooks.slack.com', 'webhook ops.example']);
    expect(await endpointsCsv.text()).not.toMatch(/SECRETTOKEN|OTHERTOKEN/);
    // The chat subscription by its host only (its URL is a credential), removed with a button.
    await expect(page.getByRole('region', { name: 'Webhooks and chats' })).toContainText('hooks.slack.com');
    expect(await page.content()).not.toMatch(/SECRETTOKEN|OTHERTOKEN/);
    await page.getByRole('button', { name: 'Remove the Slack subscription to hooks.slack.com' }).click();
    await expect(page.getByRole('status')).toHaveText('The Slack subscription to hooks.slack.com was removed.');
    await expect(row.getByRole('cell').nth(3)).toHaveText('1');
    expect(await store.get(hook)).toBeNull();
    expect((await auditTrail()).find((e) => e.action === 'subscriber.remove' && e.target === hook)).toMatchObject({ actor: expect.stringContaining('eve@example.com'), before: { channel: 'slack', target: 'hooks.slack.com', pageId: acme.id }, after: null });
    const csv = await page.request.get(`${console_}subscribers/export?page=${acme.id}`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(csv.headers()['cache-control']).toBe('no-store');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines.map((line) => line.split(',')[0]).sort()).toEqual(['email', 'kim@example.com', 'lee@example.com']);

    await page.getByLabel('Page', { exact: true }).selectOption(acme.id);
    await page.getByLabel('E-mail address').fill('kim@example.com');
    await page.getByRole('button', { name: 'Remove a subscriber' }).click();
    await expect(page.getByRole('status')).toHaveText('kim@example.com was removed.');
    await expect(row.getByRole('cell').nth(1)).toHaveText('1');
    expect((await store.find('kim@example.com')).length).toBe(0);
    expect((await auditTrail()).find((e) => e.action === 'subscriber.remove' && e.target !== hook)).toMatchObject({ actor: expect.stringContaining('eve@example.com'), before: { email: 'kim@example.com', pageId: acme.id, state: 'confirmed' }, after: null });

  } finally {
    await store.close();
    await api.close();
  }
});

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on the pages, page, monitors, operators and subscribers screens (${name})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    const api = apiFor(site);
    try {
      // eve is the admin now (the test before).
      await signInOperator(page, console_, 'eve@example.com', { labels: signInLabels(locale) });
      await expect(page.locator('h1')).toHaveText(locale === 'ar' ? ar['console.navHome'] : 'Overview');
      for (const path of ['pages', `pages/${(await demoPage(api)).id}`, 'monitors', 'operators', 'subscribers']) {
        await page.goto(`${console_}${path}`);
        if (locale === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
        expect(results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
    } finally {
      await api.close();
      await context.close();
    }
  });
}
