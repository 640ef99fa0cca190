/**
 * Visitors who leave cannot take the site down (issue 17, item 1): hundreds of requests of each
 * kind that is not a plain cache hit, abandoned at random points over raw sockets, and then the
 * health check, a page never rendered before and a long URL still answer within a second.
 */
import { test, expect } from './fixtures.ts';
import { abandon, inBatches, LEAVE_POINTS, seededRandom, timedGet } from './support/abandoning-clients.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

const PER_KIND = 500;
const CONCURRENCY = 50;
const LONG_QUERY = `x=${'a'.repeat(3_000)}`;
const seed = Number(process.env.ABANDON_SEED ?? Date.now() % 1_000_000);

/** Every check answers, and within one second. */
async function expectResponsive(site: PorchlightProcess, newPage: string): Promise<void> {
  for (const path of ['/healthz', newPage, `/acme?${LONG_QUERY}&after=1`]) {
    const answer = await timedGet(`${site.siteUrl}${path}`, 5_000);
    expect.soft(answer.status, `${path.slice(0, 40)} answered (seed ${seed})`).toBeGreaterThan(0);
    expect.soft(answer.status).toBeLessThan(500);
    expect(answer.ms, `${path.slice(0, 40)} within 1 s (seed ${seed})`).toBeLessThan(1_000);
  }
}

/** The first load and render of a cold start are not under test: wait for them. */
async function warm(site: PorchlightProcess): Promise<void> {
  await expect.poll(async () => (await timedGet(`${site.siteUrl}/acme`, 10_000)).status, { timeout: 20_000 }).toBe(200);
}

async function storm(site: PorchlightProcess, method: string, target: (index: number) => string): Promise<void> {
  const random = seededRandom(seed);
  const origin = new URL(site.siteUrl);
  await inBatches(PER_KIND, CONCURRENCY, (index) => abandon(origin, method, target(index), LEAVE_POINTS[index % LEAVE_POINTS.length]!, random));
}

test.describe('clients that leave', () => {
  test.setTimeout(180_000);

  test('long URLs, HEAD requests and new addresses abandoned at random points leave the site responsive', async () => {
    const site = await startPorchlightProcess({ PAGE_CACHE_SECONDS: '5' });
    try {
      await warm(site);
      await storm(site, 'GET', (index) => `/acme?${LONG_QUERY}&i=${index}`);
      await expectResponsive(site, '/acme/history/');
      await storm(site, 'HEAD', (index) => `/acme?${LONG_QUERY}&h=${index}`);
      await expectResponsive(site, '/acme/history.atom');
      // Each a new address, so each a render that the leaving visitor cannot take back.
      await storm(site, 'GET', (index) => `/acme/incidents/gone-${index}`);
      await expectResponsive(site, '/acme/maintenance.ics');
      expect(await (await fetch(`${site.siteUrl}/readyz`, { signal: AbortSignal.timeout(1_000) })).text()).toBe('ready\n');
    } finally {
      await site.stop();
    }
  });

  test('with caching off, abandoned requests leave the site responsive', async () => {
    const site = await startPorchlightProcess({ PAGE_CACHE_SECONDS: '0' });
    try {
      await warm(site);
      await storm(site, 'GET', (index) => `/acme?i=${index}`);
      await storm(site, 'HEAD', (index) => `/acme/history/?h=${index}`);
      await expectResponsive(site, '/acme/history.rss');
    } finally {
      await site.stop();
    }
  });
});
