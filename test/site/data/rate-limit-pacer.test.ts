import { describe, expect, it } from 'vitest';
import { RateLimitPacer, readRateLimit } from '../../../src/site/data/rate-limit-pacer.ts';

const NOW = 1_800_000_000_000;

describe('readRateLimit', () => {
  it('reads the IETF draft headers and the X-RateLimit-* spelling', () => {
    expect(readRateLimit({ 'ratelimit-limit': '120', 'ratelimit-remaining': '30', 'ratelimit-reset': '20' }, NOW)).toEqual({ limit: 120, remaining: 30, resetAtMs: NOW + 20_000 });
    expect(readRateLimit({ 'x-ratelimit-remaining': ['5'], 'x-ratelimit-reset': '10' }, NOW)).toEqual({ limit: null, remaining: 5, resetAtMs: NOW + 10_000 });
  });

  it('takes a large reset as epoch seconds, and caps any window at an hour', () => {
    expect(readRateLimit({ 'ratelimit-remaining': '1', 'ratelimit-reset': String(NOW / 1000 + 30) }, NOW)?.resetAtMs).toBe(NOW + 30_000);
    expect(readRateLimit({ 'ratelimit-remaining': '1', 'ratelimit-reset': '999999' }, NOW)?.resetAtMs).toBe(NOW + 3_600_000);
  });

  it('is null without both numbers, or with garbage', () => {
    expect(readRateLimit({}, NOW)).toBeNull();
    expect(readRateLimit({ 'ratelimit-remaining': '3' }, NOW)).toBeNull();
    expect(readRateLimit({ 'ratelimit-remaining': 'many', 'ratelimit-reset': '1' }, NOW)).toBeNull();
    expect(readRateLimit({ 'ratelimit-remaining': '-1', 'ratelimit-reset': '1' }, NOW)).toBeNull();
  });
});

describe('RateLimitPacer', () => {
  it('never waits without headers, or with more than half the window left', () => {
    const pacer = new RateLimitPacer();
    expect(pacer.delayMs(NOW)).toBe(0);
    pacer.observe({ 'ratelimit-limit': '120', 'ratelimit-remaining': '100', 'ratelimit-reset': '30' }, NOW);
    expect([pacer.delayMs(NOW), pacer.delayMs(NOW), pacer.delayMs(NOW)]).toEqual([0, 0, 0]);
  });

  it('spreads the requests left over what is left of the window, rather than bursting', () => {
    const pacer = new RateLimitPacer();
    pacer.observe({ 'ratelimit-limit': '120', 'ratelimit-remaining': '10', 'ratelimit-reset': '20' }, NOW);
    const waits = Array.from({ length: 4 }, () => pacer.delayMs(NOW));
    expect(waits[0]).toBe(0);
    // 20 s over 10, then 9, then 8 left: growing gaps, in order.
    expect(waits[1]).toBeCloseTo(2_000, 0);
    expect(waits[2]).toBeGreaterThan(waits[1]!);
    expect(waits[3]).toBeGreaterThan(waits[2]!);
  });

  it('waits for the end of the window when nothing is left, and stops holding once it ended', () => {
    const pacer = new RateLimitPacer();
    pacer.observe({ 'ratelimit-remaining': '0', 'ratelimit-reset': '12' }, NOW);
    expect(pacer.delayMs(NOW)).toBe(12_000);
    expect(pacer.delayMs(NOW + 12_000)).toBe(0);
  });
});
