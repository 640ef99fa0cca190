/**
 * The requests the page cache does not keep (caching off, the old `?month=` history address),
 * sent to the site for this visitor alone. The upstream request belongs to the visitor: it is
 * aborted when the visitor leaves, at any point. The site's answer is read whole (bounded) before
 * the visitor gets it, so a slow reader holds a buffer, never a connection to the site's thread.
 * A pool of its own and a bound on waiting requests keep pass-through traffic, whatever its
 * volume, from taking the connections the page cache renders with.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { negotiateCoding, type Coding } from './encoding.ts';
import { forwardableHeaders } from './hop-by-hop.ts';
import { COMPRESSIBLE, encode, replayableHeaders } from './rendered-page.ts';
import { createSitePool } from './site-pool.ts';

/** One answer of the site, read whole, ready to be sent to a visitor. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The coding an answer goes out in: what the client prefers, for content worth compressing. */
function codingFor(request: IncomingMessage, contentType: string | undefined): Coding {
  return COMPRESSIBLE.test(contentType ?? '') ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
}

/** Sends an answer that is not stored, compressed for this client; HEAD gets the headers only. */
export async function sendAnswer(request: IncomingMessage, response: ServerResponse, answer: Answer): Promise<void> {
  const coding = codingFor(request, answer.headers['content-type']);
  const body = await encode(answer.body, coding);
  // The visitor may have left while the body was compressed.
  if (response.destroyed) return;
  const headers: Record<string, string> = { ...answer.headers, vary: 'Accept-Encoding', 'content-length': String(body.length) };
  if (coding !== 'identity') headers['content-encoding'] = coding;
  response.writeHead(answer.status, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
}

export interface PassThroughOptions {
  /** Origin of the site's internal server. */
  upstream: string;
  /** Connections to the site for pass-through requests (a pool apart from the page cache's). */
  connections: number;
  /** Requests at most waiting for the site at once; more are answered 503 at once. */
  maxWaiting: number;
  maxBytes: number;
  /** Longest wait for the site's answer. */
  timeoutMs: number;
  /** Told of each render, for metrics. */
  onRender?: (seconds: number, status: number | 'error') => void;
}

export interface PassThrough {
  /** Answers `request` with the site's answer for `path` (its GET, whatever the method). */
  send(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void>;
  /** Requests waiting for the site now. */
  waiting(): number;
  close(): Promise<void>;
}

const BUSY_BODY = 'The status page is busy. Please try again in a moment.\n';

/** Too many requests already wait for the site: a plain 503 at once, to try again in a second. */
export function sendBusy(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '1', 'x-content-type-options': 'nosniff' });
  response.end(request.method === 'HEAD' ? undefined : BUSY_BODY);
}

/** The site was asked on behalf of a visitor who is gone: nothing went wrong. */
function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

export function createPassThrough(options: PassThroughOptions): PassThrough {
  const pool = createSitePool(options.upstream, { connections: options.connections, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes });
  let waiting = 0;

  async function fetchAnswer(request: IncomingMessage, host: string, path: string, signal: AbortSignal): Promise<Answer> {
    const started = performance.now();
    try {
      // Always a GET: a HEAD is then answered with the same headers, content-length included.
      const upstream = await pool.request({ method: 'GET', path, signal, headers: { ...forwardableHeaders(request.headers), host, 'accept-encoding': 'identity' } });
      options.onRender?.((performance.now() - started) / 1000, upstream.statusCode);
      return { status: upstream.statusCode, headers: replayableHeaders(upstream.headers), body: upstream.body };
    } catch (error) {
      if (!isAbort(error, signal)) options.onRender?.((performance.now() - started) / 1000, 'error');
      throw error;
    }
  }

  async function send(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void> {
    if (response.destroyed) return;
    if (waiting >= options.maxWaiting) return sendBusy(request, response);
    const controller = new AbortController();
    // 'close' comes when the visitor leaves, and also once the answer is written: aborting a
    // finished request is a no-op, so one listener covers every path.
    const leave = () => controller.abort();
    response.once('close', leave);
    waiting += 1;
    let answer: Answer;
    try {
      answer = await fetchAnswer(request, host, path, controller.signal);
    } catch (error) {
      if (isAbort(error, controller.signal)) return;
      throw error;
    } finally {
      waiting -= 1;
      response.off('close', leave);
    }
    await sendAnswer(request, response, answer);
  }

  return { send, waiting: () => waiting, close: () => pool.close() };
}
