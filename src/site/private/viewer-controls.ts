/**
 * What a viewer of a page with an audience gets on the page in place of the public "Subscribe /
 * Integrate" links (docs/private-pages.md): the address of their own feed addresses' page, and,
 * when they have a session, the sign-out form. The sign-out's CSRF token is derived from the
 * session's own cookie token (src/auth/csrf.ts), so it needs no other cookie and opens nothing
 * without that cookie.
 */
import { checkCsrfToken, csrfToken } from '../../auth/csrf.ts';
import { PRIVATE_PREFIX } from '../../audiences/gated-routes.ts';

/** The sign-out route (POST only). */
export const SIGN_OUT_PATH = `${PRIVATE_PREFIX}sign-out`;
const SIGN_OUT_PURPOSE = 'sign-out';

export interface ViewerControls {
  /** The viewer's feed addresses page, `/_porchlight/private/<slug>/feeds`, or null without a grant (let in by address alone: that page is for granted viewers). */
  feedsHref: string | null;
  /** The sign-out form, or null for a visitor let in by address alone (no session to end). */
  signOut: { action: string; csrf: string } | null;
  /**
   * The e-mail subscription form (the page's own subscribe route, which the subscriptions thread
   * answers for a viewer with a live grant), or null: no session, no grant, or no subscriptions.
   */
  subscribeAction: string | null;
}

export function viewerControls(input: { sitePath: string; slug: string; sessionToken: string | null; granted: boolean; subscriptions?: boolean }): ViewerControls {
  return {
    subscribeAction: input.granted && input.sessionToken && input.subscriptions ? `${input.sitePath}/${encodeURIComponent(input.slug)}/subscribe` : null,
    feedsHref: input.granted ? `${input.sitePath}${PRIVATE_PREFIX}${encodeURIComponent(input.slug)}/feeds` : null,
    signOut: input.sessionToken ? { action: `${input.sitePath}${SIGN_OUT_PATH}`, csrf: csrfToken(input.sessionToken, SIGN_OUT_PURPOSE) } : null,
  };
}

/** Whether a sign-out form's token is the one made for this session's cookie token. */
export function signOutTokenIsRight(sessionToken: string | null, given: unknown): boolean {
  return checkCsrfToken(sessionToken, given, SIGN_OUT_PURPOSE);
}
