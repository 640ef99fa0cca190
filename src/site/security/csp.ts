/**
 * The Content-Security-Policy every response carries. No script runs but the site's own
 * inline script, allowed by its hash; inline styles only by the hashes of the exact text
 * each page rendered (the page's owner CSS); everything else from this origin only, and
 * images (owner logos) from any http(s) host.
 */
import { createHash } from 'node:crypto';
import { isolationHeaders, type IsolationKind } from './isolation.ts';

export function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Who may show a response in a frame: nobody, except the widget, which any site may embed. */
export type FrameAncestors = 'none' | 'any';

/** `formOrigin`: where a static copy's subscription form posts (the server at SITE_PUBLIC_URL). */
export function contentSecurityPolicy(hashes: { scripts: readonly string[]; styles: readonly string[]; frameAncestors?: FrameAncestors; formOrigin?: string | null }): string {
  return [
    "default-src 'none'",
    "base-uri 'none'",
    hashes.formOrigin ? `form-action 'self' ${hashes.formOrigin}` : "form-action 'self'",
    hashes.frameAncestors === 'any' ? 'frame-ancestors *' : "frame-ancestors 'none'",
    "img-src 'self' https: http: data:",
    "font-src 'self' https:",
    `style-src 'self' ${hashes.styles.join(' ')}`.trim(),
    hashes.scripts.length > 0 ? `script-src ${hashes.scripts.join(' ')}` : "script-src 'none'",
    "connect-src 'self'",
    "manifest-src 'self'",
  ].join('; ');
}

/**
 * The same policy for a page's own <meta http-equiv>, so a copy served as a static file (see
 * src/export/) is held to it as well. Browsers ignore frame-ancestors there: that one stays a
 * header's job (the server's, or the static host's).
 */
export function documentContentSecurityPolicy(hashes: { scripts: readonly string[]; styles: readonly string[]; formOrigin?: string | null }): string {
  return contentSecurityPolicy(hashes)
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors'))
    .join('; ');
}

/**
 * Headers of every response, pages and errors alike; only a frameable one drops X-Frame-Options.
 * Isolation (COOP) per kind of route: see isolation.ts.
 */
export function securityHeaders(csp: string, frameAncestors: FrameAncestors = 'none', isolation: IsolationKind = frameAncestors === 'any' ? 'widget' : 'public-page'): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(frameAncestors === 'none' ? { 'x-frame-options': 'DENY' } : {}),
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
    ...isolationHeaders(isolation),
  };
}
