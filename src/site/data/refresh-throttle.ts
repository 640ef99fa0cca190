/**
 * Turns any rate of "refresh now" requests (pushes) into at most one refresh start per
 * interval. A request while a refresh runs, or inside the interval, is kept as one pending
 * refresh that starts as soon as both allow: the change that caused it is never left unread,
 * and a thousand requests cost no more than one.
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
  readonly #timers: ThrottleTimers;
  #running = false;
  #pending = false;
  #lastStart = Number.NEGATIVE_INFINITY;
  #timer: { cancel(): void } | null = null;
  #closed = false;

  constructor(run: () => Promise<void>, options: { intervalMs: number; timers?: ThrottleTimers }) {
    this.#run = run;
    this.#intervalMs = options.intervalMs;
    this.#timers = options.timers ?? systemTimers;
  }

  request(): void {
    if (this.#closed || this.#pending) return;
    this.#pending = true;
    if (!this.#running) this.#schedule();
  }

  close(): void {
    this.#closed = true;
    this.#timer?.cancel();
    this.#timer = null;
  }

  #schedule(): void {
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastStart + this.#intervalMs - this.#timers.now());
    if (wait === 0) {
      this.#start();
      return;
    }
    this.#timer = this.#timers.after(wait, () => {
      this.#timer = null;
      this.#start();
    });
  }

  #start(): void {
    if (this.#closed || !this.#pending) return;
    this.#pending = false;
    this.#running = true;
    this.#lastStart = this.#timers.now();
    this.#run()
      .catch(() => undefined)
      .finally(() => {
        this.#running = false;
        if (this.#pending) this.#schedule();
      });
  }
}
