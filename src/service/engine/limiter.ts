/**
 * Runs at most `max` tasks at a time, shared fairly between keys (organizations): one key's slow or
 * hanging tasks can never take every slot.
 * - The busy keys (tasks running or waiting) share `max - 1` slots evenly: each may hold at most
 *   `floor((max - 1) / busy keys)` (at least 1, at most `perKey`). The last slot is kept for a key
 *   that turns up, so it starts at once (while fewer than `max` keys are busy); a key alone may use
 *   all slots but that one.
 * - Waiting keys are served in turn (round robin), each key's tasks in arrival order: a key with one
 *   task waiting goes before a key with fifty.
 * Tasks must not reject (the scheduler's never do); a rejection is swallowed so one bad task cannot
 * jam the queue.
 */
export class FairLimiter {
  private readonly max: number;
  private readonly perKey: number;
  /** Waiting tasks per key; a key is here only while it has some, in the order keys are served. */
  private readonly waiting = new Map<string, (() => Promise<void>)[]>();
  private readonly runningByKey = new Map<string, number>();
  private running = 0;

  constructor(max: number, perKey: number = max) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('concurrency must be a positive integer');
    if (!Number.isInteger(perKey) || perKey < 1) throw new RangeError('per-key concurrency must be a positive integer');
    this.max = max;
    this.perKey = Math.min(perKey, max);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    let count = 0;
    for (const tasks of this.waiting.values()) count += tasks.length;
    return count;
  }

  /** Tasks of one key running now. */
  activeFor(key: string): number {
    return this.runningByKey.get(key) ?? 0;
  }

  run(key: string, task: () => Promise<void>): void {
    const tasks = this.waiting.get(key);
    if (tasks) tasks.push(task);
    else this.waiting.set(key, [task]);
    this.drain();
  }

  /** Drops the tasks that have not started. */
  clear(): void {
    this.waiting.clear();
  }

  /** Slots one key may hold now. */
  shareNow(): number {
    const busy = new Set([...this.waiting.keys(), ...this.runningByKey.keys()]).size;
    return Math.min(this.perKey, Math.max(1, Math.floor((this.max - 1) / Math.max(1, busy))));
  }

  /** The first key in turn that has a task waiting and room in its share. */
  private nextKey(): string | null {
    const share = this.shareNow();
    for (const key of this.waiting.keys()) {
      if (this.activeFor(key) < share) return key;
    }
    return null;
  }

  private drain(): void {
    while (this.running < this.max) {
      const key = this.nextKey();
      if (key === null) return;
      const tasks = this.waiting.get(key) ?? [];
      const task = tasks.shift();
      // The key goes to the back of the line (or leaves it when it has nothing more waiting).
      this.waiting.delete(key);
      if (tasks.length > 0) this.waiting.set(key, tasks);
      if (!task) continue;
      this.running++;
      this.runningByKey.set(key, this.activeFor(key) + 1);
      task()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          const left = this.activeFor(key) - 1;
          if (left > 0) this.runningByKey.set(key, left);
          else this.runningByKey.delete(key);
          this.drain();
        });
    }
  }
}
