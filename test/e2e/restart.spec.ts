/**
 * Restarts and shutdowns with real processes: the API alone in its own process (killed like a
 * crash), the site pointed at it, the last good snapshot in a real CACHE_DIR.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { test, expect } from './fixtures.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { apiFor } from './support/api.ts';
import { startApiProxy } from './support/api-proxy.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

let directory: string;
let api: ApiProcess | null = null;
const sites: PorchlightProcess[] = [];

test.beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'porchlight-restart-'));
});

test.afterEach(async () => {
  for (const site of sites.splice(0)) await site.stop();
  await api?.stop();
  api = null;
  await rm(directory, { recursive: true, force: true });
});

async function siteFor(running: { url: string; key: string }, cacheDir: string, env: Record<string, string> = {}): Promise<PorchlightProcess> {
  const site = await startPorchlightProcess({ STATUS_API_URL: running.url, STATUS_API_KEY: running.key, CACHE_DIR: cacheDir, CACHE_FRESH_SECONDS: '5', ...env });
  sites.push(site);
  return site;
}

const get = async (url: string) => {
  const answer = await request(url);
  return { status: answer.statusCode, text: await answer.body.text() };
};

test('a restart while the API is down serves the last good page, dated, from the saved snapshot', async ({ page }) => {
  const cacheDir = path.join(directory, 'cache');
  api = await startApiProcess(path.join(directory, 'api.db'));
  const first = await siteFor(api, cacheDir);
  expect((await get(`${first.siteUrl}/acme`)).status).toBe(200);
  await expect.poll(() => existsSync(path.join(cacheDir, 'snapshot.json'))).toBe(true);
  expect(await first.stop()).toBe(0);
  await api.stop();

  const second = await siteFor(api, cacheDir);
  await expect.poll(async () => (await get(`${second.siteUrl}/readyz`)).status).toBe(200);
  const response = await page.goto(`${second.siteUrl}/acme`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText(/Live data unavailable — showing status as of/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();
  expect(second.output.some((line) => logFields(line)?.event === 'snapshot-restore' && logFields(line)?.outcome === 'loaded')).toBe(true);
  expect(second.output.some((line) => logFields(line)?.event === 'refresh' && logFields(line)?.outcome === 'failure')).toBe(true);
  // Certificates keep renewing: the TLS gate answers from the restored snapshot's pages.
  expect((await get(`${second.siteUrl}/_porchlight/tls-allowed?domain=status.acme.test`)).status).toBe(200);
  expect((await get(`${second.siteUrl}/_porchlight/tls-allowed?domain=unclaimed.acme.test`)).status).toBe(404);

  // Without a saved snapshot the same outage is the branded 503, and the site is not ready.
  const bare = await siteFor(api, path.join(directory, 'empty-cache'));
  expect((await get(`${bare.siteUrl}/acme`)).status).toBe(503);
  expect((await get(`${bare.siteUrl}/readyz`)).status).toBe(503);
  // Nor can the gate allow a custom domain it has never seen.
  expect((await get(`${bare.siteUrl}/_porchlight/tls-allowed?domain=status.acme.test`)).status).toBe(503);
});

test('a corrupt snapshot file is ignored with one log line, never a crash, and replaced once the API answers', async () => {
  const cacheDir = path.join(directory, 'cache');
  await mkdir(cacheDir, { recursive: true });
  await writeFile(path.join(cacheDir, 'snapshot.json'), '{"version":1,"owner":"x","fetchedAt":"2030-01-01T00:00:00.000Z","pages":[{"id":');
  api = await startApiProcess(path.join(directory, 'api.db'));
  const gone = { url: api.url, key: api.key };
  await api.stop();

  const down = await siteFor(gone, cacheDir);
  expect((await get(`${down.siteUrl}/acme`)).status).toBe(503);
  expect((await get(`${down.siteUrl}/readyz`)).status).toBe(503);
  const ignored = down.output.filter((line) => logFields(line)?.event === 'snapshot-restore');
  expect(ignored).toHaveLength(1);
  expect(logFields(ignored[0]!)).toMatchObject({ level: 40, outcome: 'ignored', reason: expect.stringMatching(/not valid JSON/) });
  expect(down.child.exitCode).toBeNull();
  expect(await down.stop()).toBe(0);

  api = await startApiProcess(path.join(directory, 'api.db'));
  const up = await siteFor(api, cacheDir);
  expect((await get(`${up.siteUrl}/acme`)).status).toBe(200);
  const saved = async (): Promise<{ version?: number }> => {
    try {
      return JSON.parse(await readFile(path.join(cacheDir, 'snapshot.json'), 'utf8')) as { version?: number };
    } catch {
      return {};
    }
  };
  await expect.poll(async () => (await saved()).version).toBe(1);
});

test('SIGTERM with a request in flight completes it and exits 0', async ({ porchlight }) => {
  const proxy = await startApiProxy(porchlight.apiUrl);
  // A slow API: the first page waits about three seconds for its data.
  proxy.delayMs = 1_000;
  try {
    const site = await siteFor({ url: proxy.url, key: porchlight.apiKey }, ':memory:', { HISTORY_BACKFILL_PAGES: '0' });
    const inFlight = request(`${site.siteUrl}/acme`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = performance.now();
    const exited = site.stop();
    const answer = await inFlight;
    // It was still waiting for its data when the signal came.
    expect(performance.now() - signalledAt).toBeGreaterThan(500);
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toContain('Payment processing failures');
    expect(await exited).toBe(0);
    await expect(request(`${site.siteUrl}/acme`)).rejects.toThrow();
    const lines = site.output.map(logFields);
    expect(lines.some((fields) => fields?.event === 'shutdown' && fields.signal === 'SIGTERM')).toBe(true);
    expect(lines.some((fields) => fields?.event === 'shutdown' && fields.outcome === 'clean')).toBe(true);
  } finally {
    await proxy.close();
  }
});

test('SIGTERM stops the embedded API cleanly: the store is closed and the process exits 0', async () => {
  const databasePath = path.join(directory, 'porchlight.db');
  const site = await startPorchlightProcess({ DATABASE_PATH: databasePath });
  sites.push(site);
  expect((await get(`${site.siteUrl}/acme`)).status).toBe(200);
  expect(existsSync(`${databasePath}-wal`)).toBe(true);
  expect(await site.stop()).toBe(0);
  // SQLite removes the write-ahead log when the last connection closes cleanly.
  expect(existsSync(`${databasePath}-wal`)).toBe(false);
});

test('restarts keep one push channel, pointed at the new address with the same token', async () => {
  const env = { DATABASE_PATH: path.join(directory, 'porchlight.db'), CACHE_DIR: path.join(directory, 'cache') };
  const pushChannels = async (site: PorchlightProcess) => {
    await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel')).toBe(true);
    const api = apiFor(site);
    try {
      const found: string[] = [];
      for await (const channel of api.notifications.listAll()) if (channel.name === 'Porchlight live updates') found.push(channel.webhookUrl ?? '');
      return found;
    } finally {
      await api.close();
    }
  };
  const first = await startPorchlightProcess(env);
  sites.push(first);
  const before = await pushChannels(first);
  expect(await first.stop()).toBe(0);
  const second = await startPorchlightProcess(env);
  sites.push(second);
  const after = await pushChannels(second);
  expect(before).toHaveLength(1);
  expect(after).toHaveLength(1);
  const token = (url: string) => url.split('/_porchlight/push/')[1];
  expect(token(after[0]!)).toBe(token(before[0]!));
  expect(after[0]).toContain(new URL(second.siteUrl).port);
});
