/**
 * Serves the latest snapshot from memory whatever the traffic, with lru-cache's fetch doing the
 * mechanics: concurrent requests share one in-flight refresh; a stale snapshot is served at once
 * while one background refresh runs (stale-while-revalidate); a failed refresh keeps the last good
 * snapshot (stale-if-error) up to `maxStaleMs`. After a failure, and after a 429 until its
 * Retry-After, no refresh is attempted, so the API sees a bounded number of requests. A snapshot
 * restored from disk stands in, dated, when the first refreshes after a start fail.
 */
import { LRUCache } from 'lru-cache';
import { RateLimitError } from '../../api/index.ts';
import type { Snapshot } from './snapshot.ts';

/** What started a refresh: a visitor after the data's freshness ended, or a push from the API. */
export type RefreshTrigger = 'ttl' | 'push';

export interface RefreshFailure {
  reason: string;
  retryInSeconds: number;
  trigger: RefreshTrigger;
}

export interface SnapshotCacheOptions {
  load: (trigger: RefreshTrigger) => Promise<Snapshot>;
  /** How long a snapshot is fresh (and the cap of the failure backoff). */
  freshMs: number;
  /** How long the snapshot just loaded stays fresh, when that varies (push working); else `freshMs`. */
  freshFor?: () => number;
  /** How old a snapshot may be and still be served while the API fails. */
  maxStaleMs: number;
  /** Wait after a failed refresh before the next attempt (doubles up to `freshMs`). */
  failureBackoffMs: number;
  /** The last good snapshot of an earlier run (read once, at construction), or null. */
  restore?: () => Promise<Snapshot | null>;
  /** Told once a loaded snapshot is the one served (announce it, save it). */
  onLoaded?: (snapshot: Snapshot) => void;
  /** Told when the restored snapshot is put into service. */
  onRestored?: (snapshot: Snapshot) => void;
  now?: () => number;
  /** Waits `ms` (a push held back by a failure backoff or a 429 waits for its end). */
  sleep?: (ms: number) => Promise<void>;
  onFailure?: (failure: RefreshFailure) => void;
}

export interface CachedSnapshot {
  snapshot: Snapshot;
  /** The latest refresh failed: the snapshot is the last known state. */
  stale: boolean;
}

/** No snapshot can be served: nothing loaded yet, or the last good one is too old. */
export class SnapshotUnavailableError extends Error {
  override name = 'SnapshotUnavailableError';
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const KEY = 'snapshot';

/** A wait that never keeps the process alive. */
function unrefSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
/** Longest hold a 429's Retry-After can impose. */
const MAX_RETRY_AFTER_MS = 3_600_000;

export class SnapshotCache {
  readonly #options: SnapshotCacheOptions & { now: () => number; sleep: (ms: number) => Promise<void> };
  readonly #cache: LRUCache<string, Snapshot, RefreshTrigger>;
  /** No refresh before this instant (epoch ms): failure backoff or the API's Retry-After. */
  #holdUntil = 0;
  #consecutiveFailures = 0;
  #lastFailure: string | null = null;
  /** The newest snapshot loaded in this run. */
  #lastGood: Snapshot | null = null;
  /** Settles once the snapshot of an earlier run is read; null when there is none (or no longer needed). */
  readonly #restoring: Promise<Snapshot | null>;
  #restored: Snapshot | null = null;

