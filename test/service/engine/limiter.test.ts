import { describe, expect, it } from 'vitest';
import { FairLimiter } from '../../../src/service/engine/limiter.ts';

/** A task that runs until the test releases it, logging its start. */
function gate(log: string[], name: string): { task: () => Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: () => {
      log.push(name);
      return done;
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairLimiter', () => {
  it('gives one busy key half the slots, and a key that turns up a slot at once', async () => {
    const limiter = new FairLimiter(8);
    const log: string[] = [];
    const a = Array.from({ length: 20 }, (_, n) => gate(log, `a${n}`));
    for (const g of a) limiter.run('a', g.task);
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3']);
    const b = gate(log, 'b0');
    limiter.run('b', b.task);
    expect(log.at(-1)).toBe('b0');
    expect(limiter.activeFor('a')).toBe(4);
    expect(limiter.queued).toBe(16);
    // With two busy keys each may hold floor(8 / 3) = 2: a finished task of `a` is not replaced yet.
    a[0]!.release();
    await tick();
    expect(limiter.activeFor('a')).toBe(3);
    a[1]!.release();
    await tick();
    expect(limiter.activeFor('a')).toBe(2);
    b.release();
    await tick();
    // `b` is done: `a` is alone again and goes back to four.
    expect(limiter.activeFor('a')).toBe(4);
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3', 'b0', 'a4', 'a5']);
  });

  it('serves waiting keys in turn, not in arrival order', async () => {
    const limiter = new FairLimiter(1);
    const log: string[] = [];
    const first = gate(log, 'a0');
    limiter.run('a', first.task);
    const rest = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'b0'), gate(log, 'c0')];
    limiter.run('a', rest[0]!.task);
    limiter.run('a', rest[1]!.task);
    limiter.run('b', rest[2]!.task);
    limiter.run('c', rest[3]!.task);
    first.release();
    for (const g of [rest[0], rest[2], rest[3], rest[1]]) {
      await tick();
      g!.release();
    }
    await tick();
    expect(log).toEqual(['a0', 'a1', 'b0', 'c0', 'a2']);
  });

  it('keeps going after a task rejects, and drops waiting tasks on clear', async () => {
    const limiter = new FairLimiter(1);
    const log: string[] = [];
    limiter.run('a', () => Promise.reject(new Error('bug')));
    const waiting = gate(log, 'later');
    limiter.run('a', waiting.task);
    await tick();
    expect(log).toEqual(['later']);
    limiter.run('a', gate(log, 'dropped').task);
    limiter.clear();
    waiting.release();
    await tick();
    expect(log).toEqual(['later']);
    expect(limiter.active).toBe(0);
  });

  it('bounds a key by perKey below its fair share, and rejects nonsense sizes', () => {
    const limiter = new FairLimiter(8, 2);
    const log: string[] = [];
    for (let n = 0; n < 5; n++) limiter.run('a', gate(log, `a${n}`).task);
    expect(log).toEqual(['a0', 'a1']);
    expect(() => new FairLimiter(0)).toThrow(RangeError);
    expect(() => new FairLimiter(4, 0)).toThrow(RangeError);
  });
});
