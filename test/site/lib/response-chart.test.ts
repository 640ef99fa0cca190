import { describe, expect, it } from 'vitest';
import { downsample, formatLatency, responseTimeChart, type LatencyPoint } from '../../../src/site/lib/response-chart.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const OPTIONS = { width: 100, height: 50, now: NOW };

describe('responseTimeChart', () => {
  it.each<[string, LatencyPoint[]]>([
    ['no points', []],
    ['one point', [{ checkedAt: at(1), latency: 100 }]],
    ['only unusable points', [
      { checkedAt: at(1), latency: null },
      { checkedAt: at(2), latency: Number.NaN },
      { checkedAt: at(3), latency: -5 },
      { checkedAt: 'yesterday', latency: 100 },
      { checkedAt: at(4), latency: Number.POSITIVE_INFINITY },
      { checkedAt: at(5), latency: undefined },
    ]],
    ['points outside the window', [{ checkedAt: at(25 * 60), latency: 1 }, { checkedAt: at(-5), latency: 2 }]],
  ])('is null for %s', (_name, points) => {
    expect(responseTimeChart(points, OPTIONS)).toBeNull();
  });

  it('draws oldest to newest with a zero baseline', () => {
    const chart = responseTimeChart(
      [
        { checkedAt: at(0), latency: 100 },
        { checkedAt: at(20), latency: 50 },
        { checkedAt: at(10), latency: 0 },
        { checkedAt: at(15), latency: null },
      ],
      OPTIONS,
    );
    expect(chart).toEqual({
      path: 'M0 25 L50 50 L100 0',
      viewBox: '0 0 100 50',
      min: 0,
      max: 100,
      avg: 50,
      p95: 100,
      latest: 100,
      samples: 3,
      from: at(20),
      to: at(0),
    });
  });

  it('spreads points that share one instant', () => {
    const chart = responseTimeChart([{ checkedAt: at(1), latency: 10 }, { checkedAt: at(1), latency: 10 }], OPTIONS);
    expect(chart?.path).toBe('M0 0 L100 0');
  });

  it('draws all-zero latencies on the baseline', () => {
    const chart = responseTimeChart([{ checkedAt: at(2), latency: 0 }, { checkedAt: at(1), latency: 0 }], OPTIONS);
    expect(chart?.path).toBe('M0 50 L100 50');
  });

  it('keeps only the last `hours`', () => {
    const points = [{ checkedAt: at(90), latency: 500 }, { checkedAt: at(30), latency: 10 }, { checkedAt: at(20), latency: 20 }];
    expect(responseTimeChart(points, { ...OPTIONS, hours: 1 })?.max).toBe(20);
    expect(responseTimeChart(points, OPTIONS)?.max).toBe(500);
  });

  it('downsamples to at most maxPoints but computes stats from all points', () => {
    const points = Array.from({ length: 1000 }, (_, index) => ({ checkedAt: at(1000 - index), latency: index + 1 }));
    const chart = responseTimeChart(points, OPTIONS);
    expect(chart).not.toBeNull();
    const commands = chart?.path.split(' ').filter((part) => /^[ML]/.test(part)) ?? [];
    expect(commands.length).toBeLessThanOrEqual(120);
    expect(commands.length).toBeGreaterThan(60);
    expect(chart).toMatchObject({ min: 1, max: 1000, avg: 500.5, p95: 950, latest: 1000, samples: 1000 });
    expect(chart?.path).toMatch(/^M0 [\d.]+( L[\d.]+ [\d.]+)+$/);
  });

  it('keeps every coordinate inside the view box', () => {
    const points = Array.from({ length: 300 }, (_, index) => ({ checkedAt: at(300 - index), latency: (index * 37) % 101 }));
    const chart = responseTimeChart(points, { ...OPTIONS, maxPoints: 50 });
    const numbers = (chart?.path.match(/[\d.]+/g) ?? []).map(Number);
    expect(numbers.length).toBeGreaterThan(0);
    numbers.forEach((value, index) => {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(index % 2 === 0 ? 100 : 50);
    });
    expect(chart?.path).not.toMatch(/NaN|Infinity|-0\b|\.\d\d/);
  });

  it.each([
    [{ ...OPTIONS, width: 0 }],
    [{ ...OPTIONS, height: Number.NaN }],
    [{ ...OPTIONS, hours: -1 }],
    [{ ...OPTIONS, maxPoints: 1 }],
    [{ ...OPTIONS, now: new Date('nope') }],
  ])('rejects bad options %j', (options) => {
    expect(() => responseTimeChart([], options)).toThrow(RangeError);
  });
});

describe('downsample', () => {
  it.each([
    [[1, 2, 3, 4], 4, [1, 2, 3, 4]],
    [[1, 2, 3, 4], 2, [1.5, 3.5]],
    [[1, 2, 3, 4, 5], 2, [2, 4.5]],
    [[], 3, []],
  ])('%j into %i -> %j', (latencies, maxPoints, expected) => {
    const samples = latencies.map((latency, index) => ({ at: index * 1000, latency }));
    expect(downsample(samples, maxPoints).map((sample) => sample.latency)).toEqual(expected);
  });
});

describe('formatLatency', () => {
  it.each([
    [123.4, '123 ms'],
    [0, '0 ms'],
    [99.5, '100 ms'],
    [null, 'No data'],
    [Number.NaN, 'No data'],
    [-1, 'No data'],
  ])('%s -> %s', (input, expected) => {
    expect(formatLatency(input)).toBe(expected);
  });
});
