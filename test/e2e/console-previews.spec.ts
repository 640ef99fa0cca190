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
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from '@playwright/test';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { apiFor, demoPage, serveDemoPageBySlug } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';
import { linkIn, startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';
import { WCAG_AA } from './support/axe-tags.ts';
import { AXE_VARIANTS, consoleCliEnv, setUpOperator, signInLabels, signInOperator } from './support/console-operator.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 }, locale: 'en-GB' });

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
  await serveDemoPageBySlug(site);
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

  const added = await runPorchlight(['operator', 'add', 'ada@example.com', '--role', 'responder', '--json'], consoleCliEnv(dir, origin));
  expect(added.code).toBe(0);
  await setUpOperator(page, (JSON.parse(added.stdout) as { setupLink: string }).setupLink);

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

for (const { name, scheme, locale } of AXE_VARIANTS) {
  test(`axe finds no violation on the preview with its e-mail and card (${name})`, async ({ browser }) => {
    test.setTimeout(90_000);
    // axe runs as a script: JavaScript on here, and the console's CSP bypassed for its injection.
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 375, height: 740 }, locale, colorScheme: scheme });
    const page = await context.newPage();
    const t = (key: keyof typeof ar, english: string): string => {
      if (locale !== 'ar') return english;
      const said = ar[key];
      if (typeof said !== 'string') throw new Error(`${key} is not a plain text`);
      return said;
    };
    try {
      // The operator set up by the first test.
      await signInOperator(page, `${origin}/_porchlight/console/`, 'ada@example.com', { labels: signInLabels(locale) });
      await expect(page.locator('h1')).toHaveText(t('console.navHome', 'Overview'));
      const api = apiFor(site);
      try {
        const incident = (await api.incidents.list()).data.find((i) => i.status !== 'resolved');
        if (!incident) throw new Error('the first test left no open incident');
        await page.goto(`${origin}/_porchlight/console/incidents/${incident.id}`);
      } finally {
        await api.close();
      }
      await page.getByLabel(t('console.message', 'Message')).fill('Still looking.');
      await page.getByRole('button', { name: t('console.preview', 'Preview') }).click();
      await expect(page.getByRole('region', { name: t('console.mailPreviewHeading', 'What the e-mail to subscribers will say') })).toBeVisible();
      await expect(page.getByRole('region', { name: t('console.cardPreviewHeading', 'What a pasted link will show') })).toBeVisible();
      if (locale === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
      expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
