/**
 * Runs at most `max` tasks at a time, the rest waiting in arrival order.
 * Tasks must not reject (the scheduler's never do); a rejection is swallowed so one bad task cannot jam the queue.
 */
export class ConcurrencyLimiter {
  private readonly max: number;
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('concurrency must be a positive integer');
    this.max = max;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  run(task: () => Promise<void>): void {
    this.waiting.push(task);
    this.drain();
  }

  /** Drops the tasks that have not started. */
  clear(): void {
    this.waiting.length = 0;
  }

  private drain(): void {
    while (this.running < this.max) {
      const task = this.waiting.shift();
      if (!task) return;
      this.running++;
      task()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.drain();
        });
    }
  }
}
