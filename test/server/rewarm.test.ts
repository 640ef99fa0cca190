import { describe, expect, it } from 'vitest';
import { pagesToRewarm, rewarm, type Rewarmable } from '../../src/server/front/rewarm.ts';

const page = (dataVersion: string | null, servedAt: number): Rewarmable => ({ dataVersion, servedAt });

describe('which pages are re-rendered after new data', () => {
  const now = 1_000_000;
  const options = { windowMs: 300_000, maxPages: 2 };

  it('picks pages from older data asked for within the window, most recently asked first, at most maxPages', () => {
    const entries: [string, Rewarmable][] = [
      ['a', page('1', now - 10_000)],
      ['b', page('1', now - 1_000)],
      ['c', page('1', now - 400_000)],
      ['d', page('2', now)],
      ['e', page(null, now)],
      ['f', page('1', now - 5_000)],
    ];
    expect(pagesToRewarm(entries, '2', now, options)).toEqual(['b', 'f']);
    expect(pagesToRewarm(entries, '2', now, { ...options, maxPages: 10 })).toEqual(['b', 'f', 'a']);
  });
});

describe('the re-render run', () => {
  it('runs a few at a time and goes on past a failing render', async () => {
    let running = 0;
    let most = 0;
    const run = await rewarm(['a', 'b', 'c', 'd', 'e'], 2, async (key) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (key === 'c') throw new Error('render failed');
    }, () => false);
    expect(most).toBe(2);
    expect(run).toMatchObject({ pages: 5, rendered: 4, cancelled: false });
  });

  it('stops starting renders once cancelled by newer data', async () => {
    const started: string[] = [];
    let cancelled = false;
    const run = await rewarm(['a', 'b', 'c', 'd'], 1, async (key) => {
      started.push(key);
      if (key === 'b') cancelled = true;
    }, () => cancelled);
    expect(started).toEqual(['a', 'b']);
    expect(run.cancelled).toBe(true);
  });
});
