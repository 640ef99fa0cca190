/**
 * E-mail subscriptions end to end, in a browser with JavaScript off, against the real launcher,
 * the embedded API and a real SMTP server on loopback: subscribe from the page, confirm from the
 * mail, receive one mail per change, leave with the RFC 8058 one-click POST, receive nothing more;
 * and the same from the Arabic page, in Arabic.
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
import { linkIn, startSmtpSink, type ReceivedMail, type SmtpSink } from './support/smtp-sink.ts';

test.describe.configure({ mode: 'serial' });
test.use({ javaScriptEnabled: false });

let sink: SmtpSink;
let site: PorchlightProcess;
let dir: string;

/** The List-Unsubscribe URL of a mail (headers unfolded). */
function listUnsubscribe(mail: ReceivedMail): string {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  const url = /^List-Unsubscribe: <([^>]+)>$/m.exec(head)?.[1];
  if (!url) throw new Error('no List-Unsubscribe header');
  return url;
}

test.beforeAll(async () => {
  sink = await startSmtpSink();
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-subs-'));
  const port = await freePort();
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SUBSCRIPTIONS: 'true',
    SUBSCRIBERS_DB: join(dir, 'subscribers.db'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SMTP_FROM: 'Acme status <status@acme.test>',
    HISTORY_BACKFILL_PAGES: '0',
    METRICS_PORT: '0',
  });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  await serveDemoPageBySlug(site);
});

