/**
 * The public face of the site: answers GET/HEAD from rendered bytes kept in memory and passes
 * everything else to the Astro server on an internal loopback port. A cached page is served
 * while one revalidation per page runs (stale-while-revalidate); a failed revalidation keeps
 * the old bytes for a bounded time (stale-if-error). Each request is a few small steps: check
 * the Host, key, look up, negotiate, write. Beside them: health probes answered on this thread
 * (probes.ts), what the cache does not keep sent on for its visitor alone (pass-through.ts), and
 * the pages asked for recently re-rendered as soon as new data arrives (rewarm.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { matchesIfNoneMatch, negotiateCoding } from './encoding.ts';
import { isStorable, pageSize, renderedPage, replayableHeaders, type RenderedPage } from './rendered-page.ts';
import { DATA_VERSION_CHANNEL } from '../../site/data/data-version.ts';
import { listenOn } from '../../site/data/thread-channel.ts';
import { followCustomDomains } from '../../site/data/custom-domains.ts';
import { dropsStored, onHiddenPages } from '../../site/data/hidden-pages.ts';
import { cacheTarget, checkHost, forwardedPath, type CacheTarget, type CheckedHost } from './request-key.ts';
import { gateRequest, isGateAnswer, type GateAnswer } from './request-gate.ts';
import { createPassThrough, sendAnswer, sendBusy, type Answer } from './pass-through.ts';
import { createSitePool } from './site-pool.ts';
import { createProbes } from './probes.ts';
import { pagesToRewarm, rewarm } from './rewarm.ts';
import type { PushReceiver } from '../push/push-receiver.ts';
import type { SubscriptionRelay } from './subscription-relay.ts';
import type { TlsGate } from './tls-gate.ts';

export interface FrontOptions {
  /** Origin of the internal Astro server, e.g. http://127.0.0.1:40123 */
  upstream: string;
  /** How long stored bytes are served before one revalidation is started; 0 stores nothing. */
  freshMs: number;
  /** How long old bytes may stand in for a page whose re-render fails. */
  maxStaleMs: number;
  maxEntries: number;
  maxBytes: number;
  now?: () => number;
  log?: (line: string) => void;
  /** The push route, answered before anything is rendered. */
  push?: PushReceiver;
  /** E-mail subscriptions' routes (GET, HEAD and POST), answered by their own thread. */
  subscriptions?: SubscriptionRelay;
  /** The on-demand TLS gate, answered from memory before anything is rendered. */
  tlsGate?: TlsGate;
  /**
   * The main host as visitors reach it (SITE_PUBLIC_URL's host[:port]). When set, any Host that
   * is not a public page's custom domain is answered as this one: one render and one entry for
   * the main host, whatever names clients send (absolute links then no longer depend on them).
   */
  publicHost?: string;
  /** Told of each render of the site (cached or passed through), for metrics. */
  onRender?: (seconds: number, status: number | 'error') => void;
  /** Debug lines (each re-render of recent pages after new data). */
  debug?: (line: string) => void;
}

/** How requests were answered: plain numbers, so counting costs nothing on the hot path. */
export interface FrontCounts {
  /** From stored bytes that were fresh and current. */
  hit: number;
  /** From stored bytes past their freshness or data version, while one re-render runs. */
  stale: number;
  /** Rendered for this request (or waited for a render in progress). */
  miss: number;
  /** Not cacheable: passed through to the site. */
  pass: number;
}

export interface FrontHandler {
  handle(request: IncomingMessage, response: ServerResponse): void;
  readonly counts: FrontCounts;
  close(): Promise<void>;
}

/** Follows the data version the site announces (see site/data/data-version.ts). */
function followDataVersion(onChange: (version: string) => void): { current(): string | null; close(): void } {
  let version: string | null = null;
  const stop = listenOn(DATA_VERSION_CHANNEL, (data) => {
    if (typeof data !== 'string' || data === version) return;
    version = data;
    onChange(data);
  });
  return { current: () => version, close: stop };
}

/** A stored page, with what it was rendered for and when a visitor last asked for it. */
type StoredPage = RenderedPage & {
  path: string;
  host: string;
  /** Coarse clock (epoch ms) of the latest request it answered: written on the hot path, so no clock read there. */
  servedAt: number;
};

interface RenderContext {
  key: string;
  path: string;
  host: string;
  /** An answer that may not be stored (a 404, a 503): handed to the request that asked for it. */
  uncached?: Answer;
}

