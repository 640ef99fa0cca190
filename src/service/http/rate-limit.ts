import type { Plan } from '../../contract/organization.ts';

/** Requests allowed per API key per window, by plan. */
export interface RateLimits {
  free: number;
  pro: number;
  windowSeconds: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { free: 120, pro: 600, windowSeconds: 60 };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

interface Window {
  startMs: number;
  count: number;
}

/** Counts a request of an API key against its plan's limit. */
export interface ApiRateLimiter {
  readonly windowSeconds: number;
  consume(apiKeyId: string, plan: Plan): RateLimitDecision | Promise<RateLimitDecision>;
}

/**
 * Fixed-window counter per API key, in memory (limits reset when the process restarts): the
 * counter of a store on SQLite, which one process serves. On PostgreSQL, StoreRateLimiter.
 */
export class RateLimiter implements ApiRateLimiter {
  private readonly limits: RateLimits;
  private readonly now: () => Date;
  private readonly windows = new Map<string, Window>();

  constructor(limits: RateLimits, now: () => Date) {
    this.limits = limits;
    this.now = now;
  }

  get windowSeconds(): number {
    return this.limits.windowSeconds;
  }

  consume(apiKeyId: string, plan: Plan): RateLimitDecision {
    const nowMs = this.now().getTime();
    const windowMs = this.limits.windowSeconds * 1000;
    const limit = this.limits[plan];
    let window = this.windows.get(apiKeyId);
    if (!window || nowMs - window.startMs >= windowMs) {
      if (this.windows.size > 10_000) this.prune(nowMs, windowMs);
      window = { startMs: nowMs, count: 0 };
      this.windows.set(apiKeyId, window);
    }
    window.count++;
    const resetSeconds = Math.max(0, Math.ceil((window.startMs + windowMs - nowMs) / 1000));
    return { allowed: window.count <= limit, limit, remaining: Math.max(0, limit - window.count), resetSeconds };
  }

  private prune(nowMs: number, windowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs - window.startMs >= windowMs) this.windows.delete(key);
    }
  }
}

/**
 * Fixed windows counted in the store (rate_limit_windows), for several processes on one
 * PostgreSQL database: a key's limit holds across all of them, exactly (one atomic increment per
 * request). As with any fixed window, a key may send up to twice its limit across a window's end;
 * windows are aligned to the epoch, so processes whose clocks differ by a few seconds shift that
 * end by as much. Costs one write per authenticated request.
 */
export class StoreRateLimiter implements ApiRateLimiter {
  private readonly limits: RateLimits;
  private readonly now: () => Date;
  private readonly windows: { count(apiKeyId: string, windowStartMs: number): Promise<{ windowStart: string; count: number }> };

  constructor(windows: StoreRateLimiter['windows'], limits: RateLimits, now: () => Date) {
    this.windows = windows;
    this.limits = limits;
    this.now = now;
  }

  get windowSeconds(): number {
    return this.limits.windowSeconds;
  }

  async consume(apiKeyId: string, plan: Plan): Promise<RateLimitDecision> {
    const nowMs = this.now().getTime();
    const windowMs = this.limits.windowSeconds * 1000;
    const limit = this.limits[plan];
    const { windowStart, count } = await this.windows.count(apiKeyId, Math.floor(nowMs / windowMs) * windowMs);
    const resetSeconds = Math.max(0, Math.ceil((Date.parse(windowStart) + windowMs - nowMs) / 1000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }
}

/** IETF draft RateLimit headers (draft-ietf-httpapi-ratelimit-headers, -07 field names). */
export function rateLimitHeaders(decision: RateLimitDecision, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': `${decision.limit};w=${windowSeconds}`,
  };
}
