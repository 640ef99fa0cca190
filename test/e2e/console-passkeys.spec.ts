/**
 * The console's passkeys end to end, in Chromium at 375 px with Chromium's virtual authenticator
 * (DevTools' WebAuthn domain: CTAP2, internal, resident keys, user verified) against the real
 * launcher and embedded API, with SITE_PUBLIC_URL=http://localhost:PORT (localhost is a valid RP
 * ID and a secure context): an operator registers a passkey, signs out, signs in with it (the
 * session cookie's flags, a new session), and removes it, all in the audit trail; a sign-in answer
 * replayed is refused; without JavaScript the option explains itself and every other screen keeps
 * no script; axe finds no violation on the passkeys screen in light, dark and right-to-left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { en } from '../../src/site/i18n/messages/en.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, setUpOperator, signInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: true, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

const EMAIL = 'ada@example.com';
let site: PorchlightProcess;
let dir: string;
let port: number;
/** The address the browser uses: a host name, so that there is a relying party. */
let origin: string;
let console_: string;
let setupLink = '';

type AuditRow = { actor: string; action: string; target: string; before: unknown; after: unknown };
async function auditTrail(): Promise<AuditRow[]> {
  const result = await runPorchlight(['audit', '--limit', '200', '--json'], consoleCliEnv(dir, origin));
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as AuditRow[];
}

/** Chromium's virtual authenticator on this page: a platform authenticator that verifies its user. */
async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
}

/** What the console answers a request from loopback naming the site's host (undici, not the browser). */
function post(path: string, body: string, cookie: string) {
  return request(`http://127.0.0.1:${port}/_porchlight/console/${path}`, {
    method: 'POST',
    headers: { host: `localhost:${port}`, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded', cookie },
    body,
  });
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-passkeys-'));
  port = await freePort();
  origin = `http://localhost:${port}`;
  console_ = `${origin}/_porchlight/console/`;
  site = await startPorchlightProcess({ PORT: String(port), SITE_PUBLIC_URL: origin, CONSOLE: 'true', SUBSCRIBERS_DB: join(dir, 'subscribers.db'), HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  const added = await runPorchlight(['operator', 'add', EMAIL, '--role', 'viewer', '--json'], consoleCliEnv(dir, origin));
  expect(added.code).toBe(0);
  setupLink = (JSON.parse(added.stdout) as { setupLink: string }).setupLink;
});

test.afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an operator registers a passkey, signs out, signs in with it, and removes it; a replayed sign-in answer is refused', async ({ page }) => {
  test.setTimeout(90_000);
  await virtualAuthenticator(page);
  // The set-up link names the site's host (localhost), where the relying party is.
  expect(setupLink.startsWith(console_)).toBe(true);
  await setUpOperator(page, setupLink);

  // Even a viewer manages their own passkeys.
  await page.getByRole('link', { name: 'Your passkeys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your passkeys' })).toBeVisible();
  await expect(page.getByText(en['console.passkeys.none'])).toBeVisible();
  await expect(page.getByText(en['console.passkeys.needsJs'])).toBeHidden();
  await page.getByLabel('Name of the new passkey').fill('Test laptop');
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  const row = page.getByRole('row', { name: /Test laptop/ });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Never');
  const added = (await auditTrail()).find((entry) => entry.action === 'operator.passkey.add');
  expect(added).toMatchObject({ actor: expect.stringContaining(EMAIL), before: null, after: { label: 'Test laptop', credentialId: expect.any(String) } });
  const credentialId = (added?.after as { credentialId: string }).credentialId;

  // Sign out; the sign-in screen offers the passkey beside the password.
  const before = (await page.context().cookies()).find((cookie) => cookie.name === 'pl-console');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
  // The browser's answer as it went out, with its pre-session cookie, to replay it below.
  const answered = { body: '', cookie: '' };
  page.on('request', (sent) => {
    if (sent.method() !== 'POST' || !sent.url().endsWith('/sign-in/passkey')) return;
    void sent.allHeaders().then((headers) => Object.assign(answered, { body: sent.postData() ?? '', cookie: headers.cookie ?? '' }));
  });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  // The same session as a password sign-in makes: a new token, the same flags.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'pl-console');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/_porchlight/console/', secure: false });
  expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(session?.value).not.toBe(before?.value);
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'pl-console-pre')).toBeUndefined();
  expect((await auditTrail()).find((entry) => entry.action === 'operator.passkey.sign-in')).toMatchObject({ actor: expect.stringContaining(EMAIL), after: { label: 'Test laptop', credentialId } });

  // The same answer again, with the same pre-session cookie and token: the challenge is used up.
  await expect.poll(() => answered.cookie).toContain('pl-console-pre=');
  expect(answered.body).toContain('response=');
  const again = await post('sign-in/passkey', answered.body, answered.cookie);
  expect(again.statusCode).toBe(401);
  expect(await again.body.text()).toContain(en['console.passkeys.signInFailed']);
  expect(again.headers['set-cookie'] ?? '').not.toMatch(/pl-console=[A-Za-z0-9_-]{43}/);

  // Last used is shown; removing it is a plain form, audited.
  await page.getByRole('link', { name: 'Your passkeys' }).click();
  await expect(page.getByRole('row', { name: /Test laptop/ }).getByRole('cell').nth(2)).not.toHaveText('Never');
  await page.getByRole('button', { name: 'Remove Test laptop' }).click();
  await expect(page.getByText(en['console.passkeys.none'])).toBeVisible();
  expect((await auditTrail()).find((entry) => entry.action === 'operator.passkey.remove')).toMatchObject({ before: { label: 'Test laptop', credentialId }, after: null });

  // A removed passkey signs no one in.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText(en['console.passkeys.signInFailed']);
});

test('the script is allowed only where a passkey form is; without JavaScript the option says it needs it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });
  const page = await context.newPage();
  try {
    const signInPage = await page.goto(`${console_}sign-in`);
    expect(signInPage?.headers()['content-security-policy']).toContain(`script-src ${origin}/_porchlight/console/passkeys.js; connect-src 'self'`);
    await expect(page.getByText(en['console.passkeys.needsJs'])).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeHidden();
    await signInOperator(page, console_, EMAIL);
    const overview = await page.goto(console_);
    expect(overview?.headers()['content-security-policy']).not.toContain('script-src');
    const script = await request(`http://127.0.0.1:${port}/_porchlight/console/passkeys.js`, { headers: { host: `localhost:${port}` } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await script.body.text()).length).toBeLessThan(4_096);
  } finally {
    await context.close();
  }
});

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on the passkeys screen (${name})`, async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    try {
      await virtualAuthenticator(page);
      await signInOperator(page, console_, EMAIL, { labels: signInLabels(locale) });
      await page.goto(`${console_}passkeys`);
      const words = locale === 'ar' ? ar : en;
      await expect(page.locator('h1')).toHaveText(words['console.passkeys.nav']);
      // A passkey in the list, so the table and its removal form are checked too.
      await page.getByLabel(words['console.passkeys.label']).fill(`Key ${name}`);
      await page.getByRole('button', { name: words['console.passkeys.register'] }).click();
      await expect(page.getByRole('row', { name: new RegExp(`Key ${name.replace(/[()]/g, '.')}`) })).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
