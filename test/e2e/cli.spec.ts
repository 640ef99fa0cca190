/**
 * The newcomer's path of issue 20: `npm start` (the real launcher, embedded API, push on), then the
 * `porchlight` command with nothing configured finds it through CACHE_DIR/local-api.json, and the
 * incident it opens shows on the demo page within the push latency (the data's freshness is five
 * minutes, so only the push can explain it), and leaves it when resolved.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { runPorchlight } from './support/porchlight-cli.ts';

/** Seconds an incident may take from the command's exit to the page (push, refresh, page cache). */
const PUSH_LATENCY_SECONDS = 10;

test.describe.configure({ mode: 'serial' });

let site: PorchlightProcess;
let cacheDir: string;

// Only CACHE_DIR: no STATUS_API_URL or key, as on a newcomer's terminal.
const porchlight = (args: string[]) => runPorchlight(args, { CACHE_DIR: cacheDir });

test.beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'porchlight-cli-e2e-'));
  site = await startPorchlightProcess({ CACHE_DIR: cacheDir, CACHE_FRESH_SECONDS: '300', PAGE_CACHE_SECONDS: '1', HISTORY_BACKFILL_PAGES: '0', PUSH_TOKEN: 'cli-e2e-push-token-0123456789abcdefghijkl' });
  // The API must know where to push before the incident is opened.
  await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel'), { timeout: 20_000 }).toBe(true);
});

test.afterAll(async () => {
  expect(await site.stop()).toBe(0);
  // A clean stop takes the record away: the CLI then says no API is configured, not "unreachable".
  await expect(stat(path.join(cacheDir, 'local-api.json'))).rejects.toThrow(/ENOENT/);
  await rm(cacheDir, { recursive: true, force: true });
});

test('npm start records its API for the CLI, readable by its owner only', async () => {
  const record = await stat(path.join(cacheDir, 'local-api.json'));
  expect(record.mode & 0o777).toBe(0o600);
});

test('an incident opened with the CLI shows on the demo page within the push latency, and leaves when resolved', async ({ page }) => {
  // The page may be cached for CACHE_FRESH_SECONDS (300 here) by a browser: this one asks the server each time.
  await page.setExtraHTTPHeaders({ 'cache-control': 'no-cache', pragma: 'no-cache' });
  await page.goto(`${site.siteUrl}/acme`);
  await expect(page.getByText('Partial outage').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Database slow' })).toHaveCount(0);

  const opened = await porchlight(['incident', 'open', '--title', 'Database slow', '--severity', 'minor', '--monitor', 'Database', '--json']);
  expect(opened.stderr).toBe('');
  expect(opened.code).toBe(0);
  const incident = JSON.parse(opened.stdout) as { id: string; monitors: { name: string }[] };
  expect(incident.monitors.map((monitor) => monitor.name)).toEqual(['Primary database']);
  const started = Date.now();
  await expect(async () => {
    await page.goto(`${site.siteUrl}/acme`);
    await expect(page.getByRole('heading', { name: 'Database slow' })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: PUSH_LATENCY_SECONDS * 1000 });
  console.log(`CLI incident visible on the page after ${((Date.now() - started) / 1000).toFixed(2)} s`);

  const resolved = await porchlight(['incident', 'resolve', incident.id]);
  expect(resolved.code).toBe(0);
  await expect(async () => {
    await page.goto(`${site.siteUrl}/acme`);
    await expect(page.locator('#active-incidents').getByText('Database slow')).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: PUSH_LATENCY_SECONDS * 1000 });

  const status = await porchlight(['status', '--page', 'acme']);
  expect(status.stdout).not.toContain('Database slow');
});
