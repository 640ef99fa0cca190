/**
 * Settles with `late()` when `work` has not settled within `ms`; `work` is left to finish on its own
 * (its result is then ignored). The timer never keeps the process alive.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(late()), Math.max(0, ms));
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
