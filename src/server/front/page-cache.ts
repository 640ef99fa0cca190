/**
 * The front's page cache: rendered bytes kept in memory by key (host, path, data version), each
 * rendered once by the site at a time (stale-while-revalidate), old bytes standing in for a
 * failed re-render for a bounded time (stale-if-error), answers that may not be stored handed to
 * the request that asked for them, and the pages asked for recently re-rendered as soon as new
 * data arrives (rewarm.ts). The stages of a request around it are front-server.ts's.
 */
import { LRUCache } from 'lru-cache';
import { isStorable, pageSize, renderedPage, replayableHeaders, type RenderedPage } from './rendered-page.ts';
import type { Answer } from './pass-through.ts';
import { pagesToRewarm, rewarm } from './rewarm.ts';
import type { SitePool } from './site-pool.ts';

/** A stored page, with what it was rendered for and when a visitor last asked for it. */
export type StoredPage = RenderedPage & {
  path: string;
  host: string;
  /** Coarse clock (epoch ms) of the latest request it answered: written on the hot path, so no clock read there. */
  servedAt: number;
};

export interface RenderContext {
  key: string;
  path: string;
  host: string;
  /** An answer that may not be stored (a 404, a 503): handed to the request that asked for it. */
  uncached?: Answer;
}

export interface PageCacheOptions {
  /** The connections the cache renders over. */
  pool: SitePool;
  /** How long stored bytes are served before one revalidation is started. */
  freshMs: number;
  /** How long old bytes may stand in for a page whose re-render fails. */
  maxStaleMs: number;
  maxEntries: number;
  maxBytes: number;
  now: () => number;
  /** The coarse clock a new page's `servedAt` starts from. */
  tick: () => number;
  /** Told of each render, for metrics. */
  onRender?: ((seconds: number, status: number | 'error') => void) | undefined;
  /** Debug lines (each re-render of recent pages after new data). */
  debug?: ((line: string) => void) | undefined;
}

export type PageCache = LRUCache<string, StoredPage, RenderContext>;

/** After new data: pages asked for in the last 5 minutes are re-rendered at once, 64 at most, 2 at a time. */
const REWARM = { windowMs: 5 * 60_000, maxPages: 64, concurrency: 2 } as const;

/** The site answers 503 when it has no data it may show: that is never papered over. */
const SITE_UNAVAILABLE = 503;

class RenderFailed extends Error {
  override name = 'RenderFailed';
}

export function createPageCache(options: PageCacheOptions): { cache: PageCache; rewarmFor(version: string): Promise<void>; close(): void } {
  const { pool, now, onRender } = options;

  async function render(context: RenderContext, stale: StoredPage | undefined): Promise<StoredPage | undefined> {
    const started = performance.now();
    try {
      const page = await renderOnce(context, stale);
      onRender?.((performance.now() - started) / 1000, page?.status ?? context.uncached?.status ?? 'error');
      return page;
    } catch (error) {
      onRender?.((performance.now() - started) / 1000, 'error');
      // Old bytes stand in for a failed render only while they are young enough (stale-if-error
      // is bounded): past that, drop them once this fetch has settled and let the request through.
      if (stale && now() - stale.storedAt >= options.maxStaleMs) {
        setImmediate(() => cache.delete(context.key));
        return undefined;
      }
      throw error;
    }
  }

  async function renderOnce(context: RenderContext, stale: StoredPage | undefined): Promise<StoredPage | undefined> {
    const upstream = await pool.request({
      method: 'GET',
      path: context.path,
      // Only what the site renders by: the Host. No cookies, no client headers in shared bytes.
      headers: { host: context.host, accept: 'text/html', 'accept-encoding': 'identity', 'user-agent': 'porchlight-front-cache' },
      what: `page ${context.path}`,
    });
    const body = upstream.body;
    const status = upstream.statusCode;
    // A broken render keeps recent old bytes (stale-if-error); a deliberate 503 never does.
    if (status >= 500 && status !== SITE_UNAVAILABLE && stale && now() - stale.storedAt < options.maxStaleMs) {
      throw new RenderFailed(`rendering ${context.path} answered ${status}`);
    }
    if (!isStorable(status, upstream.headers)) {
      context.uncached = { status, headers: replayableHeaders(upstream.headers), body };
      // lru-cache would keep serving the old bytes of a page that is now a 404, a redirect or a
      // 503: drop them once this fetch has settled.
      if (stale) setImmediate(() => cache.delete(context.key));
      return undefined;
    }
    const page = await renderedPage(status, upstream.headers, body, now);
    // A re-render keeps the old page's last request: being re-rendered is not being asked for.
    return { ...page, path: context.path, host: context.host, servedAt: stale?.servedAt ?? options.tick() };
  }

  const cache: PageCache = new LRUCache<string, StoredPage, RenderContext>({
    max: Math.max(1, options.maxEntries),
    maxSize: options.maxBytes,
    sizeCalculation: pageSize,
    ttl: options.freshMs,
    ttlResolution: 0,
    perf: { now },
    allowStale: true,
    // The synchronous fresh-only look-up of the hot path must not throw stale entries away.
    noDeleteOnStaleGet: true,
    allowStaleOnFetchRejection: true,
    noDeleteOnFetchRejection: true,
    fetchMethod: (_key, stale, { context }) => render(context, stale),
  });

  /** Each new data version: re-render the pages visitors asked for recently (see rewarm.ts). */
  let rewarmGeneration = 0;
  async function rewarmFor(version: string): Promise<void> {
    rewarmGeneration += 1;
    const generation = rewarmGeneration;
    const keys = pagesToRewarm(cache.entries(), version, now(), REWARM);
    if (keys.length === 0) return;
    const run = await rewarm(keys, REWARM.concurrency, (key) => {
      const page = cache.peek(key, { allowStale: true });
      // Gone, or already re-rendered from this data (a visitor asked first): nothing to do.
      if (!page || page.dataVersion === version) return Promise.resolve();
      // allowStale: false waits for the new bytes (visitors meanwhile still get the old ones at once).
      return cache.fetch(key, { forceRefresh: true, allowStale: false, context: { key, path: page.path, host: page.host } });
    }, () => generation !== rewarmGeneration);
    options.debug?.(`re-rendered ${run.rendered} of ${run.pages} recently requested pages for data version ${version} in ${run.ms} ms${run.cancelled ? ' (cut short by newer data)' : ''}`);
  }

  // Closing cancels what is left of a rewarm; renders in flight are abandoned, not awaited.
  return { cache, rewarmFor, close: () => void (rewarmGeneration += 1) };
}
