/**
 * `node_modules/.bin/node bench/time-to-status.ts [--before DIR] [--loads N]` (after `npx astro
 * build`; DIR another checkout, built there, e.g. main from `git archive`): how soon a visitor sees
 * the overall status, and how much of it is the page's own cost. One Debian chromium (through
 * Playwright, the project's flags) loads, cold (a new context each time: no cache, no connection),
 * the demo page `/acme` and the 50-monitor page `/fifty` (bench/lib/status-pages.ts) from each
 * site, the same bytes from a plain static server, and a trivial page; unthrottled and on a slow
 * phone on a slow network (CDP: CPU 4x slower, 1.6 Mbps both ways, 150 ms round trip). Loads are
 * interleaved: each round loads every target once under each condition, in a shuffled order, so
 * a busy moment of the shared machine spreads over all of them.
 * Per load: DOMContentLoaded and first contentful paint (the navigation's and paint timing's
 * entries), "status painted": when the status label's text was painted (Element Timing's render
 * time; the probe marks the label as the parser inserts it, so any page can be measured), and
 * "status in a frame": the first animation frame in which the label is laid out with the status
 * sentence (a frame runs only once nothing blocks rendering; its paint may come later). All from
 * navigation start. Prints medians with the interquartile
 * range and max, and the page's own cost: a page's median minus the trivial page's.
 */
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { median } from './lib/load.ts';
import { startStatusPages, type Target } from './lib/status-pages.ts';
import { chromiumArgs, chromiumPath } from '../test/e2e/support/chromium.ts';

const THROTTLED = { cpuRate: 4, latencyMs: 150, bitsPerSecond: 1.6e6 } as const;
const CONDITIONS = ['unthrottled', 'throttled'] as const;
type Condition = (typeof CONDITIONS)[number];
const METRICS = ['dcl', 'fcp', 'status', 'frame'] as const;
type Metric = (typeof METRICS)[number];
type Sample = Record<Metric, number>;

declare global {
  interface Window {
    __statusShownAt?: number;
    __statusPaintedAt?: number;
  }
}

/**
 * Runs in the page before its own code. Marks the status label for Element Timing as the parser
 * inserts it (a mutation observer's callback runs before the next frame), so the browser reports
 * when its text was painted (the frame's presentation time); and, as a cross-check, records the
 * first animation frame in which the label is laid out with the status sentence.
 */
function probe(sentence: string): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { identifier?: string; renderTime?: number })[]) {
      if (entry.identifier === 'pl-status' && window.__statusPaintedAt === undefined) window.__statusPaintedAt = entry.renderTime || entry.startTime;
    }
  }).observe({ type: 'element', buffered: true });
  const marker = new MutationObserver(() => {
    const label = document.querySelector('.pl-banner__label');
    if (!label) return;
    label.setAttribute('elementtiming', 'pl-status');
    marker.disconnect();
  });
  marker.observe(document, { childList: true, subtree: true });
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

export async function loadOnce(browser: Browser, target: Target, throttled: boolean): Promise<Sample> {
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
    await page.addInitScript(probe, target.sentence);
    await page.goto(target.url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__statusShownAt !== undefined && window.__statusPaintedAt !== undefined && performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 30_000 });
    // rAF's time and the performance entries all count from the navigation's time origin.
    const sample = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { dcl: navigation.domContentLoadedEventStart, fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime, status: window.__statusPaintedAt!, frame: window.__statusShownAt! };
    });
    return { dcl: Math.round(sample.dcl), fcp: Math.round(sample.fcp), status: Math.round(sample.status), frame: Math.round(sample.frame) };
  } finally {
    await context.close();
  }
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low));
}

export interface Summary {
  median: number;
  q1: number;
  q3: number;
  max: number;
}

function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: Math.round(median(values)), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75), max: sorted[sorted.length - 1]! };
}

export interface TimeToStatusRun {
  loads: number;
  /** target name → condition → metric → summary */
  results: Record<string, Record<Condition, Record<Metric, Summary>>>;
}

export async function measureTimeToStatus(options: { loads: number; before: string | null }): Promise<TimeToStatusRun> {
  const pages = await startStatusPages({ before: options.before });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const samples = new Map<string, Sample[]>();
  try {
    // One warm-up load of each, not counted: the browser's own first-run costs.
    for (const target of pages.targets) await loadOnce(browser, target, false);
    for (let round = 0; round < options.loads; round += 1) {
      const jobs = shuffled(CONDITIONS.flatMap((condition) => pages.targets.map((target) => ({ condition, target }))));
      for (const { condition, target } of jobs) {
        const key = `${target.name}|${condition}`;
        samples.set(key, [...(samples.get(key) ?? []), await loadOnce(browser, target, condition === 'throttled')]);
      }
      process.stderr.write(`round ${round + 1}/${options.loads}\n`);
    }
  } finally {
    await browser.close();
    await pages.stop();
  }
  const results: TimeToStatusRun['results'] = {};
  for (const target of pages.targets) {
    const perCondition = {} as Record<Condition, Record<Metric, Summary>>;
    for (const condition of CONDITIONS) {
      const taken = samples.get(`${target.name}|${condition}`) ?? [];
      perCondition[condition] = Object.fromEntries(METRICS.map((metric) => [metric, summarize(taken.map((sample) => sample[metric]))])) as Record<Metric, Summary>;
    }
    results[target.name] = perCondition;
  }
  return { loads: options.loads, results };
}

export function report(run: TimeToStatusRun): string {
  const lines: string[] = [];
  const cell = (summary: Summary) => `${summary.median} (${summary.q1}–${summary.q3}, max ${summary.max})`;
  for (const condition of CONDITIONS) {
    lines.push('', `### ${condition === 'throttled' ? 'CPU 4×, 1.6 Mbps, 150 ms RTT' : 'Unthrottled'}: median (interquartile range, max) in ms, ${run.loads} cold loads each`, '');
    lines.push('| Target | DOMContentLoaded | First contentful paint | Status painted | Status in a frame |', '|---|---|---|---|---|');
    for (const [name, perCondition] of Object.entries(run.results)) {
      const row = perCondition[condition];
      lines.push(`| ${name} | ${cell(row.dcl)} | ${cell(row.fcp)} | ${cell(row.status)} | ${cell(row.frame)} |`);
    }
    const trivial = run.results.trivial?.[condition];
    if (trivial) {
      lines.push('', `Page's own cost (median minus the trivial page's), ${condition}:`, '', '| Target | DOMContentLoaded | First contentful paint | Status painted |', '|---|---|---|---|');
      for (const [name, perCondition] of Object.entries(run.results)) {
        if (name === 'trivial') continue;
        const row = perCondition[condition];
        lines.push(`| ${name} | ${row.dcl.median - trivial.dcl.median} | ${row.fcp.median - trivial.fcp.median} | ${row.status.median - trivial.status.median} |`);
      }
    }
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { before: { type: 'string' }, loads: { type: 'string', default: '9' } } });
  const run = await measureTimeToStatus({ loads: Number(values.loads), before: values.before ?? null });
  console.log(`Time to status, ${new Date().toISOString()}${values.before ? `, before: ${values.before}` : ''}`);
  console.log(report(run));
  console.log('\n```json\n' + JSON.stringify(run) + '\n```');
}
