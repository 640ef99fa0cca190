/**
 * The custom domains of the public pages, told by the site (which has the data) to the front
 * server (which keys its cache by Host) after each load: with SITE_PUBLIC_URL set, every other
 * Host is the main host, rendered and stored once rather than once per name a client invents.
 */
import type { StatusPage } from '../../contract/index.ts';
import { normalizeHost, publicPages } from '../view/routing.ts';
import { announcer, listenOn } from './thread-channel.ts';

export const CUSTOM_DOMAINS_CHANNEL = 'porchlight:custom-domains';

const announce = announcer<string[]>(CUSTOM_DOMAINS_CHANNEL);

/** Announces the host names (lower-case, no port) of the public pages' custom domains. */
export function announceCustomDomains(pages: readonly StatusPage[]): void {
  announce(customDomainNames(pages));
}

export function customDomainNames(pages: readonly StatusPage[]): string[] {
  return publicPages(pages).flatMap((page) => {
    const name = normalizeHost(page.customDomain);
    return name ? [name] : [];
  });
}

/**
 * The latest announced set, null before any announcement; and the function that stops listening.
 * `onAnnounce` is told of every announcement, changed or not (each one follows a load).
 */
export function followCustomDomains(onAnnounce?: () => void): { current(): ReadonlySet<string> | null; close(): void } {
  let domains: ReadonlySet<string> | null = null;
  const close = listenOn(CUSTOM_DOMAINS_CHANNEL, (data) => {
    if (!Array.isArray(data) || !data.every((name) => typeof name === 'string')) return;
    domains = new Set(data);
    onAnnounce?.();
  });
  return { current: () => domains, close };
}
