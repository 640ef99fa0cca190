/**
 * Requests from the serving thread to the site's thread, over the site's side's one HTTP client
 * (api/http-dispatcher.ts: node:http keep-alive connections), each answer read whole, bounded in
 * size and in time. node:http rather than undici: the serving thread already carries node:http
 * for its own server, and a second HTTP client in it cost about 10 MiB of resident memory
 * (bench/memory.ts). The bound on connections is the Agent's; requests beyond it wait in the
 * Agent's queue, and `queued()` says how many do.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { createHttpDispatcher, HttpDispatchError } from '../../api/http-dispatcher.ts';

export interface SiteAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SiteRequest {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  /** Aborts the request at any point (the visitor left). */
  signal?: AbortSignal;
  /** Named in the error when the answer is larger than the pool's bound. */
  what?: string;
}

export interface SitePool {
  request(request: SiteRequest): Promise<SiteAnswer>;
  /** Requests waiting for a free connection now. */
  queued(): number;
  close(): Promise<void>;
}

export interface SitePoolOptions {
  connections: number;
  /** Longest wait for a whole answer, connection included. */
  timeoutMs: number;
  /** Largest answer body read; a larger one fails with AnswerTooLargeError. */
  maxBytes: number;
}

export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
}

export class SiteTimeoutError extends Error {
  override name = 'SiteTimeoutError';
}

export function createSitePool(origin: string, options: SitePoolOptions): SitePool {
  // Each phase may take the whole time; the time of the whole answer is bounded below.
  const client = createHttpDispatcher({
    connectTimeoutMs: options.timeoutMs,
    headersTimeoutMs: options.timeoutMs,
    bodyTimeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxBytes,
    maxConnections: options.connections,
  });
  let pending = 0;

  async function request(outgoing: SiteRequest): Promise<SiteAnswer> {
    pending += 1;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
    try {
      const signal = outgoing.signal ? AbortSignal.any([outgoing.signal, timeout.signal]) : timeout.signal;
      const answer = await client.request({ origin, path: outgoing.path, method: outgoing.method, headers: outgoing.headers, body: outgoing.body ?? null, signal });
      return { statusCode: answer.statusCode || 502, headers: answer.headers, body: await answer.body.bytes() };
    } catch (error) {
      throw failureOf(error, outgoing, timeout.signal.aborted);
    } finally {
      clearTimeout(timer);
      pending -= 1;
    }
  }

  function failureOf(error: unknown, outgoing: SiteRequest, timedOut: boolean): unknown {
    if (error instanceof HttpDispatchError && error.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return new AnswerTooLargeError(`${outgoing.what ?? `the answer for ${outgoing.path.slice(0, 100)}`} is larger than ${options.maxBytes} bytes`);
    }
    if (timedOut || (error instanceof HttpDispatchError && error.code.endsWith('_TIMEOUT'))) {
      return new SiteTimeoutError(`the site did not answer ${outgoing.path.slice(0, 100)} within ${options.timeoutMs} ms`);
    }
    return error;
  }

  return {
    request,
    queued: () => Math.max(0, pending - options.connections),
    close: () => client.close(),
  };
}
