import { describe, expect, it } from 'vitest';
import { uptimeBarView } from '../../../src/site/view/uptime-bar-view.ts';
import type { DayLevel, UptimeDayView } from '../../../src/site/view/types.ts';

function days(levels: DayLevel[]): UptimeDayView[] {
  return levels.map((level, index) => ({ date: `d${index}`, label: `d${index}`, level, uptimeText: '', incidents: 0, description: `d${index}` }));
}

describe('uptimeBarView', () => {
  it('draws 90 healthy days as one stroke, cut into columns by its dashes', () => {
    const bar = uptimeBarView(days(Array<DayLevel>(90).fill('up')), 'API');
    expect(bar.viewBox).toBe('0 0 90 10');
    expect(bar.paths).toEqual([{ layer: 'up', d: 'M0 7h90', width: 6, dashes: '0 .1 .8 .1' }]);
    expect(bar.summary).toBe('Daily uptime of API over 90 days: 90 days up.');
  });

  it('merges each run of a level, oldest at x = 0, and gives worse days taller columns', () => {
    const bar = uptimeBarView(days(['none', 'up', 'up', 'minor', 'up', 'down', 'down', 'major']), 'Web');
    const byLayer = Object.fromEntries(bar.paths.map((path) => [path.layer, path]));
    expect(byLayer['up']?.d).toBe('M1 7h2M4 7h1');
    expect(byLayer['minor']).toMatchObject({ d: 'M3 6h1', width: 8 });
    expect(byLayer['major']).toMatchObject({ d: 'M7 5h1', width: 10 });
    expect(byLayer['down']).toMatchObject({ d: 'M5 5h2', width: 10 });
    // Down days carry a cap at the top; days without data are hollow (a narrower inside on top).
    expect(byLayer['cap']).toMatchObject({ d: 'M5 0.5h2', width: 1 });
    expect(byLayer['none']).toMatchObject({ d: 'M0 5h1', width: 10 });
    expect(byLayer['hollow']?.d).toBe('M0 5h1');
    expect(byLayer['hollow']!.width).toBeLessThan(10);
    expect(bar.paths.map((path) => path.layer)).toEqual(['up', 'minor', 'major', 'down', 'cap', 'none', 'hollow']);
    expect(bar.summary).toBe('Daily uptime of Web over 8 days: 3 days up, 1 day with minor issues, 1 day with a major outage, 2 days down and 1 day without data.');
  });

  it('writes each day into exactly one level path: the columns add up to the days', () => {
    const levels: DayLevel[] = Array.from({ length: 90 }, (_, index) => (['up', 'minor', 'up', 'none', 'major', 'down'] as const)[(index * 7) % 6]!);
    const bar = uptimeBarView(days(levels), 'API');
    const covered = bar.paths
      .filter((path) => path.layer !== 'cap' && path.layer !== 'hollow')
      .flatMap((path) => [...path.d.matchAll(/M(\d+) [\d.]+h(\d+)/g)].map((match) => [Number(match[1]), Number(match[2])] as const));
    const xs = covered.flatMap(([start, length]) => Array.from({ length }, (_, offset) => start + offset)).sort((a, b) => a - b);
    expect(xs).toEqual(Array.from({ length: 90 }, (_, index) => index));
  });
});
