import { describe, expect, it } from 'vitest';
import { Waker } from '../../src/subscribers/waker.ts';

/** A round that waits until released, counting how many ran and how many ran at once. */
function rounds() {
  const state = { started: 0, running: 0, most: 0, release: [] as (() => void)[] };
  const round = () => {
    state.started += 1;
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    return new Promise<void>((resolve) => state.release.push(() => {
      state.running -= 1;
      resolve();
    }));
  };
  return { state, round };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Waker', () => {
  it('runs one round at a time, and wakes during a round make exactly one more after it', async () => {
    const { state, round } = rounds();
    const waker = new Waker(round, Date.now);
    waker.wake();
    waker.wake();
    waker.wake();
    expect(state.started).toBe(1);
    state.release.shift()!();
    await tick();
    expect(state.started).toBe(2);
    state.release.shift()!();
    await tick();
    expect(state.started).toBe(2);
    expect(state.most).toBe(1);
    await waker.close();
  });

  it('wakes at a later time through one timer, the last one set', async () => {
    const { state, round } = rounds();
    const waker = new Waker(round, Date.now);
    waker.at(Date.now() + 10_000);
    waker.at(Date.now() + 20);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(state.started).toBe(1);
    state.release.shift()!();
    await waker.close();
  });

  it('starts nothing once closed, and close waits for the round under way', async () => {
    const { state, round } = rounds();
    const waker = new Waker(round, Date.now);
    waker.wake();
    let closed = false;
    const closing = waker.close().then(() => (closed = true));
    waker.wake();
    waker.at(Date.now());
    await tick();
    expect(closed).toBe(false);
    state.release.shift()!();
    await closing;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.started).toBe(1);
  });
});
