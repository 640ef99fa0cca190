/**
 * Requests from the serving thread to the site's thread, over node:http keep-alive connections,
 * each answer read whole and bounded. node:http rather than undici: the serving thread already
 * carries node:http for its own server, and a second HTTP client in it cost about 10 MiB of
 * resident memory (bench/memory.ts). The bound on connections is the Agent's; requests beyond it
 * wait in the Agent's queue, and `queued()` says how many do.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import http from '../node-http.ts';

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
  const { hostname, port } = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  let pending = 0;

  async function request(outgoing: SiteRequest): Promise<SiteAnswer> {
    pending += 1;
    try {
      return await answerOf(outgoing);
    } finally {
      pending -= 1;
    }
  }

  function answerOf(outgoing: SiteRequest): Promise<SiteAnswer> {
    return new Promise<SiteAnswer>((resolve, reject) => {
      const clientRequest = http.request({
        agent,
        hostname,
        port,
        method: outgoing.method,
        path: outgoing.path,
        headers: outgoing.headers,
        ...(outgoing.signal ? { signal: outgoing.signal } : {}),
      });
      // Settled before the request is destroyed, so the error is this one, not the socket's.
      // Destroyed without the error: when the whole answer came in one chunk, the socket is
      // already back in the agent's pool with no error listener, and would throw it.
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        reject(error);
        clientRequest.destroy();
      };
      const timer = setTimeout(() => fail(new SiteTimeoutError(`the site did not answer ${outgoing.path.slice(0, 100)} within ${options.timeoutMs} ms`)), options.timeoutMs);
      clientRequest.once('close', () => clearTimeout(timer));
      // `on`, not `once`: a destroyed request or response may emit more than one error, and an
      // error without a listener would end the process.
      clientRequest.on('error', reject);
      clientRequest.once('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (failed) return;
          size += chunk.length;
          if (size > options.maxBytes) {
            fail(new AnswerTooLargeError(`${outgoing.what ?? `the answer for ${outgoing.path.slice(0, 100)}`} is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.once('end', () => resolve({ statusCode: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      clientRequest.end(outgoing.body);
    });
  }

  return {
    request,
    queued: () => Math.max(0, pending - options.connections),
    close: async () => agent.destroy(),
  };
}