test.afterAll(async () => {
  expect(await site.stop()).toBe(0);
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('subscribe without JavaScript, confirm, get exactly one mail per change, leave in one click, get nothing more', async ({ page }) => {
  const address = 'visitor@example.com';
  await page.goto(`${site.siteUrl}/acme/`);
  const form = page.getByRole('region', { name: 'Get updates by e-mail' });
  await form.getByLabel('E-mail address').fill(address);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your inbox');

  await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(1);
  const confirmation = sink.mailsTo(address)[0]!;
  expect(confirmation.parsed.subject).toBe('Confirm your subscription to Acme Cloud Status');
  await page.goto(linkIn(confirmation, '/subscribe/confirm'));
  // Opening the link (as a mail scanner would) confirmed nothing yet: a button does.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription');
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed');

  const api = apiFor(site);
  try {
    const acme = await demoPage(api);
    const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Mailed: login errors', message: 'We are looking into failed logins.', severity: 'major' });
    await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(2);
    await api.incidents.update(incident.id, { status: 'identified', message: 'A bad certificate; rolling back.' });
    await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(3);
    await api.incidents.update(incident.id, { status: 'monitoring', message: 'Rolled back; watching.' });
    await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(4);
    // Three refreshes later, still exactly three event mails.
    await page.waitForTimeout(3_500);
    const events = sink.mailsTo(address).slice(1);
    expect(events.map((mail) => mail.parsed.subject)).toEqual([
      '[Acme Cloud Status] New incident: Mailed: login errors',
      '[Acme Cloud Status] Update: Mailed: login errors',
      '[Acme Cloud Status] Update: Mailed: login errors',
    ]);
    expect(events[1]!.parsed.text).toContain('A bad certificate; rolling back.');
    expect(events[0]!.parsed.text).toContain(`${site.siteUrl}/acme/incidents/${incident.id}/`);

    // RFC 8058: the receiver POSTs List-Unsubscribe=One-Click, no cookies, no redirects.
    const oneClick = await request(listUnsubscribe(events[2]!), { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(oneClick.statusCode).toBe(200);
    expect(await oneClick.body.text()).toContain('You are unsubscribed');

    await api.incidents.update(incident.id, { status: 'resolved', message: 'Fixed.' });
    await page.waitForTimeout(3_500);
    expect(sink.mailsTo(address)).toHaveLength(4);
    await api.incidents.delete(incident.id);
  } finally {
    await api.close();
  }
});

test('metrics count subscribers and mails, and never name an address', async () => {
  // The subscriptions thread tells the metrics every 5 s: wait for a report made after the
  // unsubscribe of the test before (the three mails were sent before it).
  const scrape = async () => (await (await request(site.metricsUrl)).body.text());
  await expect.poll(async () => {
    const text = await scrape();
    return [text.match(/^porchlight_subscription_mails_total\{result="sent"\} (\d+)$/m)?.[1], text.match(/^porchlight_subscribers\{state="confirmed",channel="email"\} (\d+)$/m)?.[1]];
  }, { timeout: 15_000 }).toEqual(['3', '0']);
  const text = await scrape();
  // The one subscriber left: their address and its mails are gone from the store.
  expect(text).toMatch(/^porchlight_subscribers\{state="confirmed",channel="email"\} 0$/m);
  expect(text).toMatch(/^porchlight_subscription_outbox\{state="pending"\} 0$/m);
  expect(text).toMatch(/^porchlight_subscription_outbox_oldest_seconds 0$/m);
  expect(text).toMatch(/^porchlight_subscription_mails_total\{result="confirm_sent"\} 1$/m);
  expect(text).not.toContain('example.com');
});

test('the forms (components and the webhook form opened) and the answer pages pass axe (WCAG 2 AA)', async ({ browser }) => {
  // axe runs as a script in the page.
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  const violations = async () => (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations.map((violation) => `${page.url()}: ${violation.id} ${violation.help}`);
  await page.goto(`${site.siteUrl}/acme/`);
  // The webhook form first (its own components' summary is inside it), then each components choice.
  await page.locator('.pl-subscribe__webhook > summary').click();
  for (const summary of await page.locator('.pl-subscribe__components > summary').all()) await summary.click();
  const found = await violations();
  const emailForm = page.locator('form.pl-subscribe__form').first();
  await page.getByLabel('E-mail address').fill('not an address@');
  // The browser's own check is bypassed as a script-less client might: the server answers.
  await emailForm.evaluate((form) => form.setAttribute('novalidate', ''));
  await emailForm.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check the address');
  found.push(...(await violations()));
  await page.goto(`${site.siteUrl}/acme/subscribe/confirm?t=${'C'.repeat(43)}`);
  found.push(...(await violations()));
  // The same answer right to left, in Arabic (a link naming its language).
  await page.goto(`${site.siteUrl}/acme/subscribe/confirm?t=${'C'.repeat(43)}&locale=ar`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  found.push(...(await violations()));
  await context.close();
  expect(found).toEqual([]);
});

test('the subscription pages never show an address, and a forged link is refused', async ({ page }) => {
  await page.goto(`${site.siteUrl}/acme/subscribe/manage?t=${'A'.repeat(16)}.${'B'.repeat(43)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link no longer works');
  const json = await (await request(`${site.siteUrl}/acme/api/v2/summary.json`)).body.text();
  expect(json).not.toContain('visitor@example.com');
  expect(site.output.join('\n')).not.toContain('visitor@example.com');
});

test('from the Arabic page: the answers are Arabic and right to left, and so are the delivered mails', async ({ page }) => {
  const address = 'arabic.visitor@example.com';
  const say = (key: keyof typeof ar) => String(ar[key]);
  await page.goto(`${site.siteUrl}/acme/ar/`);
  const form = page.getByRole('region', { name: say('subscribe.formHeading') });
  await form.getByLabel(say('subscribe.emailLabel')).fill(address);
  await form.getByRole('button', { name: say('subscribe.subscribeButton') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('subscribe.checkInboxTitle'));
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('link', { name: say('subscribe.backToPage') })).toHaveAttribute('href', '/acme/ar/');

  await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(1);
  const confirmation = sink.mailsTo(address)[0]!;
  expect(confirmation.parsed.subject).toBe(say('subscribe.confirmSubject').replace('{page}', 'Acme Cloud Status'));
  await page.goto(linkIn(confirmation, '/subscribe/confirm'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('subscribe.confirmTitle'));
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('button', { name: say('subscribe.confirmButton') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('subscribe.confirmedTitle'));

  const api = apiFor(site);
  try {
    const acme = await demoPage(api);
    const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Mailed: slow search', message: 'Search is slow.', severity: 'minor' });
    await expect.poll(() => sink.mailsTo(address).length, { timeout: 10_000 }).toBe(2);
    const mail = sink.mailsTo(address)[1]!;
    // The .eml as delivered: an ASCII header with the Arabic subject encoded (RFC 2047), Arabic
    // words in both parts, links to the Arabic page, the HTML right to left.
    const head = mail.raw.split(/\r?\n\r?\n/)[0]!;
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(head).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(head).toMatch(/^Content-Language: ar\r?$/m);
    expect(mail.parsed.subject).toBe(`[Acme Cloud Status] ${say('subscribe.event.incidentCreated')}: Mailed: slow search`);
    expect(mail.parsed.text).toContain(`${say('subscribe.statusLine')}: ${say('incident.investigating')}`);
    expect(mail.parsed.text).toContain(`${site.siteUrl}/acme/ar/incidents/${incident.id}/`);
    expect(mail.parsed.text).toContain(say('subscribe.footerUnsubscribe'));
    const interfaceText = String(mail.parsed.text).replaceAll('Acme Cloud Status', '');
    for (const english of ['Status', 'Impact', 'Affected', 'Started', 'Investigating', 'Details', 'Unsubscribe', 'You receive this e-mail']) expect(interfaceText).not.toContain(english);
    expect(mail.parsed.html).toContain('<html lang="ar" dir="rtl">');

    // The manage page of the mail's link is Arabic too; its button unsubscribes.
    await page.goto(linkIn(mail, '/subscribe/manage'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('subscribe.manageTitle'));
    await page.getByRole('button', { name: say('subscribe.unsubscribeButton') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('subscribe.unsubscribedTitle'));
    await api.incidents.delete(incident.id);
  } finally {
    await api.close();
  }
});
