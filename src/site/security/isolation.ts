/**
 * Headers that change how the browser isolates a document, decided per kind of route in this one
 * table (issue 34). `Cross-Origin-Opener-Policy: same-origin` puts a page in a browsing context
 * group of its own: no window that opened it (or that it opens) keeps a handle on it, which
 * blocks cross-window attacks (tab-nabbing, XS-Leaks through `window` references) against a page
 * that holds something. It is not free: a cold load of such a page from a new tab makes Chromium
 * swap browsing context groups (a new renderer), measured ~130 ms on this machine kind before the
 * first byte is parsed. So it goes where a page holds a secret or acts for someone, not on pages
 * that show public data to everyone. Reasons in docs/site.md ("Isolation headers").
 * Cross-Origin-Embedder-Policy is nowhere: no page needs cross-origin isolation (shared memory,
 * precise timers), and it would block owners' logos from other hosts.
 */

/** What a route is, as far as isolation goes. */
export type IsolationKind =
  /** Status pages, incidents, history, components, the index, error pages: public, no secrets, no sign-in. */
  | 'public-page'
  /** The embeddable widget: lives in other sites' frames, where COOP has no effect anyway. */
  | 'widget'
  /** Subscription confirm/manage pages: a subscriber's token in the page and its forms. */
  | 'subscription'
  /** Anything behind a sign-in (the console, private pages, when they exist). */
  | 'private';

export const ISOLATION: Readonly<Record<IsolationKind, { readonly coop: 'same-origin' | null }>> = {
  'public-page': { coop: null },
  widget: { coop: null },
  subscription: { coop: 'same-origin' },
  private: { coop: 'same-origin' },
};

export function isolationHeaders(kind: IsolationKind): Record<string, string> {
  const { coop } = ISOLATION[kind];
  return coop ? { 'cross-origin-opener-policy': coop } : {};
}
