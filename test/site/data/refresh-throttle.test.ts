import { describe, expect, it } from 'vitest';
import { RefreshThrottle, type ThrottleTimers } from '../../../src/site/data/refresh-throttle.ts';

/** A clock the test moves by hand, with the timers that fire when it passes their time. */
function manualTimers() {
  let now = 0;
  let timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  const api: ThrottleTimers = {
    now: () => now,
    after: (ms, run) => {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
  };
  const advance = async (ms: number) => {
    now += ms;
    const due = timers.filter((timer) => !timer.cancelled && timer.at <= now);
    timers = timers.filter((timer) => !due.includes(timer));
    for (const timer of due) timer.run();
    await flush();
  };
  return { api, advance };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A refresh whose end the test decides. */
function controlledRun() {
  const state = { starts: 0, finish: (): void => undefined };
  const run = () =>
    new Promise<void>((resolve) => {
      state.starts += 1;
      state.finish = resolve;
    });
  return { state, run };
}

describe('RefreshThrottle', () => {
  it('starts the first refresh at once', () => {
    const { api } = manualTimers();
    const { state, run } = controlledRun();
    new RefreshThrottle(run, { intervalMs: 1000, timers: api }).request();
    expect(state.starts).toBe(1);
  });

  it('turns a thousand requests during a refresh into one more refresh, after it', async () => {
    const { api, advance } = manualTimers();
    const { state, run } = controlledRun();
    const throttle = new RefreshThrottle(run, { intervalMs: 1000, timers: api });
    for (let index = 0; index < 1000; index += 1) throttle.request();
    expect(state.starts).toBe(1);
    await advance(1500);
    // Still running: the pending one waits for it, even past the interval.
    expect(state.starts).toBe(1);
    state.finish();
    await flush();
    expect(state.starts).toBe(2);
    state.finish();
    await advance(10_000);
    expect(state.starts).toBe(2);
  });

  it('starts at most one refresh per interval whatever the rate of requests', async () => {
    const { api, advance } = manualTimers();
    const { state, run } = controlledRun();
    const throttle = new RefreshThrottle(run, { intervalMs: 1000, timers: api });
    // Ten seconds of requests every 10 ms, each refresh taking 50 ms.
    for (let tick = 0; tick < 1000; tick += 1) {
      throttle.request();
      await advance(10);
      if (tick % 5 === 4) state.finish();
      await flush();
    }
    expect(state.starts).toBeGreaterThanOrEqual(9);
    expect(state.starts).toBeLessThanOrEqual(11);
  });

  it('never leaves a request unserved: one arriving inside the interval runs when it ends', async () => {
    const { api, advance } = manualTimers();
    const { state, run } = controlledRun();
    const throttle = new RefreshThrottle(run, { intervalMs: 1000, timers: api });
    throttle.request();
    state.finish();
    await advance(200);
    throttle.request();
    expect(state.starts).toBe(1);
    await advance(799);
    expect(state.starts).toBe(1);
    await advance(1);
    expect(state.starts).toBe(2);
  });

  it('keeps going after a failed refresh, and does nothing once closed', async () => {
    const { api, advance } = manualTimers();
    let starts = 0;
    const throttle = new RefreshThrottle(async () => {
      starts += 1;
      throw new Error('API down');
    }, { intervalMs: 1000, timers: api });
    throttle.request();
    await flush();
    throttle.request();
    await advance(1000);
    expect(starts).toBe(2);
    throttle.request();
    throttle.close();
    await advance(5000);
    expect(starts).toBe(2);
  });
});

describe('RefreshThrottle during a burst', () => {
  it('doubles the interval while requests keep coming, up to the cap, and resets after a quiet spell', async () => {
    const { api, advance } = manualTimers();
    const starts: number[] = [];
    const throttle = new RefreshThrottle(async () => {
      starts.push(api.now());
    }, { intervalMs: 1000, maxIntervalMs: 5000, quietMs: 30_000, timers: api });
    // A request every 500 ms for 30 s: a storm of pushes.
    for (let at = 0; at < 30_000; at += 500) {
      throttle.request();
      await advance(500);
    }
    expect(starts.slice(0, 5)).toEqual([0, 1000, 3000, 7000, 12_000]);
    expect(starts.length).toBeLessThanOrEqual(9);
    // Quiet for longer than quietMs: the next request starts at once, and the one after a second later.
    for (let step = 0; step < 4; step += 1) await advance(10_000);
    const before = starts.length;
    throttle.request();
    await advance(0);
    throttle.request();
    await advance(1000);
    expect(starts.slice(before)).toEqual([api.now() - 1000, api.now()]);
  });
});
