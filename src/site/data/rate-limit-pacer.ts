/**
 * Honours the rate-limit headers the API sends (the IETF draft's `RateLimit-Remaining` and
 * `RateLimit-Reset`, or the common `X-RateLimit-*` spelling) by spreading requests over what is
 * left of the window instead of spending it in a burst. While more than `reserve` of the window
 * is left, nothing waits; below that, requests are spaced `reset / remaining` apart; with
 * nothing left, the next one waits for the window's end. No header, no pacing.
 */

export interface RateLimitState {
  /** Requests left in the current window. */
  remaining: number;
  /** Requests allowed in a window, when the API said so. */
  limit: number | null;
  /** End of the current window (epoch ms). */
  resetAtMs: number;
}

type HeaderValue = string | string[] | undefined;

function first(headers: Record<string, HeaderValue>, names: readonly string[]): number | null {
  for (const name of names) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value.trim() === '') continue;
    const number = Number(value);
    if (Number.isFinite(number) && number >= 0) return number;
  }
  return null;
}

/** Reset values above this are epoch seconds (some APIs send those), not seconds from now. */
const EPOCH_SECONDS_FROM = 1_000_000_000;
/** No window is taken to last longer than this, whatever a header says. */
const MAX_WINDOW_MS = 3_600_000;

/** The rate-limit state a response's headers (lower-case names) report, or null when they report none. */
export function readRateLimit(headers: Record<string, HeaderValue>, nowMs: number): RateLimitState | null {
  const remaining = first(headers, ['ratelimit-remaining', 'x-ratelimit-remaining']);
  const reset = first(headers, ['ratelimit-reset', 'x-ratelimit-reset']);
  if (remaining === null || reset === null) return null;
  const resetMs = reset >= EPOCH_SECONDS_FROM ? reset * 1000 - nowMs : reset * 1000;
  return {
    remaining: Math.floor(remaining),
    limit: first(headers, ['ratelimit-limit', 'x-ratelimit-limit']),
    resetAtMs: nowMs + Math.min(Math.max(0, resetMs), MAX_WINDOW_MS),
  };
}

export class RateLimitPacer {
  readonly #reserve: number;
  #state: RateLimitState | null = null;
  /** When the latest paced request may go (epoch ms). */
  #nextAtMs = 0;

  /** `reserve`: the share of the window's limit under which requests are spaced (default a half). */
  constructor(options: { reserve?: number } = {}) {
    this.#reserve = options.reserve ?? 0.5;
  }

  observe(headers: Record<string, HeaderValue>, nowMs: number): void {
    const state = readRateLimit(headers, nowMs);
    if (state) this.#state = state;
  }

  /**
   * How long the next request should wait (ms), reserving its slot: call once per request.
   * A state whose window has ended no longer holds anything back.
   */
  delayMs(nowMs: number): number {
    const state = this.#state;
    if (!state || nowMs >= state.resetAtMs) return 0;
    const windowLeft = state.resetAtMs - nowMs;
    if (state.remaining <= 0) return windowLeft;
    const plenty = state.limit !== null && state.remaining > state.limit * this.#reserve;
    if (plenty) return 0;
    const spacing = windowLeft / state.remaining;
    const at = Math.max(nowMs, this.#nextAtMs);
    this.#nextAtMs = at + spacing;
    // This request takes one of the remaining ones until the next answer says otherwise.
    state.remaining = Math.max(0, state.remaining - 1);
    return at - nowMs;
  }
}
