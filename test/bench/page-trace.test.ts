/**
 * bench/page-trace.ts's arithmetic on a hand-made trace: self time per kind on the renderer's main
 * thread, and the main thread's CPU time before the first contentful paint only.
 */
import { describe, expect, it } from 'vitest';
import { beforeFirstPaint, breakdown } from '../../bench/page-trace.ts';

const MAIN = { pid: 1, tid: 7 };
const thread = (pid: number, tid: number, name: string) => ({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
// Times in microseconds, as Chromium writes them; ts/dur wall clock, tts/tdur the thread's CPU clock.
const events = [
  thread(1, 7, 'CrRendererMain'),
  thread(1, 8, 'Compositor'),
  { name: 'ParseHTML', ph: 'X', ts: 1_000, dur: 10_000, tts: 500, tdur: 6_000, ...MAIN },
  // A layout forced inside parsing is Layout's time, not parsing's.
  { name: 'Layout', ph: 'X', ts: 2_000, dur: 4_000, tts: 1_000, tdur: 2_000, ...MAIN },
  { name: 'Paint', ph: 'X', ts: 12_000, dur: 2_000, tts: 7_000, tdur: 1_000, ...MAIN },
  { name: 'firstContentfulPaint', ph: 'R', ts: 15_000, ...MAIN },
  // After the first paint: in the whole load, not before the first paint.
  { name: 'EvaluateScript', ph: 'X', ts: 20_000, dur: 30_000, tts: 9_000, tdur: 25_000, ...MAIN },
  // Another thread's work is never the main thread's.
  { name: 'Layout', ph: 'X', ts: 1_000, dur: 50_000, tts: 0, tdur: 50_000, pid: 1, tid: 8 },
];

describe('page-trace', () => {
  it('counts self time per kind on the main thread over the whole load (wall clock)', () => {
    const totals = breakdown(events);
    expect(totals).toMatchObject({ 'Parse HTML': 6, Layout: 4, Paint: 2, Script: 30 });
  });

  it('counts only what ended before the first contentful paint, in CPU time', () => {
    const first = beforeFirstPaint(events);
    expect(first).toMatchObject({ 'Parse HTML': 4, Layout: 2, Paint: 1, Script: 0, Total: 7 });
  });

  it('refuses a trace without a first contentful paint', () => {
    expect(() => beforeFirstPaint(events.filter((event) => event.name !== 'firstContentfulPaint'))).toThrow(/no first contentful paint/);
  });
});