const MAX_RENDER_BYTES = 8 * 1024 * 1024;
/** Pass-through requests get a few connections of their own, and at most this many wait. */
const PASS_THROUGH_CONNECTIONS = 4;
const PASS_THROUGH_MAX_WAITING = 256;
/**
 * Renders waiting for a connection to the site beyond which a page with nothing stored is
 * answered 503 at once: a render started for a visitor runs on when the visitor leaves (others
 * may share it), so without this, clients that ask for many new addresses and leave would queue
 * renders without bound ahead of everyone else's.
 */
const MAX_QUEUED_RENDERS = 32;
const RENDER_TIMEOUT_MS = 30_000;
/** After new data: pages asked for in the last 5 minutes are re-rendered at once, 64 at most, 2 at a time. */
const REWARM = { windowMs: 5 * 60_000, maxPages: 64, concurrency: 2 } as const;
/** The resolution of `servedAt`. */
const TICK_MS = 1_000;

/** The hot path's look-up options, allocated once rather than per request. */
const FRESH_ONLY = { allowStale: false } as const;

/** The site answers 503 when it has no data it may show: that is never papered over. */
const SITE_UNAVAILABLE = 503;

class RenderFailed extends Error {
  override name = 'RenderFailed';
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(text);
}

export function createFrontHandler(options: FrontOptions): FrontHandler {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const pool = createSitePool(options.upstream, { connections: 16, timeoutMs: RENDER_TIMEOUT_MS, maxBytes: MAX_RENDER_BYTES });
  const passThrough = createPassThrough({
    upstream: options.upstream,
    connections: PASS_THROUGH_CONNECTIONS,
    maxWaiting: PASS_THROUGH_MAX_WAITING,
    maxBytes: MAX_RENDER_BYTES,
    timeoutMs: RENDER_TIMEOUT_MS,
    ...(options.onRender ? { onRender: options.onRender } : {}),
  });
  const probes = createProbes({ maxStaleMs: options.maxStaleMs, now });
  const dataVersion = followDataVersion((version) => void rewarmFor(version));
  // A page made non-public, deleted or moved off its domain: its stored bytes go at once.
  const stopDropping = onHiddenPages((hidden) => {
    for (const [key, page] of cache.entries()) if (dropsStored(page, hidden)) cache.delete(key);
  });
  /** A coarse clock for `servedAt`, so a hit costs a property write, not a clock read. */
  let tick = now();
  const ticker = setInterval(() => (tick = now()), TICK_MS);
  ticker.unref();
  const domains = options.publicHost ? followCustomDomains() : null;
  const publicHost = options.publicHost ? checkHost(options.publicHost) : null;

  /** The Host a request is answered as: its own, or the main host's (see FrontOptions.publicHost). */
  function answeredAs(host: CheckedHost): CheckedHost {
    const known = domains?.current();
    // Until the site has said which domains are its pages', every Host is answered as asked.
    if (!publicHost || !known) return host;
    return known.has(host.name) ? host : publicHost;
  }
  const counts: FrontCounts = { hit: 0, stale: 0, miss: 0, pass: 0 };
  const onRender = options.onRender;
  /** Stored bytes from older data than the site now has are replaced at once, not at their TTL. */
  const isCurrent = (page: StoredPage): boolean => page.dataVersion === null || dataVersion.current() === null || page.dataVersion === dataVersion.current();

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
    return { ...page, path: context.path, host: context.host, servedAt: stale?.servedAt ?? tick };
  }

  const cache = new LRUCache<string, StoredPage, RenderContext>({
    max: Math.max(1, options.maxEntries),
    maxSize: options.maxBytes,
    sizeCalculation: pageSize,
    ttl: options.freshMs,
    ttlResolution: 0,
    perf: { now },
    allowStale: true,
    // The synchronous fresh-only look-up below must not throw stale entries away.
    noDeleteOnStaleGet: true,
    allowStaleOnFetchRejection: true,
    noDeleteOnFetchRejection: true,
    fetchMethod: (_key, stale, { context }) => render(context, stale),
  });

  /** The hot path: every header was worked out when the page was stored. */
  function sendPage(request: IncomingMessage, response: ServerResponse, page: RenderedPage): void {
    const variant = page.variants[negotiateCoding(request.headers['accept-encoding'])];
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, page.bodyHash)) {
      response.writeHead(304, variant.notModifiedHeaders);
      response.end();
      return;
    }
    const age = now() - page.storedAt;
    // Only bytes kept past their freshness (a failing re-render) tell shared caches their age.
    const headers = age > options.freshMs ? { ...variant.headers, age: String(Math.floor(age / 1000)) } : variant.headers;
    response.writeHead(page.status, headers);
    response.end(request.method === 'HEAD' ? undefined : variant.body);
  }

  function fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    // A visitor who went away mid-answer is not an error of the site: nothing to log.
    if (!request.destroyed && !response.destroyed) log(`front server error (${error instanceof Error ? error.message : String(error)})`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    plain(response, 502, 'The status page is temporarily unavailable. Please try again in a moment.\n');
  }

  /** Everything but a fresh hit: stale hits, misses, renders, pass-through. */
  async function handleSlowly(
    request: IncomingMessage,
    response: ServerResponse,
    host: CheckedHost,
    path: string,
    target: CacheTarget | null,
    outdated: boolean,
  ): Promise<void> {
    if (target === null) return pass(request, response, host.host, path);
    if (!outdated && pool.queued() >= MAX_QUEUED_RENDERS && cache.peek(target.key, { allowStale: true }) === undefined) {
      counts.miss += 1;
      return sendBusy(request, response);
    }
    const context: RenderContext = { key: target.key, path: target.path, host: host.host };
    const status: LRUCache.Status<string, StoredPage, RenderContext> = {};
    // An outdated page is served once more while its re-render runs (forceRefresh + allowStale).
    const page = await cache.fetch(target.key, { context, forceRefresh: outdated, status }).catch((error: unknown) => {
      log(`rendering ${target.path} failed (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    });
    if (page) {
      if (status.returnedStale) counts.stale += 1;
      else if (status.fetch === 'hit') counts.hit += 1;
      else counts.miss += 1;
      page.servedAt = tick;
      return sendPage(request, response, page);
    }
    if (context.uncached) {
      counts.miss += 1;
      return sendAnswer(request, response, context.uncached);
    }
    return pass(request, response, host.host, path);
  }

  /** Not kept by the cache: to the site for this visitor alone, with only the query it reads. */
  function pass(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void> {
    counts.pass += 1;
    return passThrough.send(request, response, host, forwardedPath(path));
  }

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

  function sendGateAnswer(request: IncomingMessage, response: ServerResponse, answer: GateAnswer): void {
    response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
    response.end(request.method === 'HEAD' ? undefined : answer.body);
  }

  /** A fresh hit is answered synchronously: no promise, no await on the hot path. */
  function handle(request: IncomingMessage, response: ServerResponse): void {
    // The one POST the site takes (the API's webhook), before the gate that refuses all others.
    if (options.push?.matches(request.url ?? '/')) return options.push.handle(request, response);
    if (options.tlsGate?.matches(request.url ?? '/')) return options.tlsGate.handle(request, response);
    // The subscription forms post too: their routes pass the gate's Host and target checks as a
    // GET would, then go to their own thread, never to the cache or to Astro.
    const subscriptions = options.subscriptions?.matches(request) ? options.subscriptions : null;
    const gated = gateRequest(subscriptions ? { method: 'GET', url: request.url, headers: request.headers, rawHeaders: request.rawHeaders } : request);
    if (isGateAnswer(gated)) return sendGateAnswer(request, response, gated);
    // Health and readiness on this thread, whatever the state of the render path.
    const probe = probes.answer(gated.path);
    if (probe) return sendGateAnswer(request, response, probe);
    const checked = checkHost(gated.host);
    if (checked === null) return plain(response, 400, 'Bad Request: the Host header must be a host name with an optional port.\n');
    const host = answeredAs(checked);
    if (subscriptions) {
      subscriptions.handle(request, response, host.host, gated.path).catch((error: unknown) => fail(request, response, error));
      return;
    }
    const target = options.freshMs > 0 ? cacheTarget(gated.path, host) : null;
    const fresh = target === null ? undefined : cache.get(target.key, FRESH_ONLY);
    if (fresh && isCurrent(fresh)) {
      counts.hit += 1;
      fresh.servedAt = tick;
      return sendPage(request, response, fresh);
    }
    handleSlowly(request, response, host, gated.path, target, fresh !== undefined).catch((error: unknown) => fail(request, response, error));
  }

  return {
    handle,
    counts,
    close: async () => {
      dataVersion.close();
      stopDropping();
      clearInterval(ticker);
      rewarmGeneration += 1;
      domains?.close();
      probes.close();
      options.tlsGate?.close();
      // Called once no visitor is waiting: background re-renders are abandoned, not awaited.
      await Promise.all([pool.close(), passThrough.close()]);
    },
  };
}
