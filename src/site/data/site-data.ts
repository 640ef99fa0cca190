/**
 * The site's one source of status data: a typed API client (server-side only, the key never
 * leaves this process), the long-lived uptime aggregates, and the snapshot cache in front of them.
 * Every refresh logs one line with its outcome, trigger, API requests and duration; each good
 * snapshot is saved to CACHE_DIR so that a restart can show it while the API is down. Pushes
 * from the API (see push-signal.ts) refresh at once (at most once a second, less often during
 * a burst), reading only the lists their events name; with push working, polling is only a
 * safety net. What each refresh reads is refresh-plan.ts's; rate-limit headers pace check pages.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PAGE_CHANGED_EVENT } from '../../contract/porchlight-push.ts';
import { createClient, createHttpDispatcher, RateLimitError, type ApiClient, type RequestDispatcher } from '../../api/index.ts';
import { MAX_RESPONSE_BYTES } from '../../api/transport.ts';
import { createLogger, reasonOf, type Logger } from '../../logging/logger.ts';
import { siteConfig, type SiteConfig } from '../running-config.ts';
import { timeZonesInUse } from '../i18n/settings.ts';
import { announceCustomDomains } from './custom-domains.ts';
import { announceDataFetchedAt } from './data-age.ts';
import { onDataWanted } from './data-wanted.ts';
import { announceDataVersion, dataVersionOf } from './data-version.ts';
import { announceHiddenPages, hiddenPages } from './hidden-pages.ts';
import { notePagesLoaded } from './loaded-pages.ts';
import { audienceBook } from '../private/audience-book.ts';
import { historyFile, memoryHistoryFile, type HistoryFile } from './history-file.ts';
import { askPushChannelVerified, isPushSign, onPush, type PushMessage } from './push-signal.ts';
import { RateLimitPacer } from './rate-limit-pacer.ts';
import { AskLimiter, pagesCheckIntervalMs, pagesReadDue } from './pages-freshness.ts';
import { freshnessMs, LISTS, listsToRead, PAGES_WANTED, type PushEvent } from './refresh-plan.ts';
import { publishRefresh } from './refresh-events.ts';
import { announceSnapshot } from './snapshot-channel.ts';
import { RefreshThrottle } from './refresh-throttle.ts';
import { SnapshotCache, type CachedSnapshot } from './snapshot-cache.ts';
import { memorySnapshotFile, snapshotFile, type SnapshotFile } from './snapshot-file.ts';
import { loadSnapshot, type Snapshot } from './snapshot.ts';
import type { MonitorHistory } from './uptime-history.ts';

/** The first refresh of a site with no stored history may read this many times the usual pages. */
const FIRST_LOAD_BACKFILL_FACTOR = 5;
/** Pushes refresh at most this often, whatever their rate... */
const PUSH_REFRESH_INTERVAL_MS = 1_000;
/** ...and during a burst of them, the interval doubles up to this. */
const PUSH_BURST_INTERVAL_MS = 5_000;
/** Reads of the pages list alone (one request each) start at most this often. */
const PAGE_READ_INTERVAL_MS = 500;
/** A check page the rate-limit pacer would hold longer than this waits for a later refresh instead. */
const MAX_PACING_WAIT_MS = 5_000;

export interface SiteData {
  get(): Promise<CachedSnapshot>;
  /**
   * A name (a slug, a custom domain) the data does not know was asked for: the pages list is
   * read again, at most once per 10 s for all such asks (pages-freshness.ts). Resolves once that
   * read is done, at once when none may start, and after `maxWaitMs` at the latest.
   */
  askForPages(maxWaitMs?: number): Promise<void>;
  /** HTTP requests sent to the API since start, retries included (the static export reports them). */
  apiRequests(): number;
  /** Whether pages can be shown now (fresh or stale data); starts loading when nothing is loaded. */
  ready(): boolean;
}

type Headers = Record<string, string | string[] | undefined>;

/** Counts every HTTP request the client sends, retries included, and shows `onHeaders` every answer's headers. */
function countingDispatcher(dispatcher: RequestDispatcher, onRequest: () => void, onHeaders: (headers: Headers) => void): RequestDispatcher {
  return {
    request: async (call) => {
      onRequest();
      const response = await dispatcher.request(call);
      onHeaders(response.headers);
      return response;
    },
    close: () => dispatcher.close(),
  };
}

