/**
 * Outage behaviour against the real server and the embedded API, with a switchable proxy in
 * between standing in for an API that is slow, rate-limiting, broken or gone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures.ts';
import { startApiProxy } from './support/api-proxy.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

/** Refreshes visitors started (the data's freshness ran out), not the pages list's own reads every CACHE_FRESH_SECONDS. */
const refreshLines = (site: PorchlightProcess) => site.output.filter((line) => line.includes('refreshed status data') && line.includes('"trigger":"ttl"'));
const requestsOf = (line: string) => Number(/with (\d+) API requests/.exec(line)?.[1]);

async function behindProxy(porchlight: PorchlightProcess, env: Record<string, string> = {}) {
  const proxy = await startApiProxy(porchlight.apiUrl);
  const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: porchlight.apiKey, PAGE_CACHE_SECONDS: '0', ...env });
  return { proxy, site };
}

async function stopAll(...parts: ({ stop(): Promise<unknown> } | { close(): Promise<void> })[]) {
  for (const part of parts) await ('stop' in part ? part.stop() : part.close());
}

test.describe('when the API misbehaves', () => {
  test('a burst of cold requests makes one refresh, whatever their number', async ({ request, porchlight }) => {
    const { proxy, site } = await behindProxy(porchlight, { CACHE_FRESH_SECONDS: '60' });
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => request.get(`${site.siteUrl}/acme?visitor=${index}`)));
      expect(answers.every((answer) => answer.status() === 200)).toBe(true);
      await expect.poll(() => refreshLines(site).length).toBe(1);
      expect(proxy.requests).toBe(requestsOf(refreshLines(site)[0]!));
    } finally {
      await stopAll(site, proxy);
    }
  });

  test('stale data is served at once while one refresh runs in the background', async ({ request, porchlight }) => {
    const { proxy, site } = await behindProxy(porchlight, { CACHE_FRESH_SECONDS: '1' });
    try {
      await request.get(`${site.siteUrl}/acme`);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const answers = await Promise.all(Array.from({ length: 20 }, () => request.get(`${site.siteUrl}/acme`)));
      expect(answers.every((answer) => answer.status() === 200)).toBe(true);
      await expect.poll(() => refreshLines(site).length).toBe(2);
    } finally {
      await stopAll(site, proxy);
    }
  });

  test('with the API gone, the last known status keeps being served, clearly dated', async ({ page, porchlight }) => {
    const { proxy, site } = await behindProxy(porchlight, { CACHE_FRESH_SECONDS: '1' });
    try {
      await page.goto(`${site.siteUrl}/acme`);
      await expect(page.getByText('Live data unavailable')).toHaveCount(0);
      proxy.mode = 'down';
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await expect(async () => {
        const response = await page.goto(`${site.siteUrl}/acme`);
        expect(response?.status()).toBe(200);
        await expect(page.getByText(/Live data unavailable — showing status as of/)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();

      proxy.mode = 'pass';
      await expect(async () => {
        await page.goto(`${site.siteUrl}/acme`);
        await expect(page.getByText('Live data unavailable')).toHaveCount(0, { timeout: 500 });
      }).toPass({ timeout: 15_000 });
    } finally {
      await stopAll(site, proxy);
    }
  });

  test('a garbage payload keeps the last good data', async ({ page, porchlight }) => {
    const { proxy, site } = await behindProxy(porchlight, { CACHE_FRESH_SECONDS: '1' });
    try {
      await page.goto(`${site.siteUrl}/acme`);
      proxy.mode = 'garbage';
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await expect(async () => {
        await page.goto(`${site.siteUrl}/acme`);
        await expect(page.getByText(/Live data unavailable/)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();
    } finally {
      await stopAll(site, proxy);
    }
  });

  test("a 429 holds refreshes until its Retry-After", async ({ request, porchlight }) => {
    const { proxy, site } = await behindProxy(porchlight, { CACHE_FRESH_SECONDS: '1' });
    try {
      expect((await request.get(`${site.siteUrl}/acme`)).status()).toBe(200);
      await expect.poll(() => refreshLines(site).length).toBe(1);
      // Long enough that the two seconds of visits below end well inside it, even on a busy machine.
      proxy.retryAfterSeconds = 8;
      proxy.mode = 'rate-limited';
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await request.get(`${site.siteUrl}/acme`);
      await expect.poll(() => site.output.some((line) => line.includes('refresh failed'))).toBe(true);
      // Requests of that refresh already on the wire may still arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const afterLimit = proxy.requests;
      for (let second = 0; second < 2; second += 1) {
        await Promise.all(Array.from({ length: 10 }, () => request.get(`${site.siteUrl}/acme`)));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      // Retry-After is 8 s: nothing was asked of the API inside it.
      expect(proxy.requests).toBe(afterLimit);
      proxy.mode = 'pass';
      // Once the hold is over, the next visit refreshes the data.
      await expect
        .poll(async () => {
          await request.get(`${site.siteUrl}/acme`);
          return refreshLines(site).length;
        }, { timeout: 15_000, intervals: [500] })
        .toBe(2);
    } catch (error) {
      console.log(site.output.join('\n'));
      throw error;
    } finally {
      await stopAll(site, proxy);
    }
  });

  test('a cold start with the API down answers a branded 503 with Retry-After, no stack', async ({ request, porchlight }) => {
    const proxy = await startApiProxy(porchlight.apiUrl);
    proxy.mode = 'down';
    const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: porchlight.apiKey });
    try {
      const response = await request.get(`${site.siteUrl}/acme`);
      expect(response.status()).toBe(503);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.headers()['cache-control']).toBe('no-store');
      const body = await response.text();
      expect(body).toContain('Status temporarily unavailable');
      expect(body).not.toMatch(/at \w+ \(|node:internal|Error:/);
      expect(body).not.toContain(porchlight.apiKey);
    } finally {
      await stopAll(site, proxy);
    }
  });
});

test.describe('HTTP caching', () => {
  test('pages carry a strong ETag, answer 304 to If-None-Match, and CDN-friendly Cache-Control', async ({ request, porchlight }) => {
    const first = await request.get(`${porchlight.siteUrl}/acme`, { headers: { 'accept-encoding': 'gzip' } });
    const etag = first.headers()['etag'];
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers()['content-encoding']).toBe('gzip');
    expect(first.headers()['cache-control']).toMatch(/^public, max-age=\d+, must-revalidate$/);
    // The demo changes every second here (1 s caches, a live engine), so a re-render may slip in
    // between two requests and rightly change the ETag: ask again until a pair falls in one render.
    await expect(async () => {
      const current = (await request.get(`${porchlight.siteUrl}/acme`, { headers: { 'accept-encoding': 'gzip' } })).headers()['etag']!;
      const second = await request.get(`${porchlight.siteUrl}/acme`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': current } });
      expect(second.status()).toBe(304);
      expect(second.headers()['etag']).toBe(current);
    }).toPass({ timeout: 10_000 });
    const mismatch = await request.get(`${porchlight.siteUrl}/acme`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': '"not-it"' } });
    expect(mismatch.status()).toBe(200);
    const notFound = await request.get(`${porchlight.siteUrl}/nope`);
    expect(notFound.headers()['cache-control']).toBe('no-store');
    expect(notFound.headers()['etag']).toBeUndefined();
  });

  test('the uptime history survives a restart without being fetched again', async ({ request, porchlight }) => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'porchlight-history-'));
    const proxy = await startApiProxy(porchlight.apiUrl);
    const env = { STATUS_API_URL: proxy.url, STATUS_API_KEY: porchlight.apiKey, CACHE_DIR: cacheDir };
    try {
      const first = await startPorchlightProcess(env);
      await request.get(`${first.siteUrl}/acme`);
      await expect.poll(() => refreshLines(first).length).toBe(1);
      const coldRequests = requestsOf(refreshLines(first)[0]!);
      await first.stop();

      const second = await startPorchlightProcess(env);
      await request.get(`${second.siteUrl}/acme`);
      await expect.poll(() => refreshLines(second).length).toBe(1);
      const warmRequests = requestsOf(refreshLines(second)[0]!);
      await second.stop();
      // Five lists plus one catch-up page per monitor; the 90 days are not read again.
      expect(warmRequests).toBeLessThan(coldRequests / 3);
      expect(warmRequests).toBeLessThanOrEqual(5 + 8);
    } finally {
      await proxy.close();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
