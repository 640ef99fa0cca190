import type { Cancel, Timers } from '../../../src/service/index.ts';

interface Pending {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * Time that moves only when a test says so: `now` for the service, `after` for the engine's timers.
 * `advance` fires every timer due within the step in time order, moving the clock to each one first.
 */
export class ManualClock implements Timers {
  private current: number;
  private seq = 0;
  private readonly pending: Pending[] = [];

  constructor(start = Date.parse('2030-01-01T00:00:00.000Z')) {
    this.current = start;
  }

  readonly now = (): Date => new Date(this.current);

  after(ms: number, callback: () => void): Cancel {
    const entry: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, callback };
    this.pending.push(entry);
    return () => {
      const index = this.pending.indexOf(entry);
      if (index !== -1) this.pending.splice(index, 1);
    };
  }

  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.pending.filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.pending.splice(this.pending.indexOf(next), 1);
      this.current = next.at;
      next.callback();
    }
    this.current = target;
  }

  /** When the waiting timers fire (ms), for assertions about what is scheduled. */
  get dueTimes(): number[] {
    return this.pending.map((entry) => entry.at).sort((a, b) => a - b);
  }

  /** Timers waiting, for assertions about what is scheduled. */
  get waiting(): number {
    return this.pending.length;
  }
}