/** A check page would have to wait too long for the API's rate limit: this refresh leaves the histories. */
class RateLimitPacingError extends Error {
  override name = 'RateLimitPacingError';
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(`the API's rate limit leaves too few requests: check pages wait ${Math.ceil(waitMs / 1000)} s`);
    this.waitMs = waitMs;
  }
}

export function createSiteData(config: SiteConfig, log: Logger = createLogger('site')): SiteData {
  const timeoutMs = config.apiTimeoutSeconds * 1000;
  let requests = 0;
  const pacer = new RateLimitPacer();
  const http = createHttpDispatcher({ connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES });
  const client: ApiClient = createClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    dispatcher: countingDispatcher(http, () => (requests += 1), (headers) => pacer.observe(headers, Date.now())),
    timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs, totalMs: timeoutMs * 2 },
    // The snapshot cache is the retry policy (backoff, Retry-After holds): a failed refresh must
    // not leave sibling requests retrying on their own.
    maxRetries: 0,
    logger: { warn: (message) => log.warn(message) },
  });
  const inMemory = config.cacheDir === ':memory:';
  const store: HistoryFile = inMemory ? memoryHistoryFile : historyFile(config.cacheDir);
  const saved: SnapshotFile = inMemory ? memorySnapshotFile : snapshotFile(config.cacheDir);
  // Aggregates and snapshots belong to one API and key; the key itself is never written down.
  const owner = `${config.apiUrl} ${createHash('sha256').update(config.apiKey).digest('hex').slice(0, 16)}`;
  let histories: Map<string, MonitorHistory> | undefined;
  /** No check pages are asked for before this instant (a 429 on them said when to come back). */
  let historyHoldUntil = 0;
  /** Requests and time of the refresh that just failed, for its log line. */
  let failed = { requests: 0, durationMs: 0 };
  /** The latest snapshot loaded in this run: a push refresh reads only what its events name and keeps the rest. */
  let latest: Snapshot | null = null;
  /** Events of the pushes not yet read by a refresh (coalesced: a burst is one refresh). */
  let pendingEvents: PushEvent[] = [];
  /** The last push received or push channel verified (epoch ms): push works, polling is the safety net. */
  let lastPushSign: number | null = null;
  /** When a successful refresh last read the pages list, and every list (epoch ms). */
  let lastPagesRead: number | null = null;
  let lastFullRead: number | null = null;
  /** The snapshot last announced (a read of the pages list that found nothing new gives it back). */
  let announced: Snapshot | null = null;

  /**
   * One save at a time, and only the newest snapshot waits for its turn: with saves slower than
   * refreshes, the snapshots in between are skipped rather than queued without bound.
   */
  let saving: Promise<void> | null = null;
  let pending: Snapshot | null = null;
  function save(snapshot: Snapshot): void {
    pending = snapshot;
    saving ??= (async () => {
      while (pending) {
        const next: Snapshot = pending;
        pending = null;
        await persist(next);
      }
      saving = null;
    })();
  }

  async function persist(snapshot: Snapshot): Promise<void> {
    // The snapshot's copies: the live aggregates may already be advancing in the next refresh.
    await store.save(owner, snapshot.histories).catch((error: unknown) => {
      log.warn({ event: 'history-save', reason: reasonOf(error) }, `could not save uptime history (${reasonOf(error)})`);
    });
    await saved.save(owner, snapshot).catch((error: unknown) => {
      log.warn({ event: 'snapshot-save', reason: reasonOf(error) }, `could not save the snapshot (${reasonOf(error)})`);
    });
  }

  async function restore(): Promise<Snapshot | null> {
    const result = await saved.load(owner);
    if ('ignored' in result) log.warn({ event: 'snapshot-restore', outcome: 'ignored', reason: result.ignored }, `saved snapshot ignored: ${result.ignored}`);
    if (!('snapshot' in result)) return null;
    // Servable at once if the API fails: readiness (answered by the front server) counts it.
    announceDataFetchedAt(result.snapshot.fetchedAt);
    log.info({ event: 'snapshot-restore', outcome: 'loaded', fetchedAt: result.snapshot.fetchedAt.toISOString() }, 'saved snapshot loaded; it is shown, dated, if the API cannot be reached');
    return result.snapshot;
  }

  const cache = new SnapshotCache({
    freshMs: config.freshSeconds * 1000,
    freshFor: () => freshnessMs({ freshMs: config.freshSeconds * 1000, pushPollMs: config.pushPollSeconds * 1000, lastPushSignMs: lastPushSign, nowMs: Date.now(), lastFullReadMs: lastFullRead }),
    maxStaleMs: config.maxStaleSeconds * 1000,
    failureBackoffMs: 2_000,
    restore,
    onLoaded: (snapshot) => {
      // Before the new data version: the front server drops a hidden page's bytes rather than re-rendering behind them.
      const hidden = announced ? hiddenPages(announced.pages, snapshot.pages) : null;
      if (hidden) announceHiddenPages(hidden);
      announceCustomDomains(snapshot.pages);
      notePagesLoaded(snapshot.pages);
      // Nothing new (the pages list read again, unchanged): the domains answer the TLS gate's ask; the rest stands.
      if (snapshot === announced) return;
      announced = snapshot;
      announceDataVersion(dataVersionOf(snapshot.fetchedAt));
      announceDataFetchedAt(snapshot.fetchedAt);
      // E-mail subscriptions find their events by comparing successive loads of this same data.
      if (config.subscriptions) announceSnapshot('loaded', snapshot);
      // One save at a time, off the refresh's path: pages switch to the new data first.
      save(snapshot);
    },
    onRestored: (snapshot) => {
      announced = snapshot;
      announceCustomDomains(snapshot.pages);
      notePagesLoaded(snapshot.pages);
      announceDataVersion(dataVersionOf(snapshot.fetchedAt));
      if (config.subscriptions) announceSnapshot('restored', snapshot);
    },
    onFailure: ({ reason, retryInSeconds, trigger }) => {
      log.warn(
        { event: 'refresh', outcome: 'failure', trigger, reason, retryInSeconds, ...failed },
        `refresh failed (${reason}); next attempt in ${retryInSeconds} s`,
      );
    },
    load: async (trigger) => {
      histories ??= await store.load(owner);
      const before = requests;
      const started = performance.now();
      // A poll reads every list; a push, the lists of the events received since the last refresh.
      const events = pendingEvents;
      pendingEvents = [];
      const lists = listsToRead(trigger === 'push' ? events : null);
      const pagesOnly = latest !== null && lists.size === 1 && lists.has('pages');
      let snapshot: Snapshot;
      try {
        snapshot = await loadSnapshot(client, histories, {
          now: () => new Date(),
          previous: latest,
          lists,
          beforeCheckPage: async () => {
            const wait = pacer.delayMs(Date.now());
            if (wait > MAX_PACING_WAIT_MS) throw new RateLimitPacingError(wait);
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          },
          // With no history at all (the very first start), fill the bars faster.
          backfillBudget: histories.size === 0 ? config.backfillPages * FIRST_LOAD_BACKFILL_FACTOR : config.backfillPages,
          concurrency: 4,
          timeZones: timeZonesInUse(config.languages),
          hasAudience: (pageId) => (audienceBook()?.byId(pageId) ?? null) !== null,
          // The pages list on its own (pages-freshness.ts) costs one request: no check pages.
          skipHistory: pagesOnly || Date.now() < historyHoldUntil,
          onHistoryError: (error) => {
            if (error instanceof RateLimitError) historyHoldUntil = Date.now() + Math.min((error.retryAfterSeconds ?? 60) * 1000, 3_600_000);
            if (error instanceof RateLimitPacingError) historyHoldUntil = Date.now() + error.waitMs;
            log.warn({ event: 'history', reason: reasonOf(error) }, `uptime history not fully updated this time (${reasonOf(error)})`);
          },
        });
      } catch (error) {
        // Unread: the next refresh reads what these pushes named.
        pendingEvents = [...events, ...pendingEvents];
        failed = { requests: requests - before, durationMs: Math.round(performance.now() - started) };
        publishRefresh({ outcome: 'failure', trigger, durationSeconds: failed.durationMs / 1000, requests: failed.requests });
        throw error;
      }
      const readAt = snapshot.fetchedAt.getTime();
      if (lists.has('pages') || latest === null) lastPagesRead = readAt;
      if (lists.size === LISTS.length || latest === null) lastFullRead = readAt;
      // Pages unchanged: the same snapshot, so nothing is re-rendered and nothing looks new.
      if (pagesOnly && latest && isDeepStrictEqual(snapshot.pages, latest.pages)) snapshot = latest;
      latest = snapshot;
      const count = requests - before;
      const durationMs = Math.round(performance.now() - started);
      log.info({ event: 'refresh', outcome: 'success', trigger, lists: [...lists], requests: count, durationMs }, `refreshed status data with ${count} API requests in ${durationMs} ms`);
      publishRefresh({ outcome: 'success', trigger, durationSeconds: durationMs / 1000, requests: count });
      return snapshot;
    },
  });

  /** Refreshes started so far (by a throttle, or for an unknown name): an ask is answered by one that started after it. */
  let refreshesStarted = 0;
  /** Asks for the pages list waiting for a refresh that started after them. */
  let pageAsks: { after: number; resolve: () => void }[] = [];
  const settlePageAsks = (started: number) => {
    const done = pageAsks.filter((ask) => started > ask.after);
    pageAsks = pageAsks.filter((ask) => started <= ask.after);
    for (const ask of done) ask.resolve();
  };
  const refresh = async () => {
    refreshesStarted += 1;
    const started = refreshesStarted;
    await cache.refresh().finally(() => settlePageAsks(started));
  };
  const pushes = new RefreshThrottle(refresh, { intervalMs: PUSH_REFRESH_INTERVAL_MS, maxIntervalMs: PUSH_BURST_INTERVAL_MS });
  // Reads of the pages list (one request each) keep a steady pace without the burst's growth: a
  // page change is served within a second or so even right after a storm of other events.
  const pageReads = new RefreshThrottle(refresh, { intervalMs: PAGE_READ_INTERVAL_MS });
  /** Notes that the next refresh reads (at least) the pages list; once, however often it is asked. */
  const wantPages = (event: PushEvent = PAGES_WANTED) => {
    if (pendingEvents.includes(event)) return;
    if (pendingEvents.length < 100) pendingEvents.push(event);
    else pendingEvents = [null];
  };
  const readPages = (event: PushEvent = PAGES_WANTED) => {
    wantPages(event);
    pageReads.request();
  };
  const unknownNames = new AskLimiter();
  function askForPages(maxWaitMs = 2_000): Promise<void> {
    // One read per 10 s for every unknown name together; an ask inside that time joins the read
    // still to come, if any, and is answered at once otherwise. A read answers the asks made
    // before it started (it may start right here).
    let after = refreshesStarted;
    if (unknownNames.tryStart()) {
      // Its own limit is its pace: no wait behind the interval of the other reads.
      wantPages();
      void refresh().catch(() => undefined);
    } else if (pageAsks.length === 0) {
      return Promise.resolve();
    } else {
      after = Math.min(...pageAsks.map((ask) => ask.after));
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      timer.unref();
      pageAsks.push({
        after,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
  // The pages list at least every CACHE_FRESH_SECONDS, whatever push does (pages-freshness.ts).
  const freshMs = config.freshSeconds * 1000;
  setInterval(() => {
    if (latest !== null && pagesReadDue({ lastPagesReadMs: lastPagesRead, nowMs: Date.now(), freshMs })) readPages();
  }, pagesCheckIntervalMs(freshMs)).unref();
  onPush((message: PushMessage) => {
    if (message.type === 'ask') return;
    if (isPushSign(message)) lastPushSign = Date.now();
    if (message.type !== 'push') return;
    if (message.event === PAGE_CHANGED_EVENT) return readPages(message.event);
    // Past a hundred unread events, one that names nothing known stands for them all (read every list).
    if (pendingEvents.length < 100) pendingEvents.push(message.event);
    else pendingEvents = [null];
    pushes.request();
  });
  // The channel may have been verified before this listened.
  askPushChannelVerified();
  onDataWanted((what) => {
    // A visit (a readiness probe): a refresh only when the data is no longer fresh.
    if (what === 'visit') return void cache.get().catch(() => undefined);
    // A name the serving thread does not know (the TLS gate): the same ask as a visitor's, answered
    // with the domains once it is done (the gate waits for that announcement).
    void askForPages().then(() => {
      if (latest) announceCustomDomains(latest.pages);
    });
  });
  if (config.subscriptions) {
    // Subscribers are told of changes nobody is looking at too: the data is read at least once
    // per freshness period even without visitors (a fresh snapshot costs nothing to ask for).
    setInterval(() => cache.get().catch(() => undefined), config.freshSeconds * 1000).unref();
  }

  return {
    get: () => cache.get(),
    askForPages,
    apiRequests: () => requests,
    ready: () => {
      // A probe is a visitor too: it starts the first load, or a refresh of stale data.
      cache.get().catch(() => undefined);
      return cache.ready();
    },
  };
}

let instance: SiteData | undefined;

/** The process-wide instance, created on first use from the validated configuration. */
export function siteData(): SiteData {
  instance ??= createSiteData(siteConfig());
  return instance;
}
