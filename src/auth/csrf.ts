/**
 * Cross-site request forgery, refused twice over on every POST:
 * 1. the browser's own word: `Sec-Fetch-Site` must be `same-origin` when sent, and `Origin` must be
 *    the site's origin when sent (a form posted from another site carries the other site's);
 * 2. a synchronizer token in the form, derived from the session's secret (the cookie's token, or
 *    a pre-session cookie on the sign-in form) with an HMAC, so it is per-session, never stored,
 *    and unknowable without the cookie; compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The form field carrying the token. */
export const CSRF_FIELD = 'csrf';

/** The token of the session whose secret is `sessionSecret` (for the form's hidden field). */
export function csrfToken(sessionSecret: string, purpose = 'form'): string {
  return createHmac('sha256', sessionSecret).update(`csrf:${purpose}`).digest('base64url');
}

/** Whether `given` is the token of `sessionSecret` (constant time). */
export function checkCsrfToken(sessionSecret: string | null, given: unknown, purpose = 'form'): boolean {
  if (!sessionSecret || typeof given !== 'string' || given.length > 100) return false;
  const expected = Buffer.from(csrfToken(sessionSecret, purpose));
  const offered = Buffer.from(given);
  return offered.length === expected.length && timingSafeEqual(offered, expected);
}

export type OriginVerdict = { ok: true } | { ok: false; reason: 'cross-site' | 'wrong-origin' };

/**
 * The browser's headers on a state-changing request, against the origin the site is served at
 * (`https://status.example.com`). Absent headers (an old browser, a script) pass here: the
 * token then decides alone.
 */
export function checkRequestOrigin(headers: IncomingHttpHeaders, expectedOrigin: string): OriginVerdict {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin') return { ok: false, reason: 'cross-site' };
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== expectedOrigin) return { ok: false, reason: 'wrong-origin' };
  return { ok: true };
}
