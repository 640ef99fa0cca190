/**
 * Pushed updates against the real launcher and the embedded API: the API's webhook posts to the
 * site over loopback, and the page changes within seconds although the data's freshness is five
 * minutes. Metrics on their own port count what happened.
 */
import { Pool, request } from 'undici';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

const TOKEN = 'e2e-push-token-0123456789abcdefghijklmnop';

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;

const refreshes = (trigger?: string) =>
  site.output.map(logFields).filter((fields) => fields?.event === 'refresh' && fields.outcome === 'success' && (trigger === undefined || fields.trigger === trigger));

async function metric(line: string): Promise<number> {
  const text = await (await request(site.metricsUrl)).body.text();
  const match = new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

async function pageText(path: string): Promise<string> {
  const answer = await request(`${site.siteUrl}${path}`);
  return answer.body.text();
}

test.beforeAll(async () => {
  // Five minutes of freshness: only a push can explain a change seen within seconds.
  site = await startPorchlightProcess({ CACHE_FRESH_SECONDS: '300', PAGE_CACHE_SECONDS: '5', METRICS_PORT: '0', PUSH_TOKEN: TOKEN, HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel'), { timeout: 10_000 }).toBe(true);
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
});

test.afterAll(async () => {
  expect(await site.stop()).toBe(0);
});

test('an incident posted through the API, and its update, show within 2 s without waiting for the freshness period', async () => {
  const api = apiFor(site);
  const acme = await demoPage(api);
  expect(await pageText('/acme')).not.toContain('Pushed: login errors');
  const ttlRefreshes = refreshes('ttl').length;
  try {
    const created = performance.now();
    const incident = await api.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Pushed: login errors', message: 'We are looking into failed logins.', severity: 'major' });
    await expect.poll(() => pageText('/acme'), { intervals: [50], timeout: 2_000 }).toContain('Pushed: login errors');
    const shownAfterMs = performance.now() - created;

    const updated = performance.now();
    await api.incidents.update(incident.id, { status: 'identified', message: 'A bad certificate; rolling back.' });
    await expect.poll(() => pageText(`/acme/incidents/${incident.id}`), { intervals: [50], timeout: 2_000 }).toContain('A bad certificate; rolling back.');
    const updateShownAfterMs = performance.now() - updated;

    expect(shownAfterMs).toBeLessThan(2_000);
    expect(updateShownAfterMs).toBeLessThan(2_000);
    // Push refreshed the data; the five-minute freshness did not run out meanwhile.
    expect(refreshes('push').length).toBeGreaterThanOrEqual(2);
    expect(refreshes('ttl').length).toBe(ttlRefreshes);
    expect(site.output.some((line) => logFields(line)?.event === 'push' && logFields(line)?.kind === 'onIncidentCreated')).toBe(true);
    await api.incidents.delete(incident.id);
  } finally {
    await api.close();
  }
});

test('a wrong token, or any other method, is a plain 404 that refreshes nothing', async () => {
  const before = refreshes().length;
  const refusedBefore = await metric('porchlight_push_events_total{result="refused"}');
  for (const [method, path] of [
    ['POST', `/_porchlight/push/${TOKEN.slice(0, -1)}x`],
    ['POST', '/_porchlight/push/'],
    ['GET', `/_porchlight/push/${TOKEN}`],
  ] as const) {
    const answer = await request(`${site.siteUrl}${path}`, { method, ...(method === 'POST' ? { body: '{"text":"hi"}' } : {}) });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(await answer.body.text()).toBe('Not Found\n');
  }
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(refreshes().length).toBe(before);
  expect(await metric('porchlight_push_events_total{result="refused"}')).toBe(refusedBefore + 3);
});

test('a burst of 1000 pushes costs a bounded number of API requests', async () => {
  const requestsBefore = await metric('porchlight_api_requests_total{status="200"}');
  const pushRefreshesBefore = refreshes('push').length;
  const pool = new Pool(site.siteUrl, { connections: 50 });
  const started = performance.now();
  try {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => pool.request({ method: 'POST', path: `/_porchlight/push/${TOKEN}`, body: '{"text":"flood"}', headers: { 'content-type': 'application/json' } }).then(async (answer) => {
        await answer.body.dump();
        return answer.statusCode;
      })),
    );
    expect(answers.every((status) => status === 202)).toBe(true);
  } finally {
    await pool.close();
  }
  const burstSeconds = (performance.now() - started) / 1000;
  // Let the one pending refresh run.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const pushRefreshes = refreshes('push').slice(pushRefreshesBefore);
  // Five lists and one catch-up page per monitor of the demo's public pages (no backfill here).
  const perRefresh = 5 + 8;
  // At most one refresh per second, plus the one a push inside the last second leaves pending.
  const bound = Math.ceil(burstSeconds + 2.5) + 1;
  expect(pushRefreshes.length).toBeGreaterThanOrEqual(1);
  expect(pushRefreshes.length).toBeLessThanOrEqual(bound);
  const apiRequests = (await metric('porchlight_api_requests_total{status="200"}')) - requestsBefore;
  expect(apiRequests).toBeLessThanOrEqual(bound * perRefresh);
  expect(await metric('porchlight_push_events_total{result="accepted"}')).toBeGreaterThanOrEqual(1000);
  console.log(`1000 pushes in ${burstSeconds.toFixed(2)} s: ${pushRefreshes.length} refreshes, ${apiRequests} API requests (bound ${bound} × ${perRefresh})`);
});

test('metrics are served on their own port only, and count what happened', async () => {
  const onPublicPort = await request(`${site.siteUrl}/metrics`);
  expect(onPublicPort.statusCode).toBe(404);
  expect(await onPublicPort.body.text()).not.toContain('porchlight_');

  const answered = async () => {
    let sum = 0;
    for (const result of ['hit', 'stale', 'miss', 'pass']) sum += await metric(`porchlight_front_requests_total{result="${result}"}`);
    return sum;
  };
  const before = await answered();
  for (let index = 0; index < 5; index += 1) await pageText('/acme');
  expect(await answered()).toBe(before + 5);
  expect(await metric('porchlight_front_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
  expect(await metric('porchlight_data_refreshes_total{outcome="success",trigger="ttl"}')).toBeGreaterThanOrEqual(1);
  expect(await metric('porchlight_data_refreshes_total{outcome="success",trigger="push"}')).toBe(refreshes('push').length);
  expect(await metric('porchlight_renders_total{status="200"}')).toBeGreaterThanOrEqual(1);
  // Every request of every logged refresh, plus the push channel's set-up (a refresh may be running).
  const logged = refreshes().reduce((sum, fields) => sum + Number(fields?.requests), 0);
  expect(await metric('porchlight_api_requests_total{status="200"}')).toBeGreaterThanOrEqual(logged + 1);
  expect(await metric('porchlight_api_requests_total{status="201"}')).toBe(1);
  const age = await metric('porchlight_data_age_seconds');
  expect(age).toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThan(300);
});
