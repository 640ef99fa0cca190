/**
 * Page changes reach visitors in seconds, and hiding a page wins over every cache: against the
 * real launcher and its embedded API (which announces page changes on Porchlight's own push
 * channel), a page created, restyled, made non-public and deleted is served that way within 2 s in
 * every output, the front cache keeps nothing of a hidden page, and the TLS gate refuses its
 * domain. The data's freshness is five minutes here: only the page-change push explains seconds.
 */
import { request } from 'undici';
import type { ApiClient } from '../../src/api/index.ts';
import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;
let api: ApiClient;

const SLUG = 'fresh-page';
const DOMAIN = 'fresh.example.test';
const NEVER = 'never-existed-page';

interface Answer {
  status: number;
  type: string;
  body: string;
}

async function get(path: string, host?: string): Promise<Answer> {
  const response = await request(`${site.siteUrl}${path}`, host ? { headers: { host } } : {});
  const body = Buffer.from(await response.body.arrayBuffer()).toString('latin1');
  return { status: response.statusCode, type: String(response.headers['content-type'] ?? ''), body };
}

const tlsAllowed = async (name: string) => (await request(`${site.siteUrl}/_porchlight/tls-allowed?domain=${name}`)).statusCode;

/** Every output of a page, below its slug (the main host) or at the root of its domain. */
function outputs(monitorId: string): string[] {
  return [
    '',
    'history/',
    'history.rss',
    'history.atom',
    'maintenance.ics',
    'badge.svg',
    `components/${monitorId}/`,
    `components/${monitorId}/badge.svg`,
    'widget',
    'card.png',
    'favicon.svg',
    'favicon.png',
    'api/v2/summary.json',
    'api/v2/status.json',
    'api/v2/incidents.json',
  ];
}

/** Each output of the hidden page answers exactly as the same output of a page that never existed. */
async function expectGoneEverywhere(monitorId: string): Promise<void> {
  for (const output of outputs(monitorId)) {
    const hidden = await get(`/${SLUG}/${output}`);
    const never = await get(`/${NEVER}/${output}`);
    expect(hidden.status, output).toBe(404);
    expect(hidden, output).toEqual(never);
  }
  // Its custom domain: like a Host nobody configured.
  for (const output of ['', 'history.rss', 'badge.svg', 'api/v2/status.json']) {
    const hidden = await get(`/${output}`, DOMAIN);
    const never = await get(`/${output}`, 'never.example.test');
    expect(hidden, `${DOMAIN}/${output}`).toEqual(never);
  }
  expect((await get('/sitemap.xml')).body).not.toContain(`/${SLUG}/`);
  expect(await tlsAllowed(DOMAIN)).toBe(404);
}

/** Fills the front cache with the page's outputs (a second request is a hit on stored bytes). */
async function visitAll(monitorId: string): Promise<void> {
  for (const output of outputs(monitorId)) {
    expect((await get(`/${SLUG}/${output}`)).status, output).toBe(200);
    await get(`/${SLUG}/${output}`);
  }
  await get('/', DOMAIN);
  await get('/sitemap.xml');
}

/** Polls the page's HTML until `check` holds; returns the milliseconds it took. */
async function within(ms: number, check: (answer: Answer) => boolean, path = `/${SLUG}/`): Promise<number> {
  const started = performance.now();
  await expect.poll(async () => check(await get(path)), { intervals: [50], timeout: ms }).toBe(true);
  return performance.now() - started;
}

test.beforeAll(async () => {
  site = await startPorchlightProcess({ CACHE_FRESH_SECONDS: '300', PUSH_POLL_SECONDS: '300', PAGE_CACHE_SECONDS: '60', HISTORY_BACKFILL_PAGES: '0' });
  await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel'), { timeout: 10_000 }).toBe(true);
  await expect.poll(async () => (await request(`${site.siteUrl}/readyz`)).statusCode, { timeout: 10_000 }).toBe(200);
  api = apiFor(site);
});

test.afterAll(async () => {
  if (process.env.DUMP_LOG) (await import('node:fs')).writeFileSync(process.env.DUMP_LOG, site.output.join('\n'));
  await api?.close();
  expect(await site.stop()).toBe(0);
});

test('a page created, restyled, made non-public and deleted shows so within 2 s in every output', async () => {
  test.setTimeout(90_000);
  const acme = await demoPage(api);
  const monitorId = acme.monitors[0]!.monitorId;
  const times: Record<string, number> = {};

  const created = performance.now();
  const page = await api.statusPages.create({ name: 'Fresh page', slug: SLUG, customDomain: DOMAIN, isPublic: true, monitors: [{ monitorId }] });
  await within(2_000, (answer) => answer.status === 200);
  times.created = performance.now() - created;
  expect(await tlsAllowed(DOMAIN)).toBe(200);

  const restyled = performance.now();
  await api.statusPages.update(page.id, { customCss: '.fresh-marker-1 { color: rebeccapurple; }' });
  await within(2_000, (answer) => answer.body.includes('fresh-marker-1'));
  times.restyled = performance.now() - restyled;

  await visitAll(monitorId);
  const hidden = performance.now();
  await api.statusPages.update(page.id, { isPublic: false });
  await within(2_000, (answer) => answer.status === 404);
  times.hidden = performance.now() - hidden;
  // Every other output is gone on its first request: nothing stored of the page is served again.
  await expectGoneEverywhere(monitorId);

  await api.statusPages.update(page.id, { isPublic: true });
  await within(2_000, (answer) => answer.status === 200);
  await expect.poll(() => tlsAllowed(DOMAIN), { timeout: 2_000 }).toBe(200);
  await visitAll(monitorId);
  const moved = performance.now();
  await api.statusPages.update(page.id, { customDomain: null });
  await expect.poll(() => tlsAllowed(DOMAIN), { intervals: [50], timeout: 2_000 }).toBe(404);
  times.domainRemoved = performance.now() - moved;
  expect(await get('/', DOMAIN)).toEqual(await get('/', 'never.example.test'));
  await api.statusPages.update(page.id, { customDomain: DOMAIN });
  await expect.poll(() => tlsAllowed(DOMAIN), { timeout: 2_000 }).toBe(200);

  await visitAll(monitorId);
  const deleted = performance.now();
  await api.statusPages.delete(page.id);
  await within(2_000, (answer) => answer.status === 404);
  times.deleted = performance.now() - deleted;
  await expectGoneEverywhere(monitorId);

  for (const [what, ms] of Object.entries(times)) expect(ms, what).toBeLessThan(2_000);
  // Pushes did it: the five-minute freshness never ran out.
  expect(site.output.some((line) => logFields(line)?.event === 'push' && logFields(line)?.kind === 'onStatusPageChanged')).toBe(true);
  console.log(`page changes shown after: ${Object.entries(times).map(([what, ms]) => `${what} ${Math.round(ms)} ms`).join(', ')}`);
});
