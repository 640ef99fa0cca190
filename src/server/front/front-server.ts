/**
 * The public face of the site: answers GET/HEAD from rendered bytes kept in memory and passes
 * everything else to the Astro server on an internal loopback port. A request goes through a few
 * small stages, in this order (handle, below): the routes answered before any gate (push, TLS
 * gate), the gate (method, target), the probes, the Host (main-host.ts), the subscription relay,
 * a fresh hit (send-page.ts), and else the slow path: the page cache (page-cache.ts: renders,
 * stale-while-revalidate, stale-if-error, rewarm after new data) or, for what it does not keep,
 * the pass-through (pass-through.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DATA_VERSION_CHANNEL } from '../../site/data/data-version.ts';
import { listenOn } from '../../site/data/thread-channel.ts';
import { dropsStored, onHiddenPages } from '../../site/data/hidden-pages.ts';
import { cacheTarget, checkHost, forwardedPath, type CacheTarget, type CheckedHost } from './request-key.ts';
import { gateRequest, isGateAnswer } from './request-gate.ts';
import { createPassThrough, sendAnswer, sendBusy } from './pass-through.ts';
import { createSitePool } from './site-pool.ts';
import { createProbes } from './probes.ts';
import { createPageCache, type RenderContext, type StoredPage } from './page-cache.ts';
import type { LRUCache } from 'lru-cache';
import { sendPage } from './send-page.ts';
import { createMainHost } from './main-host.ts';
import { failRequest, plain, sendGateAnswer } from './front-answers.ts';
import type { PushReceiver } from '../push/push-receiver.ts';
import type { SubscriptionRelay } from './subscription-relay.ts';
import type { TlsGate } from './tls-gate.ts';
import type { PrivateRelay } from './private-relay.ts';
import type { ConsoleHandler } from '../../console/handler.ts';

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
  /** Pages with an audience: their private routes and their viewers' requests, to the site for each visitor alone. */
  private?: PrivateRelay;
  /** The on-demand TLS gate, answered from memory before anything is rendered. */
  tlsGate?: TlsGate;
  /** The operators' console (src/console/): its own answers, never stored or rendered by the site. */
  console?: ConsoleHandler;
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
/** The resolution of `servedAt`. */
const TICK_MS = 1_000;

