/**
 * The public face of the site: answers GET/HEAD from rendered bytes kept in memory and passes
 * everything else to the Astro server on an internal loopback port. A cached page is served
 * while one revalidation per page runs (stale-while-revalidate); a failed revalidation keeps
 * the old bytes (stale-if-error). Each request is a few small steps: key, look up, negotiate, write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createBrotliCompress, createGzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { Pool } from 'undici';
import { matchesIfNoneMatch, negotiateCoding } from './encoding.ts';
import { encode, isStorable, pageSize, renderedPage, replayableHeaders, type RenderedPage } from './rendered-page.ts';
import { cacheTarget } from './request-key.ts';

export interface FrontOptions {
  /** Origin of the internal Astro server, e.g. http://127.0.0.1:40123 */
  upstream: string;
  /** How long stored bytes are served before one revalidation is started; 0 stores nothing. */
  freshMs: number;
  maxEntries: number;
  maxBytes: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface FrontHandler {
  handle(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

interface RenderContext {
  key: string;
  path: string;
  host: string;
  /** An answer that may not be stored (a 404, a 503): handed to the request that asked for it. */
  uncached?: { status: number; headers: Record<string, string>; body: Buffer };
}

const MAX_RENDER_BYTES = 8 * 1024 * 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function createFrontHandler(options: FrontOptions): FrontHandler {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const pool = new Pool(options.upstream, { connections: 16, headersTimeout: 30_000, bodyTimeout: 30_000 });

  async function render(context: RenderContext, hasStale: boolean): Promise<RenderedPage | undefined> {
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
      if (size > MAX_RENDER_BYTES) throw new Error(`page ${context.path} is larger than ${MAX_RENDER_BYTES} bytes`);
      chunks.push(buffer);
    }
    const body = Buffer.concat(chunks);
    // With old bytes at hand, a failing render keeps them (stale-if-error); without, the error page goes out.
    if (upstream.statusCode >= 500 && hasStale) throw new Error(`rendering ${context.path} answered ${upstream.statusCode}`);
    if (!isStorable(upstream.statusCode, upstream.headers)) {
      context.uncached = { status: upstream.statusCode, headers: replayableHeaders(upstream.headers), body };
      // The page stopped being cacheable (now a 404, a redirect): lru-cache would keep serving the
      // old bytes, so drop them once this fetch has settled.
      if (hasStale) setImmediate(() => cache.delete(context.key));
      return undefined;
    }
    return renderedPage(upstream.statusCode, upstream.headers, body, now());
  }

  const cache = new LRUCache<string, RenderedPage, RenderContext>({
    max: Math.max(1, options.maxEntries),
    maxSize: options.maxBytes,
    sizeCalculation: pageSize,
    ttl: options.freshMs,
    ttlResolution: 0,
    perf: { now },
    allowStale: true,
    allowStaleOnFetchRejection: true,
    noDeleteOnFetchRejection: true,
    fetchMethod: (_key, stale, { context }) => render(context, stale !== undefined),
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
    response.writeHead(page.status, variant.headers);
    response.end(request.method === 'HEAD' ? undefined : variant.body);
  }

  function sendUncached(request: IncomingMessage, response: ServerResponse, answer: NonNullable<RenderContext['uncached']>): void {
    const coding = COMPRESSIBLE.test(answer.headers['content-type'] ?? '') ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
    const body = encode(answer.body, coding);
    const headers: Record<string, string> = { ...answer.headers, vary: 'Accept-Encoding', 'content-length': String(body.length) };
    if (coding !== 'identity') headers['content-encoding'] = coding;
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** Anything the cache does not answer goes to the site as it came, compressed on the way back. */
  async function passThrough(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const upstream = await pool.request({
      method: (request.method ?? 'GET') as 'GET',
      path: request.url ?? '/',
      headers: Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'connection' && name !== 'accept-encoding')),
      body: hasBody ? request : null,
    });
    const headers = replayableHeaders(upstream.headers);
    const coding = COMPRESSIBLE.test(headers['content-type'] ?? '') ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
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

  function fail(response: ServerResponse, error: unknown): void {
    log(`porchlight: front server error (${error instanceof Error ? error.message : String(error)})`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end('The status page is temporarily unavailable. Please try again in a moment.\n');
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = options.freshMs > 0 ? cacheTarget(request) : null;
    if (target === null) return passThrough(request, response);
    const context: RenderContext = { key: target.key, path: target.path, host: request.headers.host ?? '' };
    const page = await cache.fetch(target.key, { context }).catch(() => undefined);
    if (page) return sendPage(request, response, page);
    if (context.uncached) return sendUncached(request, response, context.uncached);
    return passThrough(request, response);
  }

  return {
    handle: (request, response) => {
      handle(request, response).catch((error: unknown) => fail(response, error));
    },
    close: () => pool.close(),
  };
}
