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
  it('keeps one slot free for a key that turns up, and shares the rest evenly between busy keys', async () => {
    const limiter = new FairLimiter(8);
    const log: string[] = [];
    const a = Array.from({ length: 20 }, (_, n) => gate(log, `a${n}`));
    for (const g of a) limiter.run('a', g.task);
    // Alone, `a` may use every slot but one.
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    const b = [gate(log, 'b0'), gate(log, 'b1')];
    for (const g of b) limiter.run('b', g.task);
    // `b` starts at once in the slot kept free; its second task waits for a slot of its share.
    expect(log.at(-1)).toBe('b0');
    expect(limiter.active).toBe(8);
    // Two busy keys share 7 slots: at most floor(7 / 2) = 3 each. A finished task of `a` goes to `b`.
    a[0]!.release();
    await tick();
    expect(log.at(-1)).toBe('b1');
    for (const n of [1, 2, 3]) {
      a[n]!.release();
      await tick();
    }
    // `a` is down to 3 and has not started another; the slots it left are free for newcomers.
    expect(limiter.activeFor('a')).toBe(3);
    expect(limiter.activeFor('b')).toBe(2);
    expect(limiter.active).toBe(5);
    for (const g of b) g.release();
    await tick();
    // `b` is done: `a` is alone again and goes back to seven.
    expect(limiter.activeFor('a')).toBe(7);
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
