import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../../src/api/index.ts';
import { SnapshotCache, SnapshotUnavailableError, type SnapshotCacheOptions } from '../../../src/site/data/snapshot-cache.ts';
import type { Snapshot } from '../../../src/site/data/snapshot.ts';

function snapshotAt(ms: number, label = 'v'): Snapshot {
  return { organization: { id: 'o', name: label, slug: 'o' }, pages: [], monitors: [], incidents: [], maintenance: [], histories: new Map(), fetchedAt: new Date(ms) };
}

/** A load whose every call is counted and whose answers the test scripts. */
function scriptedLoad(clock: { now: number }) {
  const state = { calls: 0, fail: null as Error | null, delayMs: 0 };
  const load = async () => {
    state.calls += 1;
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.fail) throw state.fail;
    return snapshotAt(clock.now, `v${state.calls}`);
  };
  return { state, load };
}

function cacheWith(clock: { now: number }, load: () => Promise<Snapshot>, extra: Partial<SnapshotCacheOptions> = {}) {
  return new SnapshotCache({ load, freshMs: 30_000, maxStaleMs: 600_000, failureBackoffMs: 2_000, now: () => clock.now, ...extra });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SnapshotCache', () => {
  it('coalesces concurrent cold requests into one load', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    state.delayMs = 20;
    const cache = cacheWith(clock, load);
    const results = await Promise.all(Array.from({ length: 100 }, () => cache.get()));
    expect(state.calls).toBe(1);
    expect(new Set(results.map((result) => result.snapshot)).size).toBe(1);
  });

  it('serves a fresh snapshot without loading again', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    await cache.get();
    clock.now += 29_000;
    await cache.get();
    expect(state.calls).toBe(1);
  });

  it('serves the stale snapshot at once while one background refresh runs', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    const first = await cache.get();
    clock.now += 31_000;
    state.delayMs = 30;
    const during = await Promise.all(Array.from({ length: 20 }, () => cache.get()));
    expect(during.every((result) => result.snapshot === first.snapshot)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const after = await cache.get();
    expect(state.calls).toBe(2);
    expect(after.snapshot.organization?.name).toBe('v2');
    expect(after.stale).toBe(false);
  });

  it('keeps serving the last good snapshot, marked stale, when refreshes fail', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    const good = await cache.get();
    clock.now += 31_000;
    state.fail = new Error('connect ECONNREFUSED');
    const during = await cache.get();
    expect(during.snapshot).toBe(good.snapshot);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await cache.get();
    expect(after.snapshot).toBe(good.snapshot);
    expect(after.stale).toBe(true);
  });

  it('does not call the API again before the failure backoff ends', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    await cache.get();
    clock.now += 31_000;
    state.fail = new Error('down');
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const callsAfterFailure = state.calls;
    for (let i = 0; i < 50; i += 1) await cache.get();
    expect(state.calls).toBe(callsAfterFailure);
    clock.now += 2_001;
    state.fail = null;
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.calls).toBe(callsAfterFailure + 1);
    expect((await cache.get()).stale).toBe(false);
  });

  it("holds refreshes until a 429's Retry-After has passed", async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    await cache.get();
    clock.now += 31_000;
    state.fail = new RateLimitError({ method: 'GET', path: '/api/v1/monitors', status: 429, body: undefined, retryAfterSeconds: 120 });
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    state.fail = null;
    const calls = state.calls;
    clock.now += 60_000;
    await cache.get();
    expect(state.calls).toBe(calls);
    clock.now += 61_000;
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.calls).toBe(calls + 1);
  });

  it('answers unavailable on a cold start with the API down, and when the last good data is too old', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    state.fail = new Error('down');
    await expect(cache.get()).rejects.toBeInstanceOf(SnapshotUnavailableError);
    const error = await cache.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SnapshotUnavailableError);
    expect((error as SnapshotUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(state.calls).toBe(1);

    clock.now += 3_000;
    state.fail = null;
    await cache.get();
    clock.now += 31_000;
    state.fail = new Error('down');
    await cache.get();
    clock.now += 600_000;
    await expect(cache.get()).rejects.toBeInstanceOf(SnapshotUnavailableError);
  });

  it('caps an absurd Retry-After so refreshes resume', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    await cache.get();
    clock.now += 31_000;
    state.fail = new RateLimitError({ method: 'GET', path: '/api/v1/monitors', status: 429, body: undefined, retryAfterSeconds: 99_999_999 });
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    state.fail = null;
    const calls = state.calls;
    // maxStaleMs is 600 s in these tests: the hold is at most half of it.
    clock.now += 301_000;
    await cache.get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.calls).toBe(calls + 1);
  });

  describe('a refresh asked for by a push', () => {
    it('loads fresh data at once, even while the snapshot is fresh', async () => {
      const clock = { now: 1_000_000 };
      const { state, load } = scriptedLoad(clock);
      const cache = cacheWith(clock, load);
      await cache.get();
      clock.now += 1_000;
      await cache.refresh();
      expect(state.calls).toBe(2);
      expect((await cache.get()).snapshot.organization?.name).toBe('v2');
    });

    it('waits for a running refresh, which may predate the change, then loads once more', async () => {
      const clock = { now: 1_000_000 };
      const { state, load } = scriptedLoad(clock);
      const cache = cacheWith(clock, load);
      await cache.get();
      clock.now += 31_000;
      state.delayMs = 30;
      await cache.get();
      expect(state.calls).toBe(2);
      await cache.refresh();
      expect(state.calls).toBe(3);
      expect((await cache.get()).snapshot.organization?.name).toBe('v3');
    });

    it('respects the failure backoff: a held push waits for its end, then asks the API once, so the change is not lost', async () => {
      const clock = { now: 1_000_000 };
      const { state, load } = scriptedLoad(clock);
      const times: number[] = [];
      const cache = cacheWith(
        clock,
        async () => {
          times.push(clock.now - 1_000_000);
          return load();
        },
        { sleep: async (ms) => void (clock.now += ms) },
      );
      await cache.get();
      state.fail = new Error('down');
      // Fails at once, waits out the 2 s backoff, tries once more, and gives up.
      await cache.refresh();
      expect(times).toEqual([0, 0, 2_000]);
      state.fail = null;
      // Held (4 s, doubled): nothing is asked until the hold ends, then the change is fetched.
      await cache.refresh();
      expect(times).toEqual([0, 0, 2_000, 6_000]);
      expect((await cache.get()).stale).toBe(false);
    });

    it('tells what started each load', async () => {
      const clock = { now: 1_000_000 };
      const triggers: string[] = [];
      const cache = new SnapshotCache({
        load: async (trigger) => {
          triggers.push(trigger);
          return snapshotAt(clock.now);
        },
        freshMs: 30_000,
        maxStaleMs: 600_000,
        failureBackoffMs: 2_000,
        now: () => clock.now,
      });
      await cache.get();
      await cache.refresh();
      expect(triggers).toEqual(['ttl', 'push']);
    });
  });

  describe('a snapshot restored from an earlier run', () => {
    it('is served, dated as stale, when the first refresh fails, and refreshes go on in the background', async () => {
      const clock = { now: 1_000_000 };
      const { state, load } = scriptedLoad(clock);
      const restored = snapshotAt(clock.now - 60_000, 'saved');
      const announced: Snapshot[] = [];
      const cache = cacheWith(clock, load, { restore: async () => restored, onRestored: (snapshot) => announced.push(snapshot) });
      state.fail = new Error('connect ECONNREFUSED');
      const first = await cache.get();
      expect(first.snapshot).toBe(restored);
      expect(first.stale).toBe(true);
      expect(first.snapshot.fetchedAt.getTime()).toBe(clock.now - 60_000);
      expect(announced).toEqual([restored]);
      expect(cache.ready()).toBe(true);

      // During the backoff it is answered at once, without asking the API.
      const calls = state.calls;
      expect((await cache.get()).snapshot).toBe(restored);
      expect(state.calls).toBe(calls);

      clock.now += 2_001;
      state.fail = null;
      expect((await cache.get()).snapshot).toBe(restored);
      await settle();
      const live = await cache.get();
      expect(live.snapshot.organization?.name).not.toBe('saved');
      expect(live.stale).toBe(false);
    });

    it('is not used when the API answers', async () => {
      const clock = { now: 1_000_000 };
      const { load } = scriptedLoad(clock);
      const cache = cacheWith(clock, load, { restore: async () => snapshotAt(clock.now - 60_000, 'saved') });
      const first = await cache.get();
      expect(first.snapshot.organization?.name).toBe('v1');
      expect(first.stale).toBe(false);
    });

    it('is not used once older than the longest staleness: the cold start answers unavailable', async () => {
      const clock = { now: 1_000_000_000 };
      const { state, load } = scriptedLoad(clock);
      const cache = cacheWith(clock, load, { restore: async () => snapshotAt(clock.now - 600_001, 'too old') });
      state.fail = new Error('down');
      await expect(cache.get()).rejects.toBeInstanceOf(SnapshotUnavailableError);
      expect(cache.ready()).toBe(false);
    });

    it('a restore that fails counts as none', async () => {
      const clock = { now: 1_000_000 };
      const { state, load } = scriptedLoad(clock);
      const cache = cacheWith(clock, load, { restore: async () => Promise.reject(new Error('EACCES')) });
      state.fail = new Error('down');
      await expect(cache.get()).rejects.toBeInstanceOf(SnapshotUnavailableError);
    });
  });

  it('is ready once data is loaded, and no longer when it has grown too old', async () => {
    const clock = { now: 1_000_000 };
    const { state, load } = scriptedLoad(clock);
    const cache = cacheWith(clock, load);
    expect(cache.ready()).toBe(false);
    await cache.get();
    expect(cache.ready()).toBe(true);
    state.fail = new Error('down');
    clock.now += 600_001;
    await cache.get().catch(() => undefined);
    expect(cache.ready()).toBe(false);
  });

  it('tells of a loaded snapshot once it is the one served', async () => {
    const clock = { now: 1_000_000 };
    const { load } = scriptedLoad(clock);
    let cache: SnapshotCache;
    const seen: string[] = [];
    cache = cacheWith(clock, load, {
      onLoaded: (snapshot) => {
        void cache.get().then((current) => seen.push(`${snapshot.organization?.name}=${current.snapshot.organization?.name}`));
      },
    });
    await cache.get();
    await settle();
    expect(seen).toEqual(['v1=v1']);
  });
});
