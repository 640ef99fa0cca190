/**
 * `node_modules/.bin/node bench/page-trace.ts [--before DIR] [--loads N]` (after `npx astro
 * build`): where the browser's time goes on a cold load of the demo page and the 50-monitor page
 * (bench/lib/status-pages.ts), from Chromium's own trace (Playwright's `browser.startTracing`,
 * the DevTools timeline categories). Per target, the median over N loads of the renderer's main
 * thread time in each kind of work, counted as self time (a Layout forced inside ParseHTML is
 * Layout's, not ParseHTML's): parsing HTML, style recalculation, layout, pre-paint and paint,
 * scripts, and the rest of the page's tasks; and the navigation's wall time to the load event.
 * Then the same kinds before the first contentful paint only, counted in the main thread's CPU
 * time (the trace's thread clock): what the first frame waited for, and a figure that a busy
 * shared machine inflates far less than wall time (a descheduled thread's clock stops).
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
const FIRST_PAINT = 'before first paint: ';
export const KIND_ORDER = ['Parse HTML', 'Parse CSS', 'Style recalculation', 'Layout', 'Pre-paint', 'Paint', 'Layerize + commit', 'Script', 'Other task time'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread clock (CPU time) at the start and for the duration, where the trace has them. */
  tts?: number;
  tdur?: number;
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

/**
 * Main-thread CPU time per kind spent before the first contentful paint: complete events that
 * ended before the renderer's `firstContentfulPaint` mark, measured by their thread clock.
 */
export function beforeFirstPaint(events: TraceEvent[]): Record<string, number> {
  const mark = events.find((event) => event.name === 'firstContentfulPaint');
  if (!mark) throw new Error('the trace has no first contentful paint');
  const timed = events.flatMap((event) => {
    if (event.ph === 'M') return [event];
    if (event.ph !== 'X' || event.tts === undefined || event.tdur === undefined || event.pid !== mark.pid) return [];
    return event.ts + (event.dur ?? 0) <= mark.ts ? [{ ...event, ts: event.tts, dur: event.tdur }] : [];
  });
  const kinds = breakdown(timed);
  return { ...kinds, Total: Math.round(Object.values(kinds).reduce((sum, ms) => sum + ms, 0) * 10) / 10 };
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
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]!.startTime);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const first = Object.entries(beforeFirstPaint(trace.traceEvents)).map(([kind, ms]) => [`${FIRST_PAINT}${kind}`, ms]);
    return { ...breakdown(trace.traceEvents), 'Navigation to load (wall)': wall, ...Object.fromEntries(first), [`${FIRST_PAINT}First contentful paint (wall)`]: Math.round(fcp) };
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
  const names = [...samples.keys()];
  const table = (title: string, kinds: string[], prefix = ''): void => {
    console.log(`${title}\n`);
    console.log(`| Work | ${names.join(' | ')} |`);
    console.log(`|---|${names.map(() => '---').join('|')}|`);
    for (const kind of kinds) console.log(`| ${kind} | ${names.map((name) => String(Math.round(median(samples.get(name)!.map((sample) => sample[prefix + kind]!)) * 10) / 10)).join(' | ')} |`);
    console.log('');
  };
  table(`Chromium trace, renderer main thread self time, median of ${loads} cold loads (ms), ${new Date().toISOString()}`, [...KIND_ORDER, 'Navigation to load (wall)']);
  table('Before the first contentful paint: main thread CPU time (thread clock), self, median (ms)', [...KIND_ORDER, 'Total', 'First contentful paint (wall)'], FIRST_PAINT);
}
