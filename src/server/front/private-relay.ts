/**
 * Pages with an audience (docs/private-pages.md), on the front: the private routes under
 * `/_porchlight/private/` (sign-in, invitations, feed addresses; GET, HEAD and POST) and the
 * requests for a gated page's paths that may come from its audience (a viewer's cookie, an
 * address in the page's ranges, or any request for a *sign-in shown* page) go to the site for
 * their visitor alone, with the client's address in an internal header; nothing of them is ever
 * stored or shared. Any other request, a stranger's for an unlisted page included, takes the
 * usual path unchanged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyUpTo } from '../../subscribers/form-body.ts';
import { addressMatcher } from '../../audiences/cidr.ts';
import type { ClientAddressOf } from '../../audiences/client-address.ts';
import { cookieValue, firstSegment, onGatedRoutes, PRIVATE_CLIENT_HEADER, PRIVATE_FORM_TYPE, PRIVATE_PREFIX, type GatedRoute } from '../../audiences/gated-routes.ts';
import { forwardedPath } from './request-key.ts';
import { sendAnswer, sendBusy } from './pass-through.ts';
import { replayableHeaders } from './rendered-page.ts';
import { followCustomDomains } from '../../site/data/custom-domains.ts';
import { createSitePool } from './site-pool.ts';

const MAX_BODY_BYTES = 16 * 1024;
/**
 * Requests at most waiting for the site here at once; more get 503 at once. The private routes
 * (and a sign-in-shown page) are open to anyone: a flood of them must queue no further.
 */
const MAX_WAITING = 64;
const METHODS = new Set(['GET', 'HEAD', 'POST']);
/** What the site's private routes read of a request; everything else stays behind. */
const PASSED_HEADERS = ['cookie', 'content-type', 'accept', 'accept-language', 'origin', 'sec-fetch-site', 'referer'] as const;

export interface PrivateRelay {
  /** A request for the private routes (sign-in, invitations, feeds). */
  matches(request: IncomingMessage): boolean;
  /** A request for a gated page that may come from its audience (see above). */
  claims(request: IncomingMessage, path: string, hostName: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void>;
  close(): Promise<void>;
}

interface KnownRoute {
  route: GatedRoute;
  inRange: (address: string) => boolean;
}

export function createPrivateRelay(options: { upstream: string; clientAddress: ClientAddressOf; cookieNames: readonly string[] }): PrivateRelay {
  const pool = createSitePool(options.upstream, { connections: 4, timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024 });
  let routes = new Map<string, KnownRoute>();
  const stop = onGatedRoutes((announced) => {
    routes = new Map(announced.map((route) => [route.slug, { route, inRange: addressMatcher(route.cidrs) }]));
  });
  const domains = followCustomDomains();
  let waiting = 0;
  const addressOf = (request: IncomingMessage) => options.clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for']);

  return {
    matches: (request) => METHODS.has(request.method ?? '') && (request.url ?? '').startsWith(PRIVATE_PREFIX),
    claims(request, path, hostName) {
      // A gated page lives on the main host only: on a public page's domain its slug is that page's path.
      if (routes.size === 0 || domains.current()?.has(hostName)) return false;
      const known = routes.get(firstSegment(path));
      if (!known) return false;
      if (known.route.mode === 'sign-in-shown') return true;
      const cookie = request.headers.cookie;
      if (options.cookieNames.some((name) => cookieValue(cookie, name) !== null)) return true;
      return known.route.cidrs.length > 0 && known.inRange(addressOf(request));
    },
    async handle(request, response, host, path) {
      if (waiting >= MAX_WAITING) return sendBusy(request, response);
      waiting += 1;
      try {
        await relay(request, response, host, path);
      } finally {
        waiting -= 1;
      }
    },
    close: async () => {
      stop();
      domains.close();
      await pool.close();
    },
  };

  async function relay(request: IncomingMessage, response: ServerResponse, host: string, path: string): Promise<void> {
    const method = request.method === 'POST' ? 'POST' : 'GET';
    const body = method === 'POST' ? await readBodyUpTo(request, MAX_BODY_BYTES) : null;
    if (method === 'POST' && body === null) {
      response.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      response.end('Payload Too Large\n');
      return;
    }
    const headers: Record<string, string> = { host, 'accept-encoding': 'identity', [PRIVATE_CLIENT_HEADER]: addressOf(request) };
    for (const name of PASSED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    // A form's body is sent on as the site's own type: the site checks its origin and token itself.
    if (method === 'POST') headers['content-type'] = /^application\/x-www-form-urlencoded\b/i.test(headers['content-type'] ?? '') ? PRIVATE_FORM_TYPE : 'application/octet-stream';
    // A gated page's path reaches the site as the cache's would (no query); the private routes keep theirs (OpenID Connect's callback).
    const target = path.startsWith(PRIVATE_PREFIX) ? path : forwardedPath(path);
    const upstream = await pool.request({ method, path: target, headers, ...(body !== null && { body }) });
    // As the pass-through sends (same codings, same headers), so a refused viewer's 404 is a stranger's 404.
    const headers_ = replayableHeaders(upstream.headers);
    // The site sets one cookie at most per answer (the viewer's session).
    const cookie = upstream.headers['set-cookie'];
    const setCookie = Array.isArray(cookie) ? cookie[0] : cookie;
    if (setCookie) headers_['set-cookie'] = setCookie;
    await sendAnswer(request, response, { status: upstream.statusCode, headers: headers_, body: upstream.body });
  }
}
