/**
 * Turns any rate of "refresh now" requests (pushes) into at most one refresh start per
 * interval. A request while a refresh runs, or inside the interval, is kept as one pending
 * refresh that starts as soon as both allow: the change that caused it is never left unread,
 * and a thousand requests cost no more than one. During a burst (requests keep coming, as in
 * an outage of many monitors) the interval doubles with each start up to `maxIntervalMs`, and
 * falls back to `intervalMs` once no request came for `quietMs`: the first change is read at
 * once, a storm of them costs a few refreshes a minute rather than one a second.
 */
export interface ThrottleTimers {
  now(): number;
  after(ms: number, run: () => void): { cancel(): void };
}

const systemTimers: ThrottleTimers = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    // A pending refresh must never keep the process alive.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

export class RefreshThrottle {
  readonly #run: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #maxIntervalMs: number;
  readonly #quietMs: number;
  readonly #timers: ThrottleTimers;
  /** The current interval: grows during a burst. */
  #currentMs: number;
  #lastRequest = Number.NEGATIVE_INFINITY;
  #running = false;
  #pending = false;
  #lastStart = Number.NEGATIVE_INFINITY;
  #timer: { cancel(): void } | null = null;
  #closed = false;

  constructor(run: () => Promise<void>, options: { intervalMs: number; maxIntervalMs?: number; quietMs?: number; timers?: ThrottleTimers }) {
    this.#run = run;
    this.#intervalMs = options.intervalMs;
    this.#maxIntervalMs = Math.max(options.intervalMs, options.maxIntervalMs ?? options.intervalMs);
    this.#quietMs = options.quietMs ?? 30_000;
    this.#currentMs = options.intervalMs;
    this.#timers = options.timers ?? systemTimers;
  }

  request(): void {
    if (this.#closed) return;
    const now = this.#timers.now();
    if (now - this.#lastRequest >= this.#quietMs) this.#currentMs = this.#intervalMs;
    this.#lastRequest = now;
    if (this.#pending) return;
    this.#pending = true;
    if (!this.#running) this.#schedule();
  }

  close(): void {
    this.#closed = true;
    this.#timer?.cancel();
    this.#timer = null;
  }

  #schedule(held = false): void {
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastStart + this.#currentMs - this.#timers.now());
    if (wait === 0) {
      this.#start(held);
      return;
    }
    this.#timer = this.#timers.after(wait, () => {
      this.#timer = null;
      this.#start(true);
    });
  }

  #start(held: boolean): void {
    if (this.#closed || !this.#pending) return;
    this.#pending = false;
    this.#running = true;
    const now = this.#timers.now();
    // A request that had to wait (a refresh running, or the interval) is a burst: the next waits twice as long.
    if (held) this.#currentMs = Math.min(this.#currentMs * 2, this.#maxIntervalMs);
    this.#lastStart = now;
    this.#run()
      .catch(() => undefined)
      .finally(() => {
        this.#running = false;
        if (this.#pending) this.#schedule(true);
      });
  }
}
