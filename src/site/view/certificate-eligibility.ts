/**
 * Which names may get a certificate on demand: the custom domains of the public pages, and the
 * main host (SITE_PUBLIC_URL's). One rule for the TLS gate, which knows only the names the site
 * announced, and for an operator asking why a name is refused, who may see every page.
 */
import type { StatusPage } from '../../contract/index.ts';
import { customDomainNames } from '../data/custom-domains.ts';
import { normalizeDomainName } from '../lib/domain-name.ts';

export type NameDecision = 'allowed' | 'refused' | 'not-ready';

/** `allowed`: the public pages' custom domains as announced; null when none were announced yet. */
export function decideName(name: string, allowed: ReadonlySet<string> | null, publicHostName: string | null): NameDecision {
  const normalized = normalizeDomainName(name);
  if (normalized !== null && normalized === normalizeDomainName(publicHostName)) return 'allowed';
  // Until the site has loaded or restored its data, no custom domain is known either way.
  if (allowed === null) return 'not-ready';
  return normalized !== null && allowed.has(normalized) ? 'allowed' : 'refused';
}

/** The names a gate compares with: the announced ones, in the same spelling as the asked ones. */
export function allowedNames(announced: Iterable<string>): ReadonlySet<string> {
  return new Set([...announced].flatMap((name) => normalizeDomainName(name) ?? []));
}

export type NameExplanation =
  | { allowed: true; because: 'main-host' }
  | { allowed: true; because: 'custom-domain'; slug: string }
  | { allowed: false; because: 'not-a-domain-name' | 'no-page-claims-it' }
  | { allowed: false; because: 'page-not-public'; slug: string };

/** Why a name would or would not get a certificate, from all of the organization's pages. */
export function explainName(name: string, pages: readonly StatusPage[], publicHostName: string | null): NameExplanation {
  const normalized = normalizeDomainName(name);
  if (normalized === null) return { allowed: false, because: 'not-a-domain-name' };
  const claimedBy = pages.find((page) => normalizeDomainName(page.customDomain) === normalized);
  if (decideName(normalized, allowedNames(customDomainNames(pages)), publicHostName) === 'allowed') {
    return claimedBy && claimedBy.isPublic !== false ? { allowed: true, because: 'custom-domain', slug: claimedBy.slug } : { allowed: true, because: 'main-host' };
  }
  return claimedBy ? { allowed: false, because: 'page-not-public', slug: claimedBy.slug } : { allowed: false, because: 'no-page-claims-it' };
}
