/**
 * `node_modules/.bin/node bench/page-trace.ts [--before DIR] [--loads N]` (after `npx astro
 * build`): where the browser's time goes on a cold load of the demo page and the 50-monitor page
 * (bench/lib/status-pages.ts), from Chromium's own trace (Playwright's `browser.startTracing`,
 * the DevTools timeline categories). Per target, the median over N loads of the renderer's main
 * thread time in each kind of work, counted as self time (a Layout forced inside ParseHTML is
 * Layout's, not ParseHTML's): parsing HTML, style recalculation, layout, pre-paint and paint,
 * scripts, and the rest of the page's tasks; and the navigation's wall time to the load event.
 */
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { median } from './lib/load.ts';
import { startStatusPages, type Target } from './lib/status-pages.ts';
import { chromiumArgs, chromiumPath } from '../test/e2e/support/chromium.ts';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'loading', 'toplevel'];

/** Trace event names → the kind of work they are reported as. */
const KINDS: Record<string, string> = {
  ParseHTML: 'Parse HTML',
  ParseAuthorStyleSheet: 'Parse CSS',
  UpdateLayoutTree: 'Style recalculation',
  Layout: 'Layout',
  PrePaint: 'Pre-paint',
  Paint: 'Paint',
  Layerize: 'Layerize + commit',
  Commit: 'Layerize + commit',
  EvaluateScript: 'Script',
  FunctionCall: 'Script',
  'v8.compile': 'Script',
  RunTask: 'Other task time',
};
export const KIND_ORDER = ['Parse HTML', 'Parse CSS', 'Style recalculation', 'Layout', 'Pre-paint', 'Paint', 'Layerize + commit', 'Script', 'Other task time'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Self time per kind on renderer main threads (CrRendererMain), in ms. */
export function breakdown(events: TraceEvent[]): Record<string, number> {
  const mainThreads = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || event.dur === undefined || !KINDS[event.name] || !mainThreads.has(thread)) continue;
    byThread.set(thread, [...(byThread.get(thread) ?? []), event]);
  }
  const totals: Record<string, number> = Object.fromEntries(KIND_ORDER.map((kind) => [kind, 0]));
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const stack: { end: number; kind: string }[] = [];
    for (const event of list) {
      while (stack.length > 0 && stack[stack.length - 1]!.end <= event.ts) stack.pop();
      const kind = KINDS[event.name]!;
      const parent = stack[stack.length - 1];
      // A child's time is taken out of its parent's kind (self time).
      if (parent) totals[parent.kind]! -= event.dur!;
      totals[kind]! += event.dur!;
      stack.push({ end: event.ts + event.dur!, kind });
    }
  }
  for (const kind of KIND_ORDER) totals[kind] = Math.round(totals[kind]! / 100) / 10;
  return totals;
}

async function traceOnce(browser: Browser, target: Target): Promise<Record<string, number>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { categories: CATEGORIES });
    const started = Date.now();
    await page.goto(target.url, { waitUntil: 'load' });
    const wall = Date.now() - started;
    // Let the first frames after load be drawn and recorded.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    return { ...breakdown(trace.traceEvents), 'Navigation to load (wall)': wall };
  } finally {
    await context.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { before: { type: 'string' }, loads: { type: 'string', default: '7' } } });
  const loads = Number(values.loads);
  const pages = await startStatusPages({ before: values.before ?? null });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const samples = new Map<string, Record<string, number>[]>();
  try {
    for (const target of pages.targets) await traceOnce(browser, target);
    for (let round = 0; round < loads; round += 1) {
      for (const target of pages.targets) {
        if (target.name.endsWith('static')) continue;
        samples.set(target.name, [...(samples.get(target.name) ?? []), await traceOnce(browser, target)]);
      }
    }
  } finally {
    await browser.close();
    await pages.stop();
  }
  const kinds = [...KIND_ORDER, 'Navigation to load (wall)'];
  const names = [...samples.keys()];
  console.log(`Chromium trace, renderer main thread self time, median of ${loads} cold loads (ms), ${new Date().toISOString()}\n`);
  console.log(`| Work | ${names.join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  for (const kind of kinds) console.log(`| ${kind} | ${names.map((name) => String(Math.round(median(samples.get(name)!.map((sample) => sample[kind]!)) * 10) / 10)).join(' | ')} |`);
}
