/**
 * Fixed-window counters per key (a client address), bounded in memory: the least recently seen
 * keys are forgotten first, so a flood of distinct addresses cannot grow the map without bound.
 */
import { LRUCache } from 'lru-cache';

export class RateLimiter {
  private readonly windows: LRUCache<string, { start: number; count: number }>;
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(options: { limit: number; windowMs: number; maxKeys?: number }) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.windows = new LRUCache({ max: options.maxKeys ?? 10_000 });
  }

  /** Counts one request for `key`; false when the key is over its limit in this window. */
  allow(key: string, now: number): boolean {
    const current = this.windows.get(key);
    if (!current || now - current.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    current.count += 1;
    return current.count <= this.limit;
  }
}
