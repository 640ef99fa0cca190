/**
 * The console's preview of what goes out, end to end (Chromium at 375 px, no JavaScript, the real
 * launcher, the embedded API, a real SMTP server on loopback): before an incident is published the
 * operator reads the e-mail its subscribers will get and the pasted link's card, with the draft's
 * title; and the preview publishes nothing and mails nobody.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test, expect } from '@playwright/test';
import { apiFor, demoPage } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { linkIn, startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

const PASSWORD = 'a long enough passphrase';
const VISITOR = 'visitor@example.com';
let sink: SmtpSink;
let site: PorchlightProcess;
let dir: string;
let origin: string;

test.beforeAll(async () => {
  sink = await startSmtpSink();
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-console-previews-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: origin,
    CONSOLE: 'true',
    SUBSCRIPTIONS: 'true',
    SUBSCRIBERS_DB: join(dir, 'subscribers.db'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SMTP_FROM: 'Acme status <status@acme.test>',
    HISTORY_BACKFILL_PAGES: '0',
  });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  // Mails link to the page's custom domain, which the test browser cannot reach: by slug here.
  const api = apiFor(site);
  try {
    await api.statusPages.update((await demoPage(api)).id, { customDomain: null });
    await expect.poll(async () => (await request(`${site.siteUrl}/subscribe/manage`, { headers: { host: 'status.acme.test' } })).statusCode, { timeout: 15_000 }).toBe(404);
  } finally {
    await api.close();
  }
});

test.afterAll(async () => {
  await site?.stop();
  await sink?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a new incident\'s preview shows the subscribers\' e-mail and the link card with its title; nothing is published or sent', async ({ page }) => {
  test.setTimeout(90_000);
  // A confirmed subscriber, who would get the incident's mail.
  await page.goto(`${origin}/acme/`);
  const form = page.getByRole('region', { name: 'Get updates by e-mail' });
  await form.getByLabel('E-mail address').fill(VISITOR);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect.poll(() => sink.mailsTo(VISITOR).length, { timeout: 15_000 }).toBe(1);
  await page.goto(linkIn(sink.mailsTo(VISITOR)[0]!, '/subscribe/confirm'));
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed');

  const added = await runPorchlight(['operator', 'add', 'ada@example.com', '--role', 'responder', '--json'], { SUBSCRIBERS_DB: join(dir, 'subscribers.db'), SITE_PUBLIC_URL: origin, CACHE_DIR: join(dir, 'cli-cache') });
  expect(added.code).toBe(0);
  await page.goto((JSON.parse(added.stdout) as { setupLink: string }).setupLink);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  const api = apiFor(site);
  try {
    const acme = await demoPage(api);
    const shown = await api.monitors.get(acme.monitors[0]!.monitorId);
    const title = 'Preview only: payments are slow';
    await page.goto(`${origin}/_porchlight/console/incidents/new`);
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Message').fill('Card payments take up to a minute.');
    await page.getByLabel(shown.name, { exact: true }).check();
    await page.getByRole('button', { name: 'Preview' }).click();

    const mail = page.getByRole('region', { name: 'What the e-mail to subscribers will say' });
    await expect(mail).toContainText(`[Acme Cloud Status] New incident: ${title}`);
    await expect(mail.locator('#mail-preview-text')).toContainText(title);
    await expect(mail.locator('#mail-preview-text')).toContainText('Card payments take up to a minute.');
    const card = page.getByRole('region', { name: 'What a pasted link will show' });
    await expect(card).toContainText(title);
    await expect(card).toContainText('Card payments take up to a minute.');

    // Nothing went out: no incident in the API, and after several refreshes the subscriber still
    // has only the confirmation.
    expect((await api.incidents.list()).data.map((incident) => incident.title)).not.toContain(title);
    await page.waitForTimeout(3_500);
    expect(sink.mailsTo(VISITOR)).toHaveLength(1);

    // Publishing sends the mail the preview showed.
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect.poll(() => sink.mailsTo(VISITOR).length, { timeout: 15_000 }).toBe(2);
    expect(sink.mailsTo(VISITOR)[1]!.parsed.subject).toBe(`[Acme Cloud Status] New incident: ${title}`);

    // An update's preview: the update's mail, still unsent.
    await page.getByLabel('Status').selectOption('identified');
    await page.getByLabel('Message').fill('A card processor is slow; switching.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('region', { name: 'What the e-mail to subscribers will say' })).toContainText(`[Acme Cloud Status] Update: ${title}`);
    await expect(page.locator('#mail-preview-text')).toContainText('A card processor is slow; switching.');
    await page.waitForTimeout(3_500);
    expect(sink.mailsTo(VISITOR)).toHaveLength(2);
  } finally {
    await api.close();
  }
});
