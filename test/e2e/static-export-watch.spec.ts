/**
 * `npm run export -- --watch` against a real API behind a counting proxy: new data is exported
 * as it comes, with the API use of a server (one refresh per CACHE_FRESH_SECONDS at most); when
 * the API dies the files stay, and they gain the stale notice once their data is older than the
 * fresh period, as the server would show it.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy } from './support/api-proxy.ts';
import { exportManifest, startExportWatch, summaryCounts } from './support/export-process.ts';
import { startPorchlightProcess } from './support/porchlight-process.ts';

const FRESH_SECONDS = 2;

test('--watch exports new data as it comes; with the API gone the files stay and say how old they are', async () => {
  test.setTimeout(150_000);
  const porchlight = await startPorchlightProcess({ SCHEDULER: 'false' });
  const proxy = await startApiProxy(porchlight.apiUrl);
  const api = apiFor(porchlight);
  const tmp = await mkdtemp(path.join(tmpdir(), 'porchlight-watch-'));
  const out = path.join(tmp, 'dist-status');
  const watch = startExportWatch(['--out', out], { apiUrl: proxy.url, apiKey: porchlight.apiKey }, { CACHE_FRESH_SECONDS: String(FRESH_SECONDS), CACHE_MAX_STALE_SECONDS: '3600' });
  try {
    await watch.waitForLine(/^Exported 1 public page/, 1, 60_000);
    await watch.waitForLine(/^Watching for changes/);

    // Quiet data: the API sees a server's refreshes, however often the exporter looks.
    const quietFrom = proxy.requests;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const refreshes = Math.ceil(6 / FRESH_SECONDS) + 1;
    // One refresh: five lists and one check page per linked monitor (eight), with room for a page more each.
    expect(proxy.requests - quietFrom).toBeLessThanOrEqual(refreshes * 16);

    const website = (await demoPage(api)).monitors.find((link) => link.displayName === 'Website')!.monitorId;
    const incident = await api.incidents.create({ title: 'Slow sign-ins', message: 'Sign-ins take several seconds.', monitorIds: [website] });
    const line = await watch.waitForLine(/^Exported 1 public page/, 2, 30_000);
    expect(summaryCounts(line).written).toBeGreaterThan(0);
    expect(await readFile(path.join(out, 'acme/incidents', incident.id, 'index.html'), 'utf8')).toContain('Slow sign-ins');
    const live = await exportManifest(out);
    expect(await readFile(path.join(out, 'acme/index.html'), 'utf8')).not.toContain('Live data unavailable');

    await porchlight.stop();
    const staleLine = await watch.waitForLine(/the API is failing/, 1, 30_000);
    expect(staleLine).toMatch(/^Exported 1 public page/);
    // Every file is still there, now with the notice.
    expect([...(await exportManifest(out)).keys()].sort()).toEqual([...live.keys()].sort());
    for (const file of ['acme/index.html', `acme/incidents/${incident.id}/index.html`, 'domains/status.acme.test/index.html']) {
      const html = await readFile(path.join(out, file), 'utf8');
      expect(html, file).toContain('Live data unavailable — showing status as of');
      expect(html, file).toContain('Slow sign-ins');
      const asOf = Date.parse(/<div class="pl-stale"[\s\S]*?<time datetime="([^"]+)"/.exec(html)?.[1] ?? '');
      // Shown only once the data was older than the fresh period, as the server does.
      expect((await stat(path.join(out, file))).mtimeMs - asOf, file).toBeGreaterThanOrEqual(FRESH_SECONDS * 1000);
    }
    expect(await watch.stop()).toBe(0);
  } finally {
    await watch.stop();
    await api.close();
    await proxy.close();
    await porchlight.stop();
    await rm(tmp, { recursive: true, force: true });
  }
});
