/**
 * E-mail subscriptions across whole-process restarts: the API in a process of its own, Porchlight
 * stopped in the middle of a fan-out (half the outbox sent), a change made while it is stopped,
 * then started again on the same stores. Every subscriber gets each change exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test, expect } from '@playwright/test';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';

const SUBSCRIBERS = 12;
const addresses = Array.from({ length: SUBSCRIBERS }, (_, i) => `restart${i}@example.com`);

let dir: string;
let api: ApiProcess;
let client: ApiClient;
let sink: SmtpSink;
const sites: PorchlightProcess[] = [];

test.beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-e2e-subs-restart-'));
  api = await startApiProcess(join(dir, 'api.db'));
  client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  sink = await startSmtpSink();
});

test.afterEach(async () => {
  for (const site of sites.splice(0)) await site.stop();
  await client.close();
  await api.stop();
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function feedBaselineSaved(databasePath: string): Promise<boolean> {
  const store = await SubscriberStore.open(databasePath);
  try {
    return (await store.readFeedBaseline()) !== null;
  } finally {
    await store.close();
  }
}

test('stopped mid fan-out, with a change made while it was down: each subscriber gets each change exactly once', async () => {
  test.setTimeout(90_000);
  let acme: { id: string; monitors: { monitorId: string }[] } | undefined;
  for await (const page of client.statusPages.listAll()) if (page.slug === 'acme') acme = page;
  const subscribersDb = join(dir, 'subscribers.db');
  const store = await SubscriberStore.open(subscribersDb);
  for (const address of addresses) await store.confirm((await store.subscribe(acme!.id, { address, key: address }, [], Date.now()))!.token, Date.now());
  await store.close();

  const port = await freePort();
  const start = async () => {
    const site = await startPorchlightProcess({
      STATUS_API_URL: api.url,
      STATUS_API_KEY: api.key,
      PORT: String(port),
      SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CACHE_DIR: join(dir, 'cache'),
      CACHE_FRESH_SECONDS: '1',
      PUSH_UPDATES: 'false',
      HISTORY_BACKFILL_PAGES: '0',
      SUBSCRIPTIONS: 'true',
      SUBSCRIBERS_DB: subscribersDb,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      // Slow enough that the stop below lands in the middle of the fan-out.
      SUBSCRIPTION_MAILS_PER_SECOND: '3',
    });
    sites.push(site);
    await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 15_000 }).toBe(200);
    return site;
  };

  const first = await start();
  // The first load is the baseline: nothing that already existed is mailed.
  await expect.poll(() => feedBaselineSaved(subscribersDb), { timeout: 15_000 }).toBe(true);
  const incident = await client.incidents.create({ monitorIds: [acme!.monitors[0]!.monitorId], title: 'Restart drill', message: 'Checking the outbox.', severity: 'minor' });
  await expect.poll(() => sink.mails.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  expect(await first.stop()).toBe(0);
  sites.splice(sites.indexOf(first), 1);
  const sentBeforeStop = sink.mails.length;
  expect(sentBeforeStop).toBeLessThan(SUBSCRIBERS);

  // A change while no Porchlight runs.
  await client.incidents.update(incident.id, { status: 'monitoring', message: 'A fix is rolling out.' });

  await start();
  const perAddress = () => addresses.map((address) => sink.mailsTo(address).length);
  await expect.poll(() => perAddress().every((count) => count === 2), { timeout: 30_000 }).toBe(true);
  // Nothing more comes: no mail twice.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(perAddress()).toEqual(addresses.map(() => 2));
  for (const address of addresses) {
    expect(sink.mailsTo(address).map((mail) => mail.parsed.subject ?? '').sort()).toEqual([
      expect.stringContaining('New incident: Restart drill'),
      expect.stringContaining('Restart drill'),
    ]);
  }
});
