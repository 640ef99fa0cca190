/**
 * `node bench/page-weight.ts` (after `npx astro build`): the page-weight part of `npm run bench`
 * alone, for the demo page and a page of 50 monitors, on its own API and site.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIFTY_BUDGET, measureFiftyMonitorPage, type PageWeight } from './lib/page-weight.ts';
import { startApi, startPorchlight } from './lib/processes.ts';

export async function runFiftyMonitorPageWeight(): Promise<PageWeight> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-weight-'));
  const api = await startApi(path.join(dir, 'api.db'));
  const site = await startPorchlight(api.url, api.key, 1);
  try {
    return await measureFiftyMonitorPage(api.url, api.key, site.url);
  } finally {
    await site.stop();
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const weight = await runFiftyMonitorPageWeight();
  console.log(`| Page of ${weight.monitors} monitors: HTML ≤ ${FIFTY_BUDGET.htmlBytes / 1024} KB, ≤ ${FIFTY_BUDGET.elements} elements | ${weight.htmlBytes} bytes (${weight.htmlGzipBytes} gzipped), ${weight.elements} elements |`);
}
