/**
 * Pages with an audience (issue 32, docs/private-pages.md), against the real server and its
 * embedded API: a stranger gets a missing page's bytes from every output of an unlisted page;
 * its audience gets in through an invitation link, a passphrase or an address range, sees the
 * page, its JSON and its feed (private, no-store, noindex); nothing of it reaches another
 * visitor through the front cache, the sitemap or the TLS gate; the sign-in page passes axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, request as requests, type APIRequestContext, type Browser } from '@playwright/test';
import { AudienceStore } from '../../src/audiences/store.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { apiFor } from './support/api.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { runExport } from './support/export-process.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { WCAG_AA } from './support/axe-tags.ts';

test.describe.configure({ mode: 'serial' });

const PASSPHRASE = 'correct horse battery staple';
let site: PorchlightProcess;
let dir: string;
let cliEnv: Record<string, string>;
/** A client with no cookies, at the site. */
let request: APIRequestContext;

async function cli(...args: string[]): Promise<string> {
  const result = await runPorchlight([...args, '--site-url', site.siteUrl], cliEnv);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Every output of a page, below its root. */
const OUTPUTS = [
  '', 'history/', 'incidents/inc_nope', 'components/mon_web/', 'components/mon_web/badge.svg',
  'api/v2/summary.json', 'api/v2/status.json', 'api/v2/components.json', 'api/v2/incidents.json', 'api/v2/incidents/unresolved.json',
  'api/v2/scheduled-maintenances.json', 'api/v2/scheduled-maintenances/upcoming.json', 'api/v2/scheduled-maintenances/active.json',
  'history.atom', 'history.rss', 'maintenance.ics', 'badge.svg', 'widget', 'card.png', 'favicon.svg', 'favicon.png', 'subscribe', 'de/',
];

async function answer(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const response = await request.get(path, { headers, maxRedirects: 0 });
  return { status: response.status(), type: response.headers()['content-type'], cache: response.headers()['cache-control'], body: (await response.body()).toString('base64') };
}

/** A browser context of a visitor who has nothing (no cookie). */
async function stranger(browser: Browser) {
  return browser.newContext({ baseURL: site.siteUrl });
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-private-'));
  const port = await freePort();
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SUBSCRIBERS_DB: join(dir, 'subscribers.db'),
    AUDIENCES_DB: join(dir, 'audiences.db'),
    HISTORY_BACKFILL_PAGES: '0',
    // Subscriptions on (the demo's local mailbox): the subscribe routes are their thread's.
    SUBSCRIPTIONS: 'true',
    DEMO_MAIL_DIR: join(dir, 'mail'),
  });
  request = await requests.newContext({ baseURL: site.siteUrl });
  cliEnv = { STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey, AUDIENCES_DB: join(dir, 'audiences.db') };
  writeFileSync(join(dir, 'passphrase'), `${PASSPHRASE}\n`);
  await cli('page-access', 'set', 'internal', '--passphrase-file', join(dir, 'passphrase'));
});

