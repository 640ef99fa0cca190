/**
 * Webhook subscriptions from the page's form, in a real browser with and without JavaScript,
 * against the real launcher and the embedded API: the folded second form takes a receiver's URL,
 * the answer shows the signing secret once, and the receiver (this test's own, on loopback, with
 * SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE=true for it) gets a signed ping, then the incident, which
 * the `standardwebhooks` library verifies. A URL with credentials is refused, in words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { test, expect, type Page } from '@playwright/test';
import { apiFor, demoPage, serveDemoPageBySlug } from './support/api.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from './support/webhook-receiver.ts';

test.describe.configure({ mode: 'serial' });

let sink: SmtpSink;
let site: PorchlightProcess;
let dir: string;
let receiver: WebhookReceiver;
let receiverUrl: string;
let hits: ReceivedHook[];

test.beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
  hits = receiver.hits;
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-hooks-'));
  const port = await freePort();
  site = await startPorchlightProcess({
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SUBSCRIPTIONS: 'true',
    SUBSCRIBERS_DB: join(dir, 'subscribers.db'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: 'true',
    HISTORY_BACKFILL_PAGES: '0',
    METRICS_PORT: '0',
  });
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  await serveDemoPageBySlug(site);
});

test.afterAll(async () => {
  expect(await site.stop()).toBe(0);
  await sink.stop();
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function subscribeWebhook(page: Page, url: string): Promise<void> {
  await page.goto(`${site.siteUrl}/acme/`);
  const region = page.getByRole('region', { name: 'Get updates by e-mail' });
  await region.getByText('Get updates by webhook or in a team channel').click();
  await region.getByLabel('Webhook URL').fill(url);
  await region.locator('.pl-subscribe__webhook').getByRole('button', { name: 'Subscribe' }).click();
}

for (const javaScriptEnabled of [false, true]) {
  test(`a webhook subscribes from the form ${javaScriptEnabled ? 'with' : 'without'} JavaScript: secret shown once, signed ping, then the incident`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    const path = `/hook-${javaScriptEnabled ? 'js' : 'nojs'}`;
    const mine = () => hits.filter((hit) => hit.path === path);
    await subscribeWebhook(page, `${receiverUrl}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The webhook is subscribed');
    const secret = (await page.locator('code[data-secret]').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const verifier = new Webhook(secret);
    expect(mine()).toHaveLength(1);
    expect((verifier.verify(mine()[0]!.body, mine()[0]!.headers) as { event_type: string }).event_type).toBe('ping');

    const api = apiFor(site);
    try {
      const acme = await demoPage(api);
      const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: `Hooked ${path}`, message: 'Looking into it.', severity: 'minor' });
      await expect.poll(() => mine().filter((hit) => hit.body.includes(`Hooked ${path}`)).length, { timeout: 15_000 }).toBe(1);
      const hit = mine().find((entry) => entry.body.includes(`Hooked ${path}`))!;
      const delivered = verifier.verify(hit.body, hit.headers) as { event_type: string; incident: { id: string; name: string } };
      expect(delivered).toMatchObject({ event_type: 'incident.created', incident: { id: incident.id, name: `Hooked ${path}` } });
      await api.incidents.delete(incident.id);
    } finally {
      await api.close();
      await context.close();
    }
  });
}

test('a URL with credentials is refused in words, and nothing is sent to it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await subscribeWebhook(page, receiverUrl.replace('http://', 'http://user:pw@') + '/creds');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check the web address');
  await expect(page.getByText('The address may not contain a user name or password.')).toBeVisible();
  // Only this URL's path: the tests above share the receiver, and their deliveries may still arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(hits.filter((hit) => hit.path === '/creds')).toEqual([]);
  await context.close();
});
