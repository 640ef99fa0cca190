/**
 * /healthz and /readyz, answered on the serving thread itself: a probe never waits behind a
 * render, a slow site thread or a full connection pool. Liveness is this thread answering;
 * readiness is whether the site has status data it may show (loaded, or restored from disk, no
 * older than the longest allowed staleness), as the site tells the front after each load.
 */
import { followDataFetchedAt } from '../../site/data/data-age.ts';
import { askForFreshData } from '../../site/data/data-wanted.ts';
import type { GateAnswer } from './request-gate.ts';
import { canonicalPath } from './request-key.ts';

export interface ProbeOptions {
  /** How old status data may be and still be shown (CACHE_MAX_STALE_SECONDS). */
  maxStaleMs: number;
  now?: () => number;
}

export interface Probes {
  /** The answer for a probe path (query ignored), or null for any other path. */
  answer(path: string): GateAnswer | null;
  close(): void;
}

const HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
const LIVE: GateAnswer = { status: 200, headers: HEADERS, body: 'ok\n' };
const READY: GateAnswer = { status: 200, headers: HEADERS, body: 'ready\n' };
const NOT_READY: GateAnswer = { status: 503, headers: HEADERS, body: 'not ready: no status data to show yet\n' };

/** Probes ask the site for data at most this often, however often they come. */
const ASK_INTERVAL_MS = 1_000;

export function createProbes(options: ProbeOptions): Probes {
  const now = options.now ?? Date.now;
  const fetchedAt = followDataFetchedAt();
  let askedAt = Number.NEGATIVE_INFINITY;
  return {
    answer(path) {
      // Every request asks: two prefix tests are all that an ordinary page pays.
      if (!path.startsWith('/healthz') && !path.startsWith('/readyz')) return null;
      const bare = canonicalPath(path);
      if (bare === '/healthz') return LIVE;
      if (bare !== '/readyz') return null;
      // A probe is a visitor too: it starts the first load, or a refresh of stale data.
      const time = now();
      if (time - askedAt >= ASK_INTERVAL_MS) {
        askedAt = time;
        askForFreshData();
      }
      const newest = fetchedAt.current();
      return newest !== null && time - newest <= options.maxStaleMs ? READY : NOT_READY;
    },
    close: () => fetchedAt.close(),
  };
}
