import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRelative } from '../../../src/site/lib/format-date.ts';
import { INLINE_SCRIPT_BUDGET_BYTES } from '../../../src/site/scripts/budget.ts';
import { enhanceScript } from '../../../src/site/scripts/enhance.ts';
import { minifyInlineScript } from '../../../src/site/scripts/minify-inline.ts';

const scriptUrl = new URL('../../../src/site/scripts/enhance.js', import.meta.url);
const source = readFileSync(scriptUrl, 'utf8');

describe('enhance.js budget and hash', () => {
  it(`fits the ${INLINE_SCRIPT_BUDGET_BYTES}-byte budget as pages carry it (minified)`, () => {
    expect(Buffer.byteLength(enhanceScript.source, 'utf8')).toBeLessThanOrEqual(INLINE_SCRIPT_BUDGET_BYTES);
  });

  it('is the source file minified: the comments stay in the file only, the words are kept', async () => {
    expect(source).toContain('// Porchlight progressive enhancement');
    expect(enhanceScript.source).toBe(await minifyInlineScript(source));
    expect(enhanceScript.source).not.toMatch(/\/\/ |\/\*/);
    expect(enhanceScript.source).toContain('porchlight:refresh-paused');
    expect(enhanceScript.source.length).toBeLessThan(source.length * 0.75);
  });

  it('exports the CSP hash of exactly the text inlined', () => {
    const digest = createHash('sha256').update(enhanceScript.source, 'utf8').digest('base64');
    expect(enhanceScript.hash).toBe(`'sha256-${digest}'`);
  });

  it('minifies a script to code only, and refuses one that does not parse', async () => {
    await expect(minifyInlineScript('const a = 1; // note\n/* block */ console.log(a);')).resolves.not.toMatch(/note|block|\n/);
    await expect(minifyInlineScript('(() => {')).rejects.toThrow();
  });

  it('never writes inline styles or handlers (the CSP would refuse them)', () => {
    expect(source).not.toMatch(/\.style\b|setAttribute\(\s*['"](style|on\w+)['"]|innerHTML|\.on\w+\s*=/);
  });
});

interface FakeElement {
  textContent: string;
  className: string;
  type: string;
  attributes: Record<string, string>;
  listeners: Record<string, () => void>;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, listener: () => void): void;
  remove(): void;
}

/** A line of text as wide as `room` characters: one line (20 px) while its text fits, two after. */
interface FakeBox {
  top: number;
  room: number;
  time: FakeTime | null;
  getBoundingClientRect(): { top: number; height: number };
}

interface FakeTime {
  dateTime: string;
  textContent: string;
  title: string;
  relative: boolean;
  /** What the script put right after the element. */
  next: FakeElement | null;
  readonly nextSibling: FakeElement | null;
  parentNode: { closest(selector: string): FakeBox };
  hasAttribute(name: string): boolean;
  after(node: FakeElement): void;
}

const LINE_PX = 20;
const SCREEN_PX = 800;

function fakeTime(dateTime: string, textContent: string, relative = false, line: { top?: number; room?: number } = {}): FakeTime {
  const box: FakeBox = {
    top: line.top ?? 100,
    room: line.room ?? 200,
    time: null,
    getBoundingClientRect() {
      const text = (this.time?.textContent ?? '') + (this.time?.next?.textContent ?? '');
      return { top: this.top, height: text.length > this.room ? 2 * LINE_PX : LINE_PX };
    },
  };
  const time: FakeTime = {
    dateTime,
    textContent,
    title: 'page words',
    relative,
    next: null,
    get nextSibling() { return this.next; },
    parentNode: { closest: () => box },
    hasAttribute(name) { return name === 'data-relative' && this.relative; },
    after(node) {
      this.next = node;
      node.remove = () => { if (this.next === node) this.next = null; };
    },
  };
  box.time = time;
  return time;
}

/** enhance.js with its first paint on screen: the refresh line is filled after it. */
function runRefreshing(options: Parameters<typeof runEnhance>[0]) {
  const page = runEnhance(options);
  page.afterFirstPaint();
  return page;
}

/** Runs enhance.js against a minimal fake document; timers are vitest's fake ones. */
function runEnhance(options: { refresh?: string; visible?: boolean; stored?: Map<string, string>; times?: FakeTime[]; paintTiming?: boolean }) {
  const storage = options.stored ?? new Map<string, string>();
  const documentListeners: Record<string, () => void> = {};
  const times = options.times ?? [fakeTime('2026-11-22T14:05:00.000Z', 'server words'), fakeTime('not a time', 'left alone', true)];
  // The words PageLayout writes on the slot (i18n/script-words.ts), in English.
  const dataset = { every: `This page refreshes every ${options.refresh ?? ''} seconds.`, paused: 'Auto-refresh is paused.', pause: 'Pause auto-refresh', resume: 'Resume auto-refresh' };
  const slot = { hidden: true, dataset, children: [] as unknown[], append(...nodes: unknown[]) { this.children.push(...nodes); } };
  let openDetails = false;
  let focusInBar = false;
  let reloads = 0;
  const frames: (() => void)[] = [];
  // The browser's paint timing: the script's observer, told of paints as Chromium reports them.
  const paintObservers: ((list: { getEntriesByName(name: string): unknown[] }) => void)[] = [];
  class FakePerformanceObserver {
    static supportedEntryTypes = ['element', 'navigation', 'paint', 'resource'];
    private readonly callback: (list: { getEntriesByName(name: string): unknown[] }) => void;
    constructor(callback: (list: { getEntriesByName(name: string): unknown[] }) => void) {
      this.callback = callback;
    }
    observe(options: { type: string; buffered: boolean }) {
      if (options.type === 'paint' && options.buffered) paintObservers.push(this.callback);
    }
  }
  let storageReads = 0;
  const doc = {
    visibilityState: options.visible === false ? 'hidden' : 'visible',
    documentElement: { dataset: options.refresh === undefined ? {} : { refresh: options.refresh } },
    querySelectorAll: (selector: string) => (selector === 'time[data-local]' ? times : []),
    querySelector: (selector: string) => {
      if (selector === '[data-refresh-slot]') return slot;
      const parts = selector.split(',').map((part) => part.trim());
      if (parts.includes('details[open]') && openDetails) return {};
      if (parts.includes('.pl-uptime :focus') && focusInBar) return {};
      return null;
    },
    createElement: (): FakeElement => ({
      textContent: '',
      className: '',
      type: '',
      attributes: {},
      listeners: {},
      setAttribute(name, value) { this.attributes[name] = value; },
      addEventListener(type, listener) { this.listeners[type] = listener; },
      remove() {},
    }),
    addEventListener: (type: string, listener: () => void) => { documentListeners[type] = listener; },
  };
  runInNewContext(enhanceScript.source, {
    document: doc,
    location: { reload: () => (reloads += 1) },
    sessionStorage: {
      getItem: (key: string) => {
        storageReads += 1;
        return storage.get(key) ?? null;
      },
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    },
    performance: { now: () => Date.now() },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    ...(options.paintTiming === false ? {} : { PerformanceObserver: FakePerformanceObserver }),
    innerHeight: SCREEN_PX,
    setTimeout,
    clearTimeout,
    Intl,
    Date,
    Number,
    Math,
  });
  return {
    times,
    slot,
    storageReads: () => storageReads,
    get button() {
      return slot.children.find((node): node is FakeElement => typeof node === 'object' && node !== null && 'listeners' in node && (node as FakeElement).className === 'pl-refresh__toggle');
    },
    storage,
    reloads: () => reloads,
    setVisible(visible: boolean) {
      doc.visibilityState = visible ? 'visible' : 'hidden';
      documentListeners.visibilitychange?.();
    },
    /** The first frame is drawn (not yet on screen), then the task after it runs. */
    afterFirstFrame() {
      frames.splice(0).forEach((callback) => callback());
      vi.advanceTimersByTime(0);
    },
    /** The first contentful paint is on screen: its entry reaches the observer (first paint before it). */
    contentfulPaintShown() {
      const shown = (name: string) => ({ getEntriesByName: (wanted: string) => (wanted === name ? [{ name }] : []) });
      for (const callback of paintObservers) callback(shown('first-paint'));
      for (const callback of paintObservers) callback(shown('first-contentful-paint'));
      vi.advanceTimersByTime(0);
    },
    /** Both: what a visitor's browser does for a page in a visible tab. */
    afterFirstPaint() {
      this.afterFirstFrame();
      this.contentfulPaintShown();
    },
    openDetails(open: boolean) { openDetails = open; },
    focusBar(focused: boolean) { focusInBar = focused; },
  };
}

describe('enhance.js behaviour', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T14:05:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('rewrites valid <time data-local> text into the local zone (UTC here) after the first paint, and leaves invalid ones', () => {
    const page = runEnhance({});
    // The first frame shows the page's own words: no date formatter runs before it is on screen.
    expect(page.times[0]?.textContent).toBe('server words');
    page.afterFirstFrame();
    expect(page.times[0]?.textContent).toBe('server words');
    page.contentfulPaintShown();
    expect(page.times[0]?.textContent).toBe('22 Nov 2026, 14:05 UTC');
    expect(page.times[1]?.textContent).toBe('left alone');
  });

  it('keeps the page\'s words on a line on the screen that the rewrite would make taller, and offers the local time as its title', () => {
    const narrow = fakeTime('2026-11-22T13:05:00.000Z', '22 Nov 2026, 13:05 UTC', true, { top: 300, room: 30 });
    const roomy = fakeTime('2026-11-22T13:05:00.000Z', '22 Nov 2026, 13:05 UTC', true, { top: 400, room: 60 });
    const below = fakeTime('2026-11-22T13:05:00.000Z', '22 Nov 2026, 13:05 UTC', true, { top: SCREEN_PX + 100, room: 30 });
    const page = runEnhance({ times: [narrow, roomy, below] });
    page.afterFirstPaint();
    expect(narrow).toMatchObject({ textContent: '22 Nov 2026, 13:05 UTC', next: null, title: '22 Nov 2026, 13:05 UTC (1 hour ago)' });
    expect(roomy).toMatchObject({ textContent: '22 Nov 2026, 13:05 UTC', title: 'page words' });
    expect(roomy.next?.textContent).toBe(' (1 hour ago)');
    // Below the screen a taller line moves nothing the visitor sees.
    expect(below.next?.textContent).toBe(' (1 hour ago)');
  });

  it('adds relative words after <time data-relative> only, from the visitor\'s clock, as format-date.ts words them', () => {
    const now = Date.parse('2026-11-22T14:05:00Z');
    const offsets = [0, -30_000, 30_000, -60_000, -5 * 60_000, 59 * 60_000, -3_600_000, -23 * 3_600_000, 3 * 86_400_000, -29 * 86_400_000, -45 * 86_400_000, -400 * 86_400_000, 800 * 86_400_000];
    const times = offsets.map((offset) => fakeTime(new Date(now + offset).toISOString(), 'x', true));
    const page = runEnhance({ times: [...times, fakeTime('2026-11-22T13:00:00.000Z', 'y')] });
    page.afterFirstPaint();
    expect(times.map((time) => time.next?.textContent)).toEqual(offsets.map((offset) => ` (${formatRelative(now + offset, new Date(now))})`));
    expect(times[4]?.next).toMatchObject({ className: 'pl-time__relative', textContent: ' (5 minutes ago)' });
    expect(page.times.at(-1)?.next).toBeNull();
  });

  it('does nothing else without data-refresh: no toggle, no reload', () => {
    const page = runRefreshing({});
    expect(page.slot.hidden).toBe(true);
    vi.advanceTimersByTime(600_000);
    expect(page.reloads()).toBe(0);
  });

  it('fills the refresh line only once the first contentful paint is on screen: no session storage read before it', () => {
    const page = runEnhance({ refresh: '60' });
    expect(page.slot.hidden).toBe(true);
    expect(page.button).toBeUndefined();
    expect(page.storageReads()).toBe(0);
    // Drawn but not yet shown (its raster and presentation still to come): nothing yet.
    page.afterFirstFrame();
    vi.advanceTimersByTime(500);
    expect(page.storageReads()).toBe(0);
    page.contentfulPaintShown();
    expect(page.slot.hidden).toBe(false);
    expect(page.storageReads()).toBe(1);
    // The fallback a second after the first frame finds the work done: the line is filled once.
    vi.advanceTimersByTime(1_000);
    expect(page.slot.children).toHaveLength(3);
    expect(page.storageReads()).toBe(1);
  });

  it('without paint timing (or none reported), starts a second after the first frame', () => {
    const page = runEnhance({ refresh: '60', paintTiming: false });
    page.afterFirstFrame();
    vi.advanceTimersByTime(999);
    expect(page.storageReads()).toBe(0);
    expect(page.times[0]?.textContent).toBe('server words');
    vi.advanceTimersByTime(1);
    expect(page.slot.hidden).toBe(false);
    expect(page.times[0]?.textContent).toBe('22 Nov 2026, 14:05 UTC');
  });

  it('reloads every period while visible, behind a visible pause toggle', () => {
    const page = runRefreshing({ refresh: '60' });
    expect(page.slot.hidden).toBe(false);
    expect(page.button?.textContent).toBe('Pause auto-refresh');
    expect(page.button?.type).toBe('button');
    vi.advanceTimersByTime(59_000);
    expect(page.reloads()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(page.reloads()).toBe(1);
  });

  it('stops reloading when paused, remembers it for the session, and resumes on demand', () => {
    const page = runRefreshing({ refresh: '60' });
    page.button?.listeners.click?.();
    expect(page.button?.textContent).toBe('Resume auto-refresh');
    vi.advanceTimersByTime(600_000);
    expect(page.reloads()).toBe(0);
    expect(page.storage.size).toBe(1);

    const next = runRefreshing({ refresh: '60', stored: page.storage });
    expect(next.button?.textContent).toBe('Resume auto-refresh');
    next.button?.listeners.click?.();
    expect(next.storage.size).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(next.reloads()).toBe(1);
  });

  it('never reloads a hidden tab, and catches up as soon as it is visible again', () => {
    const page = runRefreshing({ refresh: '60', visible: false });
    vi.advanceTimersByTime(300_000);
    expect(page.reloads()).toBe(0);
    page.setVisible(true);
    vi.advanceTimersByTime(0);
    expect(page.reloads()).toBe(1);
  });

  it('in a tab opened in the background (no frame drawn), reloads as soon as it is shown if the period has passed', () => {
    const page = runEnhance({ refresh: '60', visible: false });
    vi.advanceTimersByTime(300_000);
    page.setVisible(true);
    // Shown: the browser draws and shows its first frame, and the refresh line counts from the load.
    page.afterFirstPaint();
    vi.advanceTimersByTime(1);
    expect(page.reloads()).toBe(1);
  });

  it('waits while a disclosure is open', () => {
    const page = runRefreshing({ refresh: '60' });
    page.openDetails(true);
    vi.advanceTimersByTime(120_000);
    expect(page.reloads()).toBe(0);
    page.openDetails(false);
    vi.advanceTimersByTime(60_000);
    expect(page.reloads()).toBe(1);
  });

  it('waits while keyboard focus is on a day of an uptime bar', () => {
    const page = runRefreshing({ refresh: '60' });
    page.focusBar(true);
    vi.advanceTimersByTime(120_000);
    expect(page.reloads()).toBe(0);
    page.focusBar(false);
    vi.advanceTimersByTime(60_000);
    expect(page.reloads()).toBe(1);
  });

  it('ignores refresh periods under 10 seconds', () => {
    const page = runRefreshing({ refresh: '2' });
    expect(page.slot.hidden).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(page.reloads()).toBe(0);
  });
});
