/**
 * Which status page a request is for. Only public pages are ever found: a private page's slug
 * or domain answers exactly like one that does not exist.
 */
import type { StatusPage } from '../../contract/index.ts';
import { asciiName } from '../lib/domain-name.ts';

export function publicPages(pages: readonly StatusPage[]): StatusPage[] {
  return pages.filter((page) => page.isPublic !== false);
}

export function findPageBySlug(pages: readonly StatusPage[], slug: string): StatusPage | null {
  return publicPages(pages).find((page) => page.slug === slug) ?? null;
}

/**
 * The request's Host without port, lower-cased, without a trailing dot, a Unicode name in its
 * ASCII (punycode) form as browsers send it; null when absent. The front server keys its cache
 * with this same function, so routing and caching agree.
 */
export function normalizeHost(host: string | null | undefined): string | null {
  if (!host) return null;
  const trimmed = host.trim().toLowerCase();
  // [v6]:port, host:port, host
  const name = trimmed.startsWith('[') ? trimmed.slice(0, trimmed.indexOf(']') + 1) : trimmed.split(':')[0] ?? '';
  const withoutDot = name.endsWith('.') ? name.slice(0, -1) : name;
  return withoutDot ? asciiName(withoutDot) : null;
}

/** The public page whose customDomain is this Host (case-insensitive, port ignored). */
export function findPageByHost(pages: readonly StatusPage[], host: string | null | undefined): StatusPage | null {
  const wanted = normalizeHost(host);
  if (!wanted) return null;
  return publicPages(pages).find((page) => normalizeHost(page.customDomain) === wanted) ?? null;
}
