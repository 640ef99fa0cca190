/**
 * The public face of the site: answers GET/HEAD from rendered bytes kept in memory and passes
 * everything else to the Astro server on an internal loopback port. A cached page is served
 * while one revalidation per page runs (stale-while-revalidate); a failed revalidation keeps
 * the old bytes for a bounded time (stale-if-error). Each request is a few small steps: check
 * the Host, key, look up, negotiate, write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createBrotliCompress, createGzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { Pool } from 'undici';
import { matchesIfNoneMatch, negotiateCoding, type Coding } from './encoding.ts';
import { forwardableHeaders } from './hop-by-hop.ts';
import { COMPRESSIBLE, encode, isStorable, pageSize, renderedPage, replayableHeaders, type RenderedPage } from './rendered-page.ts';
import { DATA_VERSION_CHANNEL } from '../../site/data/data-version.ts';
import { listenOn } from '../../site/data/thread-channel.ts';
import { followCustomDomains } from '../../site/data/custom-domains.ts';
import { cacheTarget, checkHost, type CacheTarget, type CheckedHost } from './request-key.ts';
import { gateRequest, isGateAnswer, type GateAnswer } from './request-gate.ts';
import type { PushReceiver } from '../push/push-receiver.ts';
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
function followDataVersion(): { current(): string | null; close(): void } {
  let version: string | null = null;
  const stop = listenOn(DATA_VERSION_CHANNEL, (data) => {
    if (typeof data === 'string') version = data;
  });
  return { current: () => version, close: stop };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface RenderContext {
  key: string;
  path: string;
  host: string;
  /** An answer that may not be stored (a 404, a 503): handed to the request that asked for it. */
  uncached?: Answer;
}

const MAX_RENDER_BYTES = 8 * 1024 * 1024;

/** The hot path's look-up options, allocated once rather than per request. */
const FRESH_ONLY = { allowStale: false } as const;

/** The site answers 503 when it has no data it may show: that is never papered over. */
const SITE_UNAVAILABLE = 503;

class RenderFailed extends Error {
  override name = 'RenderFailed';
}

/** The coding an answer goes out in: what the client prefers, for content worth compressing. */
function codingFor(request: IncomingMessage, contentType: string | undefined): Coding {
  return COMPRESSIBLE.test(contentType ?? '') ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(text);
}

export function createFrontHandler(options: FrontOptions): FrontHandler {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const pool = new Pool(options.upstream, { connections: 16, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const dataVersion = followDataVersion();
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
  const isCurrent = (page: RenderedPage): boolean => page.dataVersion === null || dataVersion.current() === null || page.dataVersion === dataVersion.current();

  async function render(context: RenderContext, stale: RenderedPage | undefined): Promise<RenderedPage | undefined> {
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

  async function renderOnce(context: RenderContext, stale: RenderedPage | undefined): Promise<RenderedPage | undefined> {
    const upstream = await pool.request({
      method: 'GET',
      path: context.path,
      // Only what the site renders by: the Host. No cookies, no client headers in shared bytes.
      headers: { host: context.host, accept: 'text/html', 'accept-encoding': 'identity', 'user-agent': 'porchlight-front-cache' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of upstream.body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > MAX_RENDER_BYTES) throw new RenderFailed(`page ${context.path} is larger than ${MAX_RENDER_BYTES} bytes`);
      chunks.push(buffer);
    }
    const body = Buffer.concat(chunks);
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
    return renderedPage(status, upstream.headers, body, now);
  }

  const cache = new LRUCache<string, RenderedPage, RenderContext>({
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

  async function sendUncached(request: IncomingMessage, response: ServerResponse, answer: Answer): Promise<void> {
    const coding = codingFor(request, answer.headers['content-type']);
    const body = await encode(answer.body, coding);
    const headers: Record<string, string> = { ...answer.headers, vary: 'Accept-Encoding', 'content-length': String(body.length) };
    if (coding !== 'identity') headers['content-encoding'] = coding;
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** A GET or HEAD the cache does not keep (caching off, an overlong URL) goes to the site as it came. */
  async function passThrough(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void> {
    counts.pass += 1;
    const started = performance.now();
    const upstream = await pool
      .request({
        method: request.method === 'HEAD' ? 'HEAD' : 'GET',
        path,
        headers: { ...forwardableHeaders(request.headers), host, 'accept-encoding': 'identity' },
      })
      .catch((error: unknown) => {
        onRender?.((performance.now() - started) / 1000, 'error');
        throw error;
      });
    onRender?.((performance.now() - started) / 1000, upstream.statusCode);
    const headers = replayableHeaders(upstream.headers);
    const coding = codingFor(request, headers['content-type']);
    if (coding !== 'identity') {
      headers['content-encoding'] = coding;
      headers.vary = 'Accept-Encoding';
    } else if (upstream.headers['content-length']) {
      headers['content-length'] = String(upstream.headers['content-length']);
    }
    response.writeHead(upstream.statusCode, headers);
    if (coding === 'identity') await pipeline(upstream.body, response);
    else await pipeline(upstream.body, coding === 'br' ? createBrotliCompress() : createGzip(), response);
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
    if (target === null) return passThrough(request, response, host.host, path);
    const context: RenderContext = { key: target.key, path: target.path, host: host.host };
    const status: LRUCache.Status<string, RenderedPage, RenderContext> = {};
    // An outdated page is served once more while its re-render runs (forceRefresh + allowStale).
    const page = await cache.fetch(target.key, { context, forceRefresh: outdated, status }).catch((error: unknown) => {
      log(`rendering ${target.path} failed (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    });
    if (page) {
      if (status.returnedStale) counts.stale += 1;
      else if (status.fetch === 'hit') counts.hit += 1;
      else counts.miss += 1;
      return sendPage(request, response, page);
    }
    if (context.uncached) {
      counts.miss += 1;
      return sendUncached(request, response, context.uncached);
    }
    return passThrough(request, response, host.host, path);
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
    const gated = gateRequest(request);
    if (isGateAnswer(gated)) return sendGateAnswer(request, response, gated);
    const checked = checkHost(gated.host);
    if (checked === null) return plain(response, 400, 'Bad Request: the Host header must be a host name with an optional port.\n');
    const host = answeredAs(checked);
    const target = options.freshMs > 0 ? cacheTarget(gated.path, host) : null;
    const fresh = target === null ? undefined : cache.get(target.key, FRESH_ONLY);
    if (fresh && isCurrent(fresh)) {
      counts.hit += 1;
      return sendPage(request, response, fresh);
    }
    handleSlowly(request, response, host, gated.path, target, fresh !== undefined).catch((error: unknown) => fail(request, response, error));
  }

  return {
    handle,
    counts,
    close: async () => {
      dataVersion.close();
      domains?.close();
      options.tlsGate?.close();
      // Called once no visitor is waiting: background re-renders are abandoned, not awaited.
      await pool.destroy();
    },
  };
}
