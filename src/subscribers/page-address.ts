/**
 * Where a page is reached from a mail: its custom domain when the site's public URL says which
 * scheme to use (as the feeds do, see public-url.ts), else the main host by slug. The mails'
 * links and the answer pages' forms use the same addresses.
 */
import type { StatusPage } from '../contract/index.ts';
import { slugBasePath, publicOrigin } from '../site/public.ts';
import type { PageAddress } from './mail-view.ts';

export interface LinkSettings {
  /** Origin of the main host for links (SITE_PUBLIC_URL, or the local address in the demo). */
  origin: string;
  /** Whether SITE_PUBLIC_URL was set: only then are custom domains reachable by name. */
  configured: boolean;
}

/** `mainHostOnly`: a page with an audience lives on the main host only (docs/private-pages.md), its links too. */
export function pageAddress(page: StatusPage, links: LinkSettings, options: { mainHostOnly?: boolean } = {}): PageAddress {
  if (page.customDomain && links.configured && !options.mainHostOnly) {
    return { origin: publicOrigin({ requestUrl: new URL(links.origin), customDomain: page.customDomain, configured: links.origin }), basePath: '' };
  }
  return { origin: links.origin, basePath: slugBasePath('', page.slug) };
}

/**
 * The subscription routes below a page's root. Links name the subscriber's language too, so that
 * even a link that no longer works (used, expired, unsubscribed) answers in it.
 */
export function subscribeUrls(address: PageAddress) {
  const root = `${address.origin}${address.basePath}/subscribe`;
  return {
    subscribe: root,
    confirm: (token: string, locale: string) => `${root}/confirm${linkQuery(token, locale)}`,
    manageBase: `${root}/manage`,
  };
}

const linkQuery = (token: string, locale: string) => `?t=${encodeURIComponent(token)}&locale=${encodeURIComponent(locale)}`;

/** A subscriber's manage (unsubscribe) link, from the base stored with an event. */
export function manageLink(manageBase: string, token: string, locale: string): string {
  return `${manageBase}${linkQuery(token, locale)}`;
}
