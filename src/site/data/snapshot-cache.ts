/**
 * Serves the latest snapshot from memory whatever the traffic, with lru-cache's fetch doing the
 * mechanics: concurrent requests share one in-flight refresh; a stale snapshot is served at once
 * while one background refresh runs (stale-while-revalidate); a failed refresh keeps the last good
 * snapshot (stale-if-error) up to `maxStaleMs`. After a failure, and after a 429 until its
 * Retry-After, no refresh is attempted, so the API sees a bounded number of requests.
 */
import { LRUCache } from 'lru-cache';
import { RateLimitError } from '../../api/index.ts';
import type { Snapshot } from './snapshot.ts';

export interface SnapshotCacheOptions {
  load: () => Promise<Snapshot>;
  /** How long a snapshot is fresh. */
  freshMs: number;
  /** How old a snapshot may be and still be served while the API fails. */
  maxStaleMs: number;
  /** Wait after a failed refresh before the next attempt (doubles up to `freshMs`). */
  failureBackoffMs: number;
  now?: () => number;
  log?: (line: string) => void;
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
/** Longest hold a 429's Retry-After can impose. */
const MAX_RETRY_AFTER_MS = 3_600_000;

export class SnapshotCache {
  readonly #options: Required<SnapshotCacheOptions>;
  readonly #cache: LRUCache<string, Snapshot>;
  /** No refresh before this instant (epoch ms): failure backoff or the API's Retry-After. */
  #holdUntil = 0;
  #consecutiveFailures = 0;
  #lastFailure: string | null = null;

  constructor(options: SnapshotCacheOptions) {
    this.#options = { now: Date.now, log: (line) => console.error(line), ...options };
    this.#cache = new LRUCache<string, Snapshot>({
      max: 1,
      ttl: options.freshMs,
      perf: { now: this.#options.now },
      // One key: reading the clock on every check costs nothing and keeps staleness exact.
      ttlResolution: 0,
      allowStale: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, staleValue, { options: fetchOptions }) => this.#refresh(staleValue, fetchOptions),
    });
  }

  async #refresh(staleValue: Snapshot | undefined, fetchOptions: { ttl?: number }): Promise<Snapshot> {
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
      const snapshot = await this.#options.load();
      this.#consecutiveFailures = 0;
      this.#lastFailure = null;
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
      this.#options.log(`porchlight: refresh failed (${this.#lastFailure}); next attempt in ${Math.ceil((this.#holdUntil - this.#options.now()) / 1000)} s`);
      throw error;
    }
  }

  #retryAfterSeconds(now: number): number {
    return Math.max(1, Math.ceil((this.#holdUntil - now) / 1000));
  }

  /** The snapshot to render, refreshing as described above. */
  async get(): Promise<CachedSnapshot> {
    let snapshot: Snapshot | undefined;
    try {
      snapshot = await this.#cache.fetch(KEY);
    } catch (error) {
      if (error instanceof SnapshotUnavailableError) throw error;
      throw new SnapshotUnavailableError('status data is not available yet', this.#retryAfterSeconds(this.#options.now()));
    }
    if (!snapshot) throw new SnapshotUnavailableError('status data is not available yet', this.#retryAfterSeconds(this.#options.now()));
    const now = this.#options.now();
    if (now - snapshot.fetchedAt.getTime() > this.#options.maxStaleMs) {
      throw new SnapshotUnavailableError('status data is too old to show', this.#retryAfterSeconds(now));
    }
    return { snapshot, stale: this.#lastFailure !== null };
  }
}
