/**
 * Which request paths belong to a page with an audience, told by the site (which has the pages
 * and the settings) to the front server (which must send those requests to the site for their
 * visitor alone, never to its shared cache). Only slugs, modes and address ranges cross: no
 * secret. A request the front does not hand over this way takes today's path unchanged, so a
 * stranger gets exactly what a missing page gives.
 */
import { announcer, listenOn } from '../site/data/thread-channel.ts';
import type { AccessMode } from './store.ts';

export const GATED_ROUTES_CHANNEL = 'porchlight:gated-routes';

export interface GatedRoute {
  slug: string;
  mode: AccessMode;
  cidrs: string[];
}

export const announceGatedRoutes: (routes: GatedRoute[]) => void = announcer<GatedRoute[]>(GATED_ROUTES_CHANNEL);

function isGatedRoutes(data: unknown): data is GatedRoute[] {
  return Array.isArray(data) && data.every((route: Partial<GatedRoute>) =>
    typeof route === 'object' && route !== null && typeof route.slug === 'string' && (route.mode === 'unlisted' || route.mode === 'sign-in-shown')
    && Array.isArray(route.cidrs) && route.cidrs.every((cidr) => typeof cidr === 'string'));
}

/** Calls `listener` with each announcement; returns a function that stops listening. */
export function onGatedRoutes(listener: (routes: GatedRoute[]) => void): () => void {
  return listenOn(GATED_ROUTES_CHANNEL, (data) => {
    if (isGatedRoutes(data)) listener(data);
  });
}

/** The first path segment of a path (no query), e.g. `acme` for `/acme/history`. */
export function firstSegment(path: string): string {
  return /^\/([^/?#]*)/.exec(path)?.[1] ?? '';
}

/** Viewers' sessions: unused for 2 hours or 12 hours old, they end (the site's and the subscriptions' lookups alike). */
export const VIEWER_SESSION_POLICY = { idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000, touchEveryMs: 60_000 };

/** The cookie the viewer's session travels in: `__Host-` (HTTPS only, this host only) when the site is served over HTTPS. */
export function viewerCookieName(secure: boolean): string {
  return secure ? '__Host-porchlight-viewer' : 'porchlight-viewer';
}

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | undefined | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null;
  }
  return null;
}

/** Where the site's private routes live: sign-in, invitations, feed addresses. */
export const PRIVATE_PREFIX = '/_porchlight/private/';
export { PRIVATE_CLIENT_HEADER } from '../site/view/internal-request.ts';

/**
 * The content type the private relay gives a sign-in form's body on its way to the site. The site
 * checks every private POST itself (the browser's Origin and Sec-Fetch-Site, and a CSRF token
 * bound to a cookie: src/site/private/private-access.ts), which Astro's own origin check (by
 * content type, against the URL it rebuilt) cannot do behind the front; other types pass it.
 */
export const PRIVATE_FORM_TYPE = 'application/vnd.porchlight.private-form';
