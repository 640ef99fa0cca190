/**
 * "These pages stopped being public": told by the site, after a load that made a page
 * non-public, deleted it or took its custom domain away, to the front server, which drops what it
 * stored of them at once rather than serving the old bytes once more while it re-renders (its
 * usual answer to new data). Hiding wins over stale-while-revalidate.
 */
import type { StatusPage } from '../../contract/index.ts';
import { normalizeHost, publicPages } from '../view/routing.ts';
import { announcer, listenOn } from './thread-channel.ts';

export const HIDDEN_PAGES_CHANNEL = 'porchlight:pages-hidden';

export interface HiddenPages {
  /** Slugs that were public and no longer are (gone, non-public, or renamed away). */
  slugs: string[];
  /** Custom domains (normalized host names) that led to a public page and no longer do. */
  domains: string[];
}

/** What was public in `before` and is not in `after`; null when nothing was hidden. */
export function hiddenPages(before: readonly StatusPage[], after: readonly StatusPage[]): HiddenPages | null {
  const nowPublic = publicPages(after);
  const slugs = new Set(nowPublic.map((page) => page.slug));
  const domains = new Set(nowPublic.flatMap((page) => normalizeHost(page.customDomain) ?? []));
  const hidden: HiddenPages = { slugs: [], domains: [] };
  for (const page of publicPages(before)) {
    if (!slugs.has(page.slug)) hidden.slugs.push(page.slug);
    const domain = normalizeHost(page.customDomain);
    if (domain && !domains.has(domain)) hidden.domains.push(domain);
  }
  return hidden.slugs.length + hidden.domains.length === 0 ? null : hidden;
}

/**
 * Whether the front server drops a stored answer (by the Host it was rendered for and its path):
 * one of a hidden page (its slug's paths, or anything on its lost domain), or one of the main
 * host's own documents that list pages (`/`, `/sitemap.xml`, `/porchlight-export.json`…: any path
 * whose first segment is not a slug).
 */
export function dropsStored(stored: { host: string; path: string }, hidden: HiddenPages): boolean {
  const host = normalizeHost(stored.host);
  if (host !== null && hidden.domains.includes(host)) return true;
  const segment = /^\/([^/]*)/.exec(stored.path)?.[1] ?? '';
  if (hidden.slugs.includes(segment)) return true;
  return !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(segment);
}

export const announceHiddenPages: (hidden: HiddenPages) => void = announcer<HiddenPages>(HIDDEN_PAGES_CHANNEL);

function isHiddenPages(data: unknown): data is HiddenPages {
  if (typeof data !== 'object' || data === null) return false;
  const { slugs, domains } = data as Partial<HiddenPages>;
  return Array.isArray(slugs) && Array.isArray(domains) && [...slugs, ...domains].every((name) => typeof name === 'string');
}

/** Calls `listener` for each announcement; returns a function that stops listening. */
export function onHiddenPages(listener: (hidden: HiddenPages) => void): () => void {
  return listenOn(HIDDEN_PAGES_CHANNEL, (data) => {
    if (isHiddenPages(data)) listener(data);
  });
}
