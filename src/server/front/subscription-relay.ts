/**
 * Hands the subscription routes (see subscribers/paths.ts) to the subscriptions thread's internal
 * port, with the Host the request is answered as and the client's address (for the rate limits;
 * forwarded headers are never trusted) and the viewer cookie of a page with an audience. Bodies
 * are bounded; nothing is cached.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyUpTo } from '../../subscribers/form-body.ts';
import { SUBSCRIPTION_METHODS, SUBSCRIPTION_PATH } from '../../subscribers/paths.ts';
import { createSitePool } from './site-pool.ts';
import { cookieValue, viewerCookieName } from '../../audiences/gated-routes.ts';

/** The viewer's session cookie, and nothing else of the Cookie header: a page with an audience is subscribed to by its viewers only. */
function viewerCookie(header: string | undefined): string | null {
  const parts = [viewerCookieName(true), viewerCookieName(false)].flatMap((name) => {
    const value = cookieValue(header, name);
    return value === null ? [] : [`${name}=${value}`];
  });
  return parts.length > 0 ? parts.join('; ') : null;
}

const MAX_BODY_BYTES = 16 * 1024;

export interface SubscriptionRelay {
  matches(request: IncomingMessage): boolean;
  handle(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void>;
  close(): Promise<void>;
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(text);
}

export function createSubscriptionRelay(origin: string): SubscriptionRelay {
  const pool = createSitePool(origin, { connections: 8, timeoutMs: 15_000, maxBytes: 1024 * 1024 });
  return {
    matches: (request) => SUBSCRIPTION_METHODS.has(request.method ?? '') && SUBSCRIPTION_PATH.test(request.url ?? ''),
    async handle(request, response, host, path) {
      const method = request.method === 'POST' ? 'POST' : request.method === 'HEAD' ? 'HEAD' : 'GET';
      const body = method === 'POST' ? await readBodyUpTo(request, MAX_BODY_BYTES) : null;
      if (method === 'POST' && body === null) return plain(response, 413, 'Payload Too Large\n');
      const cookie = viewerCookie(request.headers.cookie);
      const upstream = await pool.request({
        method,
        path,
        headers: {
          host,
          'x-porchlight-client': request.socket.remoteAddress ?? 'unknown',
          ...(request.headers['content-type'] && { 'content-type': request.headers['content-type'] }),
          // `porchlight subscribe` asks for JSON (routes.ts answers it so); browsers get the HTML page.
          ...(request.headers.accept && { accept: request.headers.accept }),
          ...(cookie !== null && { cookie }),
        },
        ...(body !== null && { body }),
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(upstream.headers)) if (typeof value === 'string') headers[name] = value;
      response.writeHead(upstream.statusCode, headers);
      response.end(method === 'HEAD' ? undefined : upstream.body);
    },
    close: () => pool.close(),
  };
}