test.afterAll(async () => {
  await request?.dispose();
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('for a stranger every output of an unlisted page is a missing page\'s bytes and status, with or without a viewer cookie', async () => {
  test.setTimeout(90_000);
  for (const output of OUTPUTS) {
    const missing = await answer(request, `/no-such-page/${output}`);
    expect(await answer(request, `/internal/${output}`), output).toEqual(missing);
    // A cookie that opens nothing takes the private relay: the answer is still the stranger's.
    expect(await answer(request, `/internal/${output}`, { cookie: 'porchlight-viewer=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), `${output} with a cookie`).toEqual(missing);
  }
  // Subscribing, as a form posts it: the missing page's answer.
  const subscribe = async (slug: string) => {
    const response = await request.post(`/${slug}/subscribe`, { form: { email: 'someone@example.com' }, headers: { origin: site.siteUrl } });
    return { status: response.status(), body: await response.text() };
  };
  expect(await subscribe('internal')).toEqual(await subscribe('no-such-page'));
  // The sign-in address names nothing either: the same form for the page and for no page.
  const form = async (slug: string) => (await request.get(`/_porchlight/private/${slug}/sign-in`)).text();
  const scrub = (html: string) => html.replace(/value="[A-Za-z0-9_-]{43}"/g, '').replaceAll('no-such-page', 'SLUG').replaceAll('internal', 'SLUG');
  expect(scrub(await form('internal'))).toBe(scrub(await form('no-such-page')));
});

test('an invitation link lets its visitor in: the page, its JSON and its feed, private and unindexed; others still get the 404', async ({ browser }) => {
  test.setTimeout(60_000);
  const link = JSON.parse(await cli('page-access', 'invite', 'internal', '--label', 'Build farm team', '--json')).url as string;
  const viewer = await browser.newContext();
  const page = await viewer.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/internal\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Internal');
  const json = await viewer.request.get(`${site.siteUrl}/internal/api/v2/summary.json`);
  expect(json.status()).toBe(200);
  expect((await json.json()).page.name).toBe('Acme Internal');
  for (const response of [json, await viewer.request.get(`${site.siteUrl}/internal/`)]) {
    expect(response.headers()['cache-control']).toBe('private, no-store');
    expect(response.headers()['x-robots-tag']).toBe('noindex');
    expect(response.headers()['cross-origin-opener-policy']).toBe('same-origin');
  }
  // The feed through the viewer's own address, read without any cookie (a feed reader).
  await page.goto(`${site.siteUrl}/_porchlight/private/internal/feeds`);
  await page.getByRole('button', { name: 'Make my addresses' }).click();
  const atom = (await page.locator('dd code').first().textContent()) ?? '';
  expect(atom).toMatch(/\/_porchlight\/private\/feed\/[A-Za-z0-9_-]{43}\/history\.atom$/);
  const reader = await stranger(browser);
  const feed = await reader.request.get(atom);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('Acme Internal');
  expect(feed.headers()['cache-control']).toBe('private, no-store');
  // Right after the viewer, a stranger gets the 404: nothing was kept for them.
  expect(await answer(reader.request, '/internal/')).toEqual(await answer(reader.request, '/no-such-page/'));
  expect(await answer(reader.request, '/internal/api/v2/summary.json')).toEqual(await answer(reader.request, '/no-such-page/api/v2/summary.json'));
  // Nothing of it in the main host's listings.
  for (const path of ['/sitemap.xml', '/robots.txt', '/']) expect(await (await reader.request.get(path)).text(), path).not.toContain('internal');
  await reader.close();
  await viewer.close();
});

test("a viewer's page offers their own feed addresses, an e-mail subscription and a sign-out that needs its CSRF token, not the public links", async ({ browser }) => {
  test.setTimeout(60_000);
  const link = JSON.parse(await cli('page-access', 'invite', 'internal', '--label', 'Sign-out check', '--json')).url as string;
  const viewer = await browser.newContext();
  const page = await viewer.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/internal\/$/);
  // The public links are not there (their feeds need a cookie a reader lacks); the subscription form is e-mail only.
  await expect(page.locator('#integrate')).toHaveCount(0);
  await expect(page.locator('#subscribe input[name="email"]')).toHaveCount(1);
  await expect(page.locator('input[name="webhook_url"]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Make my addresses' })).toHaveAttribute('href', '/_porchlight/private/internal/feeds');
  const axe = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  expect(axe.violations).toEqual([]);
  // A sign-out without the form's token (a forged form, a script) ends nothing.
  const forged = await viewer.request.post(`${site.siteUrl}/_porchlight/private/sign-out`, { form: { csrf: 'A'.repeat(43) }, headers: { origin: site.siteUrl }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect((await viewer.request.get(`${site.siteUrl}/internal/`)).status()).toBe(200);
  // The page's own button does.
  await page.getByRole('button', { name: 'Sign out' }).click();
  // To the site's home (which here goes on to its one public page).
  await page.waitForURL((url) => !url.pathname.startsWith('/internal'));
  expect(await answer(viewer.request, `${site.siteUrl}/internal/`)).toEqual(await answer(viewer.request, `${site.siteUrl}/no-such-page/`));
  await viewer.close();
});

test('an expired or revoked invitation is refused, and a revoked one ends what it opened', async ({ browser }) => {
  test.setTimeout(60_000);
  const store = await AudienceStore.open({ dialect: 'sqlite', path: join(dir, 'audiences.db') });
  const pageId = (await store.allAccess())[0]!.pageId;
  const expired = await store.invite(pageId, 'Expired', Date.now() - 1000, Date.now() - 2000);
  await store.close();
  const visitor = await stranger(browser);
  const refused = await visitor.request.get(`/_porchlight/private/invite/${expired.token}`);
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain('This invitation link does not work');
  expect((await visitor.request.get('/internal/')).status()).toBe(404);

  const made = JSON.parse(await cli('page-access', 'invite', 'internal', '--label', 'Contractor', '--json')) as { id: string; url: string };
  const page = await visitor.newPage();
  await page.goto(made.url);
  await expect(page).toHaveURL(/\/internal\/$/);
  expect((await visitor.request.get('/internal/')).status()).toBe(200);
  await cli('page-access', 'revoke', made.id);
  expect((await visitor.request.get('/internal/')).status()).toBe(404);
  expect((await visitor.request.get(made.url.replace(site.siteUrl, ''))).status()).toBe(403);
  await visitor.close();
});

test('an address range lets its addresses in without signing in; X-Forwarded-For is not believed without trusted proxies', async () => {
  test.setTimeout(60_000);
  const api = apiFor(site);
  try {
    await api.statusPages.create({ name: 'Office wall', slug: 'office', isPublic: false });
    await cli('page-access', 'set', 'office', '--cidr', '10.0.0.0/8');
    const missing = await answer(request, '/no-such-page/');
    // Not from 10/8, whatever the header says.
    await expect.poll(async () => (await answer(request, '/office/', { 'x-forwarded-for': '10.1.2.3' })).status, { timeout: 10_000 }).toBe(404);
    expect(await answer(request, '/office/', { 'x-forwarded-for': '10.1.2.3' })).toEqual(missing);
    await cli('page-access', 'set', 'office', '--cidr', '127.0.0.0/8');
    await expect.poll(async () => (await request.get('/office/')).status(), { timeout: 10_000 }).toBe(200);
    const office = await request.get('/office/');
    const officeHtml = await office.text();
    expect(officeHtml).toContain('Office wall');
    // Let in by address alone: no session to end, no grant for feed addresses, no public subscribe links.
    for (const id of ['id="viewer"', 'id="subscribe"', 'id="integrate"']) expect(officeHtml).not.toContain(id);
    expect(office.headers()['cache-control']).toBe('private, no-store');
  } finally {
    await api.close();
  }
});

test('a sign-in-shown page shows its sign-in and nothing else; axe finds no violation there', async ({ browser }) => {
  test.setTimeout(90_000);
  const api = apiFor(site);
  try {
    const monitors = await api.monitors.list();
    const monitor = monitors.data[0]!;
    await api.statusPages.create({ name: 'Customer Zeta', slug: 'zeta', isPublic: false, monitors: [{ monitorId: monitor.id, sortOrder: 0 }] });
    await cli('page-access', 'set', 'zeta', '--mode', 'sign-in-shown', '--passphrase-file', join(dir, 'passphrase'));
  } finally {
    await api.close();
  }
  const visitor = await stranger(browser);
  const page = await visitor.newPage();
  await expect.poll(async () => (await page.goto('/zeta/'))?.status(), { timeout: 10_000 }).toBe(200);
  const html = await page.content();
  expect(html).not.toContain('Customer Zeta');
  expect(html).not.toMatch(/operational|outage|degraded/i);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to see this status page');
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // Its other outputs are a missing page's.
  expect(await answer(visitor.request, '/zeta/api/v2/summary.json')).toEqual(await answer(visitor.request, '/no-such-page/api/v2/summary.json'));
  expect(await answer(visitor.request, '/zeta/badge.svg')).toEqual(await answer(visitor.request, '/no-such-page/badge.svg'));
  // The passphrase lets in.
  await page.getByLabel('Passphrase').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/zeta\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Customer Zeta');
  await visitor.close();
});

test('a custom domain of a private page gets no certificate through the TLS gate', async () => {
  const api = apiFor(site);
  try {
    const internal = (await api.statusPages.list()).data.find((page) => page.slug === 'internal')!;
    await api.statusPages.update(internal.id, { customDomain: 'internal.acme.test' });
    const asked = await request.get('/_porchlight/tls-allowed?domain=internal.acme.test');
    expect(asked.status()).not.toBe(200);
  } finally {
    await api.close();
  }
});

test('the static export of the site holds nothing of a page with an audience', async () => {
  test.setTimeout(180_000);
  const out = join(dir, 'export');
  const run = await runExport(['--out', out], { apiUrl: site.apiUrl, apiKey: site.apiKey }, { SITE_PUBLIC_URL: site.siteUrl });
  expect(run.code, run.stderr.join('\n')).toBe(0);
  const files = readdirSync(out, { recursive: true }).map(String);
  expect(files.some((file) => file.startsWith('acme'))).toBe(true);
  expect(files.filter((file) => /^(internal|office|zeta)\b/.test(file))).toEqual([]);
  for (const file of files.filter((name) => /\.(html|xml|json|txt)$/.test(name))) {
    const text = readFileSync(join(out, file), 'utf8');
    expect(text, file).not.toContain('Acme Internal');
    expect(text, file).not.toContain('Customer Zeta');
  }
});

test('a wrong passphrase ten times is slowed down: then even the right one waits', async ({ browser }) => {
  test.setTimeout(90_000);
  const visitor = await stranger(browser);
  const page = await visitor.newPage();
  const statuses: number[] = [];
  await page.goto('/_porchlight/private/internal/sign-in');
  // Wrong guesses until seven have counted (a refused attempt while blocked does not count; the
  // block is waited out): the pair's delay is then 8 s, so the right passphrase, sent at once,
  // meets the block even on a slow machine.
  let counted = 0;
  for (let attempt = 0; counted < 7 && attempt < 40; attempt += 1) {
    await page.getByLabel('Passphrase').fill(`wrong guess number ${attempt}`);
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    statuses.push(response.status());
    if (response.status() === 401) counted += 1;
    else await page.waitForTimeout(Number(response.headers()['retry-after'] ?? '1') * 1000 + 100);
  }
  expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
  expect(counted).toBe(7);
  await page.getByLabel('Passphrase').fill(PASSPHRASE);
  const [last] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  expect(last.status()).toBe(429);
  expect(Number(last.headers()['retry-after'])).toBeGreaterThan(0);
  await expect(page.getByRole('alert')).toContainText('Too many attempts');
  expect((await visitor.request.get('/internal/')).status()).toBe(404);
  await visitor.close();
});