  constructor(options: SnapshotCacheOptions) {
    this.#options = { now: Date.now, sleep: unrefSleep, ...options };
    this.#restoring = (options.restore?.() ?? Promise.resolve(null)).catch(() => null).then((snapshot) => {
      if (this.#lastGood === null) this.#restored = snapshot;
      return this.#restored;
    });
    this.#cache = new LRUCache<string, Snapshot, RefreshTrigger>({
      max: 1,
      ttl: options.freshMs,
      perf: { now: this.#options.now },
      // One key: reading the clock on every check costs nothing and keeps staleness exact.
      ttlResolution: 0,
      allowStale: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, staleValue, { options: fetchOptions, context }) => this.#refresh(staleValue, fetchOptions, context),
    });
  }

  async #refresh(staleValue: Snapshot | undefined, fetchOptions: { ttl?: number }, trigger: RefreshTrigger): Promise<Snapshot> {
    const now = this.#options.now();
    if (now < this.#holdUntil) {
      if (staleValue) {
        // Keep serving the old snapshot without asking the API until the hold ends.
        fetchOptions.ttl = this.#holdUntil - now;
        return staleValue;
      }
      throw new SnapshotUnavailableError('status data is not available yet', this.#retryAfterSeconds(now));
    }
    try {
      const snapshot = await this.#options.load(trigger);
      if (this.#options.freshFor) fetchOptions.ttl = this.#options.freshFor();
      this.#consecutiveFailures = 0;
      this.#lastFailure = null;
      this.#lastGood = snapshot;
      this.#restored = null;
      // lru-cache stores the value when this promise settles, after the current microtasks.
      const onLoaded = this.#options.onLoaded;
      if (onLoaded) setImmediate(() => onLoaded(snapshot));
      return snapshot;
    } catch (error) {
      this.#consecutiveFailures += 1;
      this.#lastFailure = error instanceof Error ? error.message : String(error);
      const backoff = Math.min(this.#options.failureBackoffMs * 2 ** (this.#consecutiveFailures - 1), this.#options.freshMs);
      // An absurd Retry-After (or a date years ahead) must not freeze refreshes for good.
      const retryAfterMs = error instanceof RateLimitError && error.retryAfterSeconds
        ? Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS, this.#options.maxStaleMs / 2)
        : 0;
      this.#holdUntil = this.#options.now() + Math.max(backoff, retryAfterMs);
      this.#options.onFailure?.({ reason: this.#lastFailure, retryInSeconds: Math.ceil((this.#holdUntil - this.#options.now()) / 1000), trigger });
      throw error;
    }
  }

  #retryAfterSeconds(now: number): number {
    return Math.max(1, Math.ceil((this.#holdUntil - now) / 1000));
  }

  #servable(snapshot: Snapshot | null, now: number): snapshot is Snapshot {
    return snapshot !== null && now - snapshot.fetchedAt.getTime() <= this.#options.maxStaleMs;
  }

  /** The snapshot of an earlier run, once the API has failed us: served as stale from now on. */
  async #fallBackToRestored(): Promise<Snapshot | null> {
    const restored = await this.#restoring;
    if (this.#lastGood !== null || !this.#servable(restored, this.#options.now())) return null;
    if (this.#cache.peek(KEY, { allowStale: true }) === undefined) {
      // Kept with its own age: stale at once, so the next request refreshes in the background.
      this.#cache.set(KEY, restored, { start: restored.fetchedAt.getTime() });
      this.#options.onRestored?.(restored);
    }
    this.#lastFailure ??= 'status data has not been loaded since the start';
    return restored;
  }

  /** The snapshot to render, refreshing as described above. */
  async get(): Promise<CachedSnapshot> {
    let snapshot: Snapshot | undefined;
    let failure: unknown = null;
    try {
      // A failed cold load resolves to undefined (allowStaleOnFetchRejection) or throws (a hold).
      snapshot = await this.#cache.fetch(KEY, { context: 'ttl' });
    } catch (error) {
      failure = error;
    }
    if (!snapshot) {
      const restored = await this.#fallBackToRestored();
      if (restored) return { snapshot: restored, stale: true };
      if (failure instanceof SnapshotUnavailableError) throw failure;
      throw new SnapshotUnavailableError('status data is not available yet', this.#retryAfterSeconds(this.#options.now()));
    }
    const now = this.#options.now();
    if (now - snapshot.fetchedAt.getTime() > this.#options.maxStaleMs) {
      throw new SnapshotUnavailableError('status data is too old to show', this.#retryAfterSeconds(now));
    }
    return { snapshot, stale: this.#lastFailure !== null };
  }

  /**
   * A refresh now, for a push: it waits for a running one first (that one may have read the
   * API before the pushed change), and still respects a failure backoff or a 429's hold.
   */
  async refresh(): Promise<void> {
    let waited = false;
    for (;;) {
      const status: LRUCache.Status<string, Snapshot, 'push'> = {};
      await this.#cache.fetch(KEY, { forceRefresh: true, allowStale: false, context: 'push', status }).catch(() => undefined);
      // Joined a refresh already running: it is settled and stored now, so start our own.
      if (status.fetch === 'inflight') continue;
      // Held by a failure backoff or a 429: the change the push announced is fetched once the
      // hold ends (once: a longer outage is the polling's to ride out), not dropped.
      const held = this.#holdUntil - this.#options.now();
      if (held <= 0 || waited) return;
      waited = true;
      await this.#options.sleep(held);
    }
  }

  /** Whether pages can be shown now: data loaded in this run, or restored, young enough. */
  ready(): boolean {
    const now = this.#options.now();
    return this.#servable(this.#lastGood, now) || this.#servable(this.#restored, now);
  }
}
