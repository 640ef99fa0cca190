/**
 * One round of work at a time, for the senders: a wake while a round runs asks for exactly one
 * more round after it (never two at once, never a wake lost), and `at(time)` wakes again later
 * through a single timer. Once closed it starts nothing more; `close()` waits for the round under way.
 */
export class Waker {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly round: () => Promise<void>;
  private readonly now: () => number;

  constructor(round: () => Promise<void>, now: () => number) {
    this.round = round;
    this.now = now;
  }

  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Wakes at `time` (a clock reading of `now`), replacing an earlier timer. */
  at(time: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, Math.max(0, Math.min(time - this.now(), 2_147_000_000)));
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
