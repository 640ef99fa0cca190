/**
 * `node bench/time-to-status.ts` (after `npx astro build`): how soon a visitor sees the overall
 * status. Debian's chromium (through Playwright) loads the demo page cold (a new context each
 * time: no cache, no connection) 10 times unthrottled and 10 times on a slow phone on a slow
 * network (CDP: CPU 4x slower, 1.6 Mbps both ways, 150 ms round trip), and takes the time from
 * navigation start to the first frame whose rendered text holds the status sentence: a
 * requestAnimationFrame probe installed before the page's own code, which reads the banner's
 * text once rendered (a frame only runs once nothing blocks rendering, e.g. a stylesheet).
 * Prints median and max; the figures are recorded by hand in docs/benchmarks.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { median } from './lib/load.ts';
import { startApi, startPorchlight } from './lib/processes.ts';
import { chromiumArgs, chromiumPath } from '../test/e2e/support/chromium.ts';

const LOADS = 10;
const THROTTLED = { cpuRate: 4, latencyMs: 150, bitsPerSecond: 1.6e6 } as const;

declare global {
  interface Window {
    __statusShownAt?: number;
  }
}

/** Runs in the page before its own scripts: marks the first frame that shows the status sentence. */
function probe(sentence: string): void {
  const check = (time: number): void => {
    const label = document.querySelector('.pl-banner__label');
    if (label && label.textContent?.trim() === sentence && label.getClientRects().length > 0) {
      window.__statusShownAt = time;
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

export async function timeToStatus(browser: Browser, url: string, sentence: string, throttled: boolean): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (throttled) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLED.cpuRate });
      await cdp.send('Network.enable');
      const bytesPerSecond = THROTTLED.bitsPerSecond / 8;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: THROTTLED.latencyMs, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond });
    }
    await page.addInitScript(probe, sentence);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__statusShownAt !== undefined, null, { timeout: 30_000 });
    // rAF's time and performance.now() both count from the navigation's time origin.
    return Math.round(await page.evaluate(() => window.__statusShownAt!));
  } finally {
    await context.close();
  }
}

export interface TimeToStatus {
  sentence: string;
  unthrottled: { medianMs: number; maxMs: number; samples: number[] };
  throttled: { medianMs: number; maxMs: number; samples: number[] };
}

export async function measureTimeToStatus(loads = LOADS): Promise<TimeToStatus> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-tts-'));
  const api = await startApi(path.join(dir, 'api.db'));
  const site = await startPorchlight(api.url, api.key, 60);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const url = `${site.url.replace(/\/+$/, '')}/acme`;
    // Warm the site's cache once (what every visitor after the first gets), and read the sentence.
    const warm = await browser.newPage();
    await warm.goto(url);
    const sentence = (await warm.locator('.pl-banner__label').textContent())!.trim();
    await warm.close();
    const run = async (throttled: boolean) => {
      const samples: number[] = [];
      for (let load = 0; load < loads; load += 1) samples.push(await timeToStatus(browser, url, sentence, throttled));
      return { medianMs: Math.round(median(samples)), maxMs: Math.max(...samples), samples };
    };
    return { sentence, unthrottled: await run(false), throttled: await run(true) };
  } finally {
    await browser.close();
    await site.stop();
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const result = await measureTimeToStatus();
  console.log(`Time to status ("${result.sentence}"), ${LOADS} cold loads of /acme each:`);
  console.log(`| Unthrottled | median ${result.unthrottled.medianMs} ms | max ${result.unthrottled.maxMs} ms | ${result.unthrottled.samples.join(', ')} |`);
  console.log(`| CPU 4x, 1.6 Mbps, 150 ms RTT | median ${result.throttled.medianMs} ms | max ${result.throttled.maxMs} ms | ${result.throttled.samples.join(', ')} |`);
}