/** The hot path's look-up options, allocated once rather than per request. */
const FRESH_ONLY = { allowStale: false } as const;

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
  const dataVersion = followDataVersion((version) => void pages.rewarmFor(version));
  // A page made non-public, deleted or moved off its domain: its stored bytes go at once.
  const stopDropping = onHiddenPages((hidden) => {
    for (const [key, page] of pages.cache.entries()) if (dropsStored(page, hidden)) pages.cache.delete(key);
  });
  /** A coarse clock for `servedAt`, so a hit costs a property write, not a clock read. */
  let tick = now();
  const ticker = setInterval(() => (tick = now()), TICK_MS);
  ticker.unref();
  const mainHost = createMainHost(options.publicHost);
  const counts: FrontCounts = { hit: 0, stale: 0, miss: 0, pass: 0 };
  const pages = createPageCache({
    pool,
    freshMs: options.freshMs,
    maxStaleMs: options.maxStaleMs,
    maxEntries: options.maxEntries,
    maxBytes: options.maxBytes,
    now,
    tick: () => tick,
    onRender: options.onRender,
    debug: options.debug,
  });
  const { cache } = pages;
  /** Stored bytes from older data than the site now has are replaced at once, not at their TTL. */
  const isCurrent = (page: StoredPage): boolean => page.dataVersion === null || dataVersion.current() === null || page.dataVersion === dataVersion.current();
  const fail = (request: IncomingMessage, response: ServerResponse, error: unknown) => failRequest(request, response, error, log);

  /** The routes answered before the gate: the one POST the site takes (the API's webhook), the TLS gate, and the console (its own gate). */
  function answerOwnRoute(request: IncomingMessage, response: ServerResponse): boolean {
    if (options.push?.matches(request.url ?? '/')) {
      options.push.handle(request, response);
      return true;
    }
    if (options.tlsGate?.matches(request.url ?? '/')) {
      options.tlsGate.handle(request, response);
      return true;
    }
    if (options.console?.matches(request.url ?? '/')) {
      options.console.handle(request, response).catch((error: unknown) => fail(request, response, error));
      return true;
    }
    return false;
  }

  /**
   * A stored page within its freshness and from current data, answered synchronously ('served');
   * 'outdated' when the one stored is from older data, 'absent' when none is fresh.
   */
  function serveFresh(request: IncomingMessage, response: ServerResponse, target: CacheTarget | null): 'served' | 'outdated' | 'absent' {
    const fresh = target === null ? undefined : cache.get(target.key, FRESH_ONLY);
    if (!fresh) return 'absent';
    if (!isCurrent(fresh)) return 'outdated';
    counts.hit += 1;
    fresh.servedAt = tick;
    sendPage(request, response, fresh, now(), options.freshMs);
    return 'served';
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
      return sendPage(request, response, page, now(), options.freshMs);
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

  /** A fresh hit is answered synchronously: no promise, no await on the hot path. */
  function handle(request: IncomingMessage, response: ServerResponse): void {
    if (answerOwnRoute(request, response)) return;
    // The subscription forms post too: their routes pass the gate's Host and target checks as a
    // GET would, then go to their own thread, never to the cache or to Astro.
    const subscriptions = options.subscriptions?.matches(request) ? options.subscriptions : null;
    // The private routes' sign-in forms post too, to the site for their visitor alone.
    const privateRoute = options.private?.matches(request) ? options.private : null;
    const gated = gateRequest(subscriptions || privateRoute ? { method: 'GET', url: request.url, headers: request.headers, rawHeaders: request.rawHeaders } : request);
    if (isGateAnswer(gated)) return sendGateAnswer(request, response, gated);
    // Health and readiness on this thread, whatever the state of the render path.
    const probe = probes.answer(gated.path);
    if (probe) return sendGateAnswer(request, response, probe);
    const checked = checkHost(gated.host);
    if (checked === null) return plain(response, 400, 'Bad Request: the Host header must be a host name with an optional port.\n');
    const host = mainHost.answeredAs(checked);
    // A Host answered as the main host may be a custom domain added a moment ago: asked about
    // once (the TLS gate's ask, one pages read per 10 s for all unknown names), then answered.
    const asking = host.name === checked.name ? null : (options.tlsGate?.askAbout(checked.name) ?? null);
    if (asking) {
      asking.then(() => {
        if (!response.destroyed) answerAs(request, response, mainHost.answeredAs(checked), gated.path, subscriptions, privateRoute);
      }, () => undefined);
      return;
    }
    answerAs(request, response, host, gated.path, subscriptions, privateRoute);
  }

  function answerAs(request: IncomingMessage, response: ServerResponse, host: CheckedHost, path: string, subscriptions: SubscriptionRelay | null, privateRoute: PrivateRelay | null): void {
    if (subscriptions) {
      subscriptions.handle(request, response, host.host, path).catch((error: unknown) => fail(request, response, error));
      return;
    }
    // A private route, or a gated page's request that may be its audience's: never the cache.
    const relay = privateRoute ?? (options.private?.claims(request, path, host.name) ? options.private : null);
    if (relay) {
      counts.pass += 1;
      relay.handle(request, response, host.host, path).catch((error: unknown) => fail(request, response, error));
      return;
    }
    const target = options.freshMs > 0 ? cacheTarget(path, host) : null;
    const fresh = serveFresh(request, response, target);
    if (fresh === 'served') return;
    handleSlowly(request, response, host, path, target, fresh === 'outdated').catch((error: unknown) => fail(request, response, error));
  }

  return {
    handle,
    counts,
    close: async () => {
      dataVersion.close();
      stopDropping();
      clearInterval(ticker);
      pages.close();
      mainHost.close();
      probes.close();
      options.tlsGate?.close();
      await options.private?.close();
      // Called once no visitor is waiting: background re-renders are abandoned, not awaited.
      await Promise.all([pool.close(), passThrough.close()]);
    },
  };
}
