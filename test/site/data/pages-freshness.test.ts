import { describe, expect, it } from 'vitest';
import { AskLimiter, pagesCheckIntervalMs, pagesReadDue, UNKNOWN_NAME_INTERVAL_MS } from '../../../src/site/data/pages-freshness.ts';

describe('pagesReadDue: the pages list at least every CACHE_FRESH_SECONDS', () => {
  const freshMs = 30_000;
  it('is due before the first read, and once the last read is freshMs old', () => {
    expect(pagesReadDue({ lastPagesReadMs: null, nowMs: 0, freshMs })).toBe(true);
    expect(pagesReadDue({ lastPagesReadMs: 1_000, nowMs: 30_999, freshMs })).toBe(false);
    expect(pagesReadDue({ lastPagesReadMs: 1_000, nowMs: 31_000, freshMs })).toBe(true);
  });

  it('is checked often enough that the list is never much older than freshMs (at most a second late)', () => {
    expect(pagesCheckIntervalMs(30_000)).toBe(1_000);
    expect(pagesCheckIntervalMs(2_000)).toBe(400);
    expect(pagesCheckIntervalMs(1_000)).toBe(200);
    for (const fresh of [1_000, 5_000, 30_000, 3_600_000]) {
      // The last check before a read is due, plus one interval: never later than freshMs + 1 s.
      expect(pagesCheckIntervalMs(fresh)).toBeLessThanOrEqual(1_000);
    }
  });
});

describe('AskLimiter: unknown names ask once', () => {
  it('lets one read start per interval, whatever the number of asks', () => {
    let clock = 0;
    const limiter = new AskLimiter(UNKNOWN_NAME_INTERVAL_MS, () => clock);
    let started = 0;
    // 1,000 asks over 25 s (one every 25 ms): starts at 0, 10 and 20 s only.
    for (let index = 0; index < 1_000; index += 1) {
      clock = index * 25;
      if (limiter.tryStart()) started += 1;
    }
    expect(started).toBe(3);
  });

  it('starts at once for the first ask, and again only once the interval has passed', () => {
    let clock = 5_000;
    const limiter = new AskLimiter(10_000, () => clock);
    expect(limiter.tryStart()).toBe(true);
    clock = 14_999;
    expect(limiter.tryStart()).toBe(false);
    clock = 15_000;
    expect(limiter.tryStart()).toBe(true);
  });
});
