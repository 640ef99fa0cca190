/**
 * What the site answers before any routing, caching or rendering: the request line and headers
 * that have one plain answer whatever the path. Status pages are read-only documents, so every
 * method but GET, HEAD and OPTIONS is refused here with 405, never passed on to the renderer
 * (Astro turns TRACE into a 500 with a stack trace, OPTIONS into the whole page, and other
 * methods into its cross-site form message).
 */
import type { IncomingMessage } from 'node:http';
import { pathLength } from './request-key.ts';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * The longest path (query string excluded) the site answers, 414 above: no page's address comes
 * near it, and it bounds every cache key. The query string is never part of a key nor sent to
 * the renderer (request-key.ts), so its length costs nothing; Node's header size limit bounds it.
 */
export const MAX_PATH_LENGTH = 2048;

export interface GateAnswer {
  status: number;
  headers: Record<string, string>;
  /** One line at most. */
  body: string;
}

/** The request as the rest of the pipeline reads it: origin-form path and the Host to use. */
export interface GatedRequest {
  path: string;
  host: string | undefined;
}

const BASE_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function answer(status: number, body: string, extra: Record<string, string> = {}): GateAnswer {
  return { status, headers: { ...BASE_HEADERS, ...extra }, body };
}

function hostHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index];
    // The length first: no lower-cased copy of every header name on every request.
    if (name?.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/**
 * RFC 9112 3.2.2: a request in absolute-form names its host in the URI, which wins over Host.
 * Only http(s) URIs are accepted; anything else is not a request for this site.
 */
function fromAbsoluteForm(url: string): GatedRequest | null {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) return null;
    return { path: `${parsed.pathname}${parsed.search}`, host: parsed.host };
  } catch {
    return null;
  }
}

/** Either the one answer this request gets, or the path and Host the pipeline goes on with. */
export function gateRequest(request: Pick<IncomingMessage, 'method' | 'url' | 'headers' | 'rawHeaders'>): GateAnswer | GatedRequest {
  const url = request.url ?? '/';
  const method = request.method ?? 'GET';
  // RFC 9110 7.2: more than one Host is a bad request, not a choice between two sites.
  if (hostHeaderCount(request.rawHeaders) > 1) return answer(400, 'Bad Request: more than one Host header.\n');
  if (method === 'OPTIONS') return { status: 204, headers: { allow: ALLOWED_METHODS, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, body: '' };
  if (method !== 'GET' && method !== 'HEAD') return answer(405, 'Method Not Allowed: this site only serves GET and HEAD.\n', { allow: ALLOWED_METHODS });
  const gated = url.startsWith('/') ? { path: url, host: request.headers.host } : fromAbsoluteForm(url);
  if (gated === null) return answer(400, 'Bad Request: the request target must be a path or an http(s) URL.\n');
  if (pathLength(gated.path) > MAX_PATH_LENGTH) return answer(414, `URI Too Long: paths on this site are at most ${MAX_PATH_LENGTH} characters.\n`);
  return gated;
}


export function isGateAnswer(value: GateAnswer | GatedRequest): value is GateAnswer {
  return 'status' in value;
}
