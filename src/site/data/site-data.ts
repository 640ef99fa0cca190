/**
 * The site's one source of status data: a typed API client (server-side only, the key never
 * leaves this process), the long-lived uptime aggregates, and the snapshot cache in front of them.
 * Every refresh logs one line with the number of API requests it made.
 */
import { createHash } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { createClient, RateLimitError, type ApiClient } from '../../api/index.ts';
import { siteConfig, type SiteConfig } from '../config.ts';
import { announceDataVersion, dataVersionOf } from './data-version.ts';
import { historyFile, memoryHistoryFile, type HistoryFile } from './history-file.ts';
import { SnapshotCache, type CachedSnapshot } from './snapshot-cache.ts';
import { loadSnapshot } from './snapshot.ts';
import type { MonitorHistory } from './uptime-history.ts';

/** The first refresh of a site with no stored history may read this many times the usual pages. */
const FIRST_LOAD_BACKFILL_FACTOR = 5;

export interface SiteData {
  get(): Promise<CachedSnapshot>;
  /** HTTP requests sent to the API since start, retries included (the static export reports them). */
  apiRequests(): number;
}

/** Counts every HTTP request the client sends, retries included. */
function countingDispatcher(agent: Agent, onRequest: () => void): Dispatcher {
  return agent.compose((dispatch) => (options, handler) => {
    onRequest();
    return dispatch(options, handler);
  });
}

export function createSiteData(config: SiteConfig, log: (line: string) => void = (line) => console.log(line)): SiteData {
  const timeoutMs = config.apiTimeoutSeconds * 1000;
  let requests = 0;
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const client: ApiClient = createClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    dispatcher: countingDispatcher(agent, () => (requests += 1)),
    timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs, totalMs: timeoutMs * 2 },
    // The snapshot cache is the retry policy (backoff, Retry-After holds): a failed refresh must
    // not leave sibling requests retrying on their own.
    maxRetries: 0,
    logger: { warn: (message) => log(message) },
  });
  const store: HistoryFile = config.cacheDir === ':memory:' ? memoryHistoryFile : historyFile(config.cacheDir);
  // Aggregates belong to one API and key; the key itself is never written down.
  const owner = `${config.apiUrl} ${createHash('sha256').update(config.apiKey).digest('hex').slice(0, 16)}`;
  let histories: Map<string, MonitorHistory> | undefined;
  /** No check pages are asked for before this instant (a 429 on them said when to come back). */
  let historyHoldUntil = 0;

  const cache = new SnapshotCache({
    freshMs: config.freshSeconds * 1000,
    maxStaleMs: config.maxStaleSeconds * 1000,
    failureBackoffMs: 2_000,
    log,
    load: async () => {
      histories ??= await store.load(owner);
      const before = requests;
      const started = performance.now();
      const snapshot = await loadSnapshot(client, histories, {
        now: () => new Date(),
        // With no history at all (the very first start), fill the bars faster.
        backfillBudget: histories.size === 0 ? config.backfillPages * FIRST_LOAD_BACKFILL_FACTOR : config.backfillPages,
        concurrency: 4,
        skipHistory: Date.now() < historyHoldUntil,
        onHistoryError: (error) => {
          if (error instanceof RateLimitError) historyHoldUntil = Date.now() + Math.min((error.retryAfterSeconds ?? 60) * 1000, 3_600_000);
          log(`porchlight: uptime history not fully updated this time (${error instanceof Error ? error.message : String(error)})`);
        },
      });
      log(`porchlight: refreshed status data with ${requests - before} API requests in ${Math.round(performance.now() - started)} ms`);
      announceDataVersion(dataVersionOf(snapshot.fetchedAt));
      await store.save(owner, histories).catch((error: unknown) => {
        log(`porchlight: could not save uptime history (${error instanceof Error ? error.message : String(error)})`);
      });
      return snapshot;
    },
  });
  return { get: () => cache.get(), apiRequests: () => requests };
}

let instance: SiteData | undefined;

/** The process-wide instance, created on first use from the validated configuration. */
export function siteData(): SiteData {
  instance ??= createSiteData(siteConfig());
  return instance;
}
