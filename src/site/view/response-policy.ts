/**
 * Caching and CSP bookkeeping a route applies to its response. Public status pages may be kept
 * by shared caches for the data's freshness and no longer: `must-revalidate` forbids serving them
 * stale (RFC 9111 4.2.4), so a page made non-public or deleted leaves a CDN within `max-age` even
 * while the origin fails (hiding wins over availability); error answers and anything not public
 * are never kept.
 */
import { sha256Source } from '../security/csp.ts';
import { ownerStyleText } from './branding.ts';
import type { BrandingView } from './types.ts';

export const NO_STORE = 'no-store';

export function publicCacheControl(config: { freshSeconds: number; maxStaleSeconds: number }): string {
  return `public, max-age=${config.freshSeconds}, must-revalidate`;
}

const SERVER_PUBLIC = /^public, max-age=(\d+), must-revalidate$/;

/**
 * The same public answer kept as an object in a bucket (`npm run export -- --publish`): the bucket
 * is the origin a CDN falls back on when every server is down, so there it may be served stale
 * while revalidating and while the bucket fails (RFC 5861). Hiding still wins: a hidden page's
 * objects are deleted, and a CDN that revalidates gets a 403/404, an answer rather than an error,
 * which replaces its copy. Any other value (no-store, immutable assets) is kept as the server sends it.
 */
export function bucketCacheControl(serverValue: string, maxStaleSeconds: number): string {
  const fresh = SERVER_PUBLIC.exec(serverValue)?.[1];
  if (fresh === undefined) return serverValue;
  return `public, max-age=${fresh}, stale-while-revalidate=${Number(fresh) * 2}, stale-if-error=${maxStaleSeconds}`;
}

/** Registers the owner style's hash for the Content-Security-Policy the middleware writes. */
export function allowOwnerStyle(locals: App.Locals, branding: BrandingView | null): void {
  const text = ownerStyleText(branding);
  if (text) locals.cspStyles.push(sha256Source(text));
}

/**
 * A page answered in the status page's branding, found or not: a thing that is on this page is
 * public and cacheable; one that is not (another page's incident or monitor) is a 404 kept by nobody.
 */
export function answerInPage(
  response: { status?: number; readonly headers: Headers },
  config: { freshSeconds: number; maxStaleSeconds: number },
  found: boolean,
): void {
  if (found) {
    response.headers.set('cache-control', publicCacheControl(config));
  } else {
    response.status = 404;
    response.headers.set('cache-control', NO_STORE);
  }
}
