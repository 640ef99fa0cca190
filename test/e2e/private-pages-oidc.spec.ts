/**
 * OpenID Connect sign-in to a page with an audience (issue 32, docs/private-pages.md) against a
 * real provider (`oidc-provider`, started here on loopback) and the real server: a visitor of an
 * allowed e-mail domain signs in and sees the page, its JSON and its feed; another domain is
 * refused; a replayed callback, an unreachable discovery, another issuer and a token signed with
 * a key the provider does not publish each give the "sign-in did not work" page, never access,
 * and one log line.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { freePort } from '../../bench/lib/free-port.ts';
import { apiFor } from './support/api.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;
let dir: string;
let idp: Server;
let issuer: string;
/** What the provider's metadata and keys say: the truth, another issuer, or keys that did not sign. */
let lie: 'none' | 'issuer' | 'keys' = 'none';

const rsaJwk = () => ({ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: `k${Math.random().toString(36).slice(2)}` });
const signing = rsaJwk();
const other = rsaJwk();
const publicOf = (jwk: Record<string, unknown>) => Object.fromEntries(Object.entries(jwk).filter(([name]) => !['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(name)));

async function cli(...args: string[]): Promise<void> {
  const result = await runPorchlight([...args, '--site-url', site.siteUrl], { STATUS_API_URL: site.apiUrl, STATUS_API_KEY: site.apiKey, AUDIENCES_DB: join(dir, 'audiences.db') });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** The page's OpenID Connect settings: `client` names the discovery cache's key, so each scenario discovers afresh. */
async function useProvider(client: string, at = issuer): Promise<void> {
  await cli('page-access', 'set', 'staff', '--oidc-issuer', at, '--oidc-client-id', client, '--oidc-client-secret-file', join(dir, 'secret'), '--oidc-email-domain', 'example.com');
  // The site reads the settings again every 2 s (audience-book.ts): two periods and a margin.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
}

/** Presses the page's sign-in button and, at the provider, signs in as `login` and consents. */
async function signIn(page: Page, login: string): Promise<void> {
  await page.goto(`${site.siteUrl}/_porchlight/private/staff/sign-in`);
  await page.getByRole('button', { name: 'Sign in with your organization' }).click();
  // On to the provider (a page that refreshes to it), unless the site said no at once.
  const atProvider = await page.waitForURL((url) => url.href.startsWith(issuer), { timeout: 5_000 }).then(() => true, () => false);
  if (!atProvider) return;
  // A provider that knows this browser already (a retry) may skip its login, or its consent.
  const loginField = page.locator('input[name=login]');
  await Promise.race([loginField.waitFor({ timeout: 10_000 }), page.waitForURL((url) => !url.href.startsWith(issuer), { timeout: 10_000 })]).catch(() => undefined);
  if (await loginField.isVisible()) {
    await loginField.fill(login);
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }
  const consent = page.getByRole('button', { name: 'Continue' });
  await Promise.race([consent.waitFor({ timeout: 10_000 }), page.waitForURL((url) => !url.href.startsWith(issuer), { timeout: 10_000 })]).catch(() => undefined);
  if (page.url().startsWith(issuer) && (await consent.isVisible())) await consent.click();
  await page.waitForURL((url) => !url.href.startsWith(issuer), { timeout: 10_000 }).catch(() => undefined);
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-oidc-'));
  writeFileSync(join(dir, 'secret'), 'a-client-secret-for-tests\n');
  const port = await freePort();
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}`, SUBSCRIBERS_DB: join(dir, 'subscribers.db'), AUDIENCES_DB: join(dir, 'audiences.db'), HISTORY_BACKFILL_PAGES: '0' });
  const idpPort = await freePort();
  issuer = `http://127.0.0.1:${idpPort}`;
  const redirect = `${site.siteUrl}/_porchlight/private/staff/oidc/callback`;
  const client = (id: string) => ({ client_id: id, client_secret: 'a-client-secret-for-tests', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'] });
  // A test identity provider: its development-mode warnings (in-memory adapter, dev interactions,
  // default lifetimes) are expected here and would only clutter npm test's output.
  for (const level of ['info', 'warn'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (typeof args[0] !== 'string' || !args[0].startsWith('oidc-provider ')) original(...args);
    };
  }
  const provider = new Provider(issuer, {
    clients: ['good', 'replay', 'wrong-issuer', 'wrong-keys'].map(client),
    jwks: { keys: [signing] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) }),
    pkce: { required: () => true },
    cookies: { keys: ['a-cookie-key-for-tests'] },
  });
  provider.use(async (ctx, next) => {
    await next();
    if (lie === 'issuer' && ctx.path === '/.well-known/openid-configuration') ctx.body = { ...(ctx.body as object), issuer: `${issuer}/elsewhere` };
    if (lie === 'keys' && ctx.path === '/jwks') ctx.body = { keys: [publicOf(other)] };
  });
  idp = provider.listen(idpPort, '127.0.0.1');
  const api = apiFor(site);
  try {
    await api.statusPages.create({ name: 'Staff status', slug: 'staff', isPublic: false });
  } finally {
    await api.close();
  }
  await cli('page-access', 'set', 'staff', '--mode', 'sign-in-shown');
});

test.afterAll(async () => {
  idp?.close();
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function visitor(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test('a visitor of an allowed e-mail domain signs in, then sees the page, its JSON and its feed', async ({ browser }) => {
  test.setTimeout(90_000);
  await useProvider('good');
  const { context, page } = await visitor(browser);
  await expect(async () => {
    await signIn(page, 'alice@example.com');
    await expect(page).toHaveURL(/\/staff\/$/, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Staff status');
  const json = await context.request.get(`${site.siteUrl}/staff/api/v2/summary.json`);
  expect((await json.json()).page.name).toBe('Staff status');
  expect(json.headers()['cache-control']).toBe('private, no-store');
  await page.goto(`${site.siteUrl}/_porchlight/private/staff/feeds`);
  await page.getByRole('button', { name: 'Make my addresses' }).click();
  const atom = (await page.locator('dd code').first().textContent()) ?? '';
  const reader = await browser.newContext();
  expect(await (await reader.request.get(atom)).text()).toContain('Staff status');
  await reader.close();
  await context.close();
});

test('a visitor of another e-mail domain is refused', async ({ browser }) => {
  test.setTimeout(60_000);
  const { context, page } = await visitor(browser);
  await signIn(page, 'mallory@example.org');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in did not work');
  await expect(page.getByText('Your account is not allowed to see this page.')).toBeVisible();
  expect((await context.request.get(`${site.siteUrl}/staff/api/v2/summary.json`)).status()).toBe(404);
  expect(site.output.some((line) => line.includes('"event":"oidc-refused"'))).toBe(true);
  await context.close();
});

test('a replayed callback is refused', async ({ browser }) => {
  test.setTimeout(60_000);
  await useProvider('replay');
  const { context, page } = await visitor(browser);
  let callback = '';
  page.on('request', (request) => {
    if (request.url().includes('/oidc/callback')) callback = request.url();
  });
  await expect(async () => {
    await signIn(page, 'bob@example.com');
    await expect(page).toHaveURL(/\/staff\/$/, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  expect(callback).toContain('state=');
  await page.goto(callback);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in did not work');
  await context.close();
});

for (const [name, setUp] of [
  ['an unreachable discovery', async () => useProvider('good', `http://127.0.0.1:${await freePort()}`)],
  ['a provider that names another issuer', async () => { lie = 'issuer'; await useProvider('wrong-issuer'); }],
  ['an ID token signed with a key the provider does not publish', async () => { lie = 'keys'; await useProvider('wrong-keys'); }],
] as const) {
  test(`${name}: a clear page for the visitor, one log line, no access`, async ({ browser }) => {
    test.setTimeout(60_000);
    await setUp();
    const { context, page } = await visitor(browser);
    const before = site.output.filter((line) => line.includes('"event":"oidc-failure"')).length;
    await expect(async () => {
      await signIn(page, 'carol@example.com');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in did not work', { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    expect(await page.content()).not.toMatch(/\bat [\w.]+ \(|Error:/);
    expect((await context.request.get(`${site.siteUrl}/staff/api/v2/summary.json`)).status()).toBe(404);
    expect(site.output.filter((line) => line.includes('"event":"oidc-failure"')).length).toBeGreaterThan(before);
    lie = 'none';
    await context.close();
  });
}
