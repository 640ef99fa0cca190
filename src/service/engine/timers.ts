/** Cancels a pending callback; calling it after the callback ran does nothing. */
export type Cancel = () => void;

/** The engine's only source of delays, injected so tests drive time by hand. */
export interface Timers {
  after(ms: number, callback: () => void): Cancel;
}

/** setTimeout can wait at most about 24.8 days. */
const MAX_DELAY_MS = 2_147_483_647;

/** Real timers that do not keep the process alive on their own (the HTTP server does). */
export const systemTimers: Timers = {
  after(ms, callback) {
    const timer = setTimeout(callback, Math.min(MAX_DELAY_MS, Math.max(0, ms)));
    timer.unref();
    return () => clearTimeout(timer);
  },
};
