/**
 * When the status pages list is read on its own (pure: site-data.ts acts on these answers).
 * No event of the spec announces a page created, changed, made non-public or deleted, so:
 *
 * - Periodic: the list is read at least every CACHE_FRESH_SECONDS whatever push does (one
 *   request for up to 100 pages; the API offers no conditional request), while the other lists
 *   keep the push-driven schedule of refresh-plan.ts.
 * - On demand: a request for a slug or custom domain the data does not know (a visitor, the TLS
 *   gate) asks for the list, and all such asks together start at most one read per
 *   UNKNOWN_NAME_INTERVAL_MS: a page created a moment ago is served on its first visit, and
 *   made-up names cannot spend the API budget.
 */

export const UNKNOWN_NAME_INTERVAL_MS = 10_000;

/** How often the periodic check runs: a fifth of the freshness, between 200 ms and 1 s. */
export function pagesCheckIntervalMs(freshMs: number): number {
  return Math.min(1_000, Math.max(200, Math.floor(freshMs / 5)));
}

/**
 * Whether the periodic check should read the list now: it was never read, or it is `freshMs`
 * old (a refresh that read every list, or a push that named pages, counts as a read).
 */
export function pagesReadDue(options: { lastPagesReadMs: number | null; nowMs: number; freshMs: number }): boolean {
  if (options.lastPagesReadMs === null) return true;
  return options.nowMs - options.lastPagesReadMs >= options.freshMs;
}

/** At most one start per interval, whatever the number of asks (the unknown-name limiter). */
export class AskLimiter {
  readonly #intervalMs: number;
  readonly #now: () => number;
  #lastStart = Number.NEGATIVE_INFINITY;

  constructor(intervalMs: number = UNKNOWN_NAME_INTERVAL_MS, now: () => number = Date.now) {
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  /** True (and counted) when a read may start now. */
  tryStart(): boolean {
    const now = this.#now();
    if (now - this.#lastStart < this.#intervalMs) return false;
    this.#lastStart = now;
    return true;
  }
}
