/**
 * Page changes reach visitors in seconds, and hiding a page wins over every cache: against the
 * real launcher and its embedded API (which announces page changes on Porchlight's own push
 * channel), a page created, restyled, made non-public, moved off its domain and deleted is served
 * that way within 2 s in every output, the front cache serves nothing stored of a hidden page, and
 * the TLS gate refuses its domain. The data's freshness is five minutes here: only the page-change
 * push explains seconds.
 */
import { request } from 'undici';
import type { ApiClient } from '../../src/api/index.ts';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { expectGoneEverywhere, getFrom, tlsAllowed, visitAll, type Answer } from './support/page-gone.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;
let api: ApiClient;

const SLUG = 'fresh-page';
const DOMAIN = 'fresh.example.test';

/** Polls the page's HTML until `check` holds. */
async function until(ms: number, check: (answer: Answer) => boolean): Promise<void> {
  await expect.poll(async () => check(await getFrom(site.siteUrl, `/${SLUG}/`)), { intervals: [50], timeout: ms }).toBe(true);
}

test.beforeAll(async () => {
  site = await startPorchlightProcess({ CACHE_FRESH_SECONDS: '300', PUSH_POLL_SECONDS: '300', PAGE_CACHE_SECONDS: '60', HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel'), { timeout: 10_000 }).toBe(true);
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  api = apiFor(site);
});

test.afterAll(async () => {
  await api?.close();
  expect(await site.stop()).toBe(0);
});

test('a page created, restyled, made non-public, moved and deleted shows so within 2 s in every output', async () => {
  test.setTimeout(90_000);
  const monitorId = (await demoPage(api)).monitors[0]!.monitorId;
  const fresh = { slug: SLUG, domain: DOMAIN, monitorId };
  const times: Record<string, number> = {};
  const timed = async (what: string, change: () => Promise<unknown>, shown: () => Promise<void>) => {
    const started = performance.now();
    await change();
    await shown();
    times[what] = performance.now() - started;
  };

  let id = '';
  await timed('created', async () => (id = (await api.statusPages.create({ name: 'Fresh page', slug: SLUG, customDomain: DOMAIN, isPublic: true, monitors: [{ monitorId }] })).id), () => until(2_000, (answer) => answer.status === 200));
  expect(await tlsAllowed(site.siteUrl, DOMAIN)).toBe(200);
  await timed('restyled', () => api.statusPages.update(id, { customCss: '.fresh-marker-1 { color: rebeccapurple; }' }), () => until(2_000, (answer) => answer.body.includes('fresh-marker-1')));

  await visitAll(site.siteUrl, fresh);
  await timed('hidden', () => api.statusPages.update(id, { isPublic: false }), () => until(2_000, (answer) => answer.status === 404));
  // Every other output is gone on its first request: nothing stored of the page is served again.
  await expectGoneEverywhere(site.siteUrl, fresh);

  await api.statusPages.update(id, { isPublic: true });
  await until(2_000, (answer) => answer.status === 200);
  await expect.poll(() => tlsAllowed(site.siteUrl, DOMAIN), { timeout: 2_000 }).toBe(200);
  await visitAll(site.siteUrl, fresh);
  await timed('domain removed', () => api.statusPages.update(id, { customDomain: null }), () => expect.poll(() => tlsAllowed(site.siteUrl, DOMAIN), { intervals: [50], timeout: 2_000 }).toBe(404));
  expect(await getFrom(site.siteUrl, '/', DOMAIN)).toEqual(await getFrom(site.siteUrl, '/', 'never.example.test'));
  await api.statusPages.update(id, { customDomain: DOMAIN });
  await expect.poll(() => tlsAllowed(site.siteUrl, DOMAIN), { timeout: 2_000 }).toBe(200);

  await visitAll(site.siteUrl, fresh);
  await timed('deleted', () => api.statusPages.delete(id), () => until(2_000, (answer) => answer.status === 404));
  await expectGoneEverywhere(site.siteUrl, fresh);

  for (const [what, ms] of Object.entries(times)) expect(ms, what).toBeLessThan(2_000);
  // Pushes did it: the five-minute freshness never ran out.
  expect(site.output.some((line) => logFields(line)?.event === 'push' && logFields(line)?.kind === 'onStatusPageChanged')).toBe(true);
  console.log(`page changes shown after: ${Object.entries(times).map(([what, ms]) => `${what} ${Math.round(ms)} ms`).join(', ')}`);
});
