/**
 * The site's API use follows what changed, counted by a proxy between a real site and a real
 * embedded API: no check page for a monitor whose lastCheckedAt has not moved, a push that names
 * an incident event reads the incident list alone, and with push working nothing but the pages
 * list (once per CACHE_FRESH_SECONDS) is read between pushes. Another Porchlight process hosts the API (scheduler off: nothing changes
 * unless the test changes it); the site under test is pointed at it through the proxy.
 */
import { request } from 'undici';
import { test, expect } from '@playwright/test';
import type { ApiClient } from '../../src/api/index.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy, type ApiProxy } from './support/api-proxy.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

test.describe.configure({ mode: 'serial' });

let host: PorchlightProcess;
let proxy: ApiProxy;
let api: ApiClient;

const PAGES_LIST = /^GET \/api\/v1\/status-pages(\?|$)/;
const CHECK_PAGE = /^GET \/api\/v1\/monitors\/[^/?]+\/checks/;
const since = (from: number) => proxy.log.slice(from).map((entry) => entry.request);
const pageOf = async (site: PorchlightProcess, path: string) => (await request(`${site.siteUrl}${path}`)).body.text();

/** Visits the page every 200 ms for `ms`, as visitors would. */
async function visit(site: PorchlightProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await pageOf(site, '/acme');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  // The site's webhook is on loopback: the API's egress policy must allow it.
  host = await startPorchlightProcess({ SCHEDULER: 'false', ALLOW_PRIVATE_TARGETS: 'true' });
  proxy = await startApiProxy(host.apiUrl);
  api = apiFor(host);
});

test.afterAll(async () => {
  await api?.close();
  await proxy?.close();
  await host?.stop();
});

test('without push, each poll reads the five lists and no check page of a monitor that was not checked again', async () => {
  const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: host.apiKey, PUSH_UPDATES: 'false', CACHE_FRESH_SECONDS: '1' });
  try {
    await expect.poll(() => pageOf(site, '/acme'), { timeout: 10_000 }).toContain('Acme');
    // The first refresh read the check pages; the histories are current from then on.
    await visit(site, 1_500);
    const from = proxy.log.length;
    await visit(site, 4_000);
    const asked = since(from);
    expect(asked.filter((line) => /^GET \/api\/v1\/status-pages/.test(line)).length, asked.join('\n')).toBeGreaterThanOrEqual(2);
    expect(asked.filter((line) => CHECK_PAGE.test(line)), asked.join('\n')).toEqual([]);
  } finally {
    await site.stop();
  }
});

test('with push working, nothing but the pages list is polled between pushes, and a push about an incident reads the incident list alone', async () => {
  const port = await freePort();
  const site = await startPorchlightProcess({
    STATUS_API_URL: proxy.url,
    STATUS_API_KEY: host.apiKey,
    PORT: String(port),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CACHE_FRESH_SECONDS: '1',
    PUSH_POLL_SECONDS: '300',
  });
  const acme = await demoPage(api);
  let incidentId: string | null = null;
  try {
    await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel' && logFields(line)?.outcome !== 'failure'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => pageOf(site, '/acme'), { timeout: 10_000 }).toContain('Acme');
    // A refresh that began before the channel was verified may still run once.
    await visit(site, 2_500);
    const quietFrom = proxy.log.length;
    await visit(site, 4_000);
    // Only the pages list, which no event of the spec announces, about once per CACHE_FRESH_SECONDS (1 s here).
    const quiet = since(quietFrom);
    expect(quiet.filter((line) => !PAGES_LIST.test(line)), 'polled although push works').toEqual([]);
    expect(quiet.length, quiet.join('\n')).toBeLessThanOrEqual(6);

    const from = proxy.log.length;
    const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Counted: slow logins', message: 'Looking into it.', severity: 'minor' });
    incidentId = incident.id;
    await expect.poll(() => pageOf(site, '/acme'), { intervals: [100], timeout: 5_000 }).toContain('Counted: slow logins');
    await visit(site, 1_000);
    const asked = since(from);
    expect(asked.length, asked.join('\n')).toBeGreaterThan(0);
    expect(asked.filter((line) => !/^GET \/api\/v1\/incidents\?/.test(line) && !PAGES_LIST.test(line)), asked.join('\n')).toEqual([]);
  } finally {
    if (incidentId) await api.incidents.delete(incidentId).catch(() => undefined);
    await site.stop();
    for await (const channel of api.notifications.listAll()) if (channel.name.startsWith('Porchlight live updates (')) await api.notifications.delete(channel.id);
  }
});
