/** Which accounts an OpenID Connect sign-in lets in, by the page's settings (docs/private-pages.md). */
import type { OidcSettings } from '../../audiences/store.ts';

/** Whether the ID token's claims are let in by the page's settings. */
export function claimsAllowed(settings: OidcSettings, claims: Record<string, unknown>): { email: string } | null {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (settings.emailDomains.length > 0) {
    const domain = email.includes('@') ? email.slice(email.lastIndexOf('@') + 1) : '';
    // An address the provider has not verified proves nothing about its domain.
    if (!domain || claims.email_verified === false || !settings.emailDomains.includes(domain)) return null;
  }
  if (settings.claim) {
    const value = claims[settings.claim.name];
    const values = Array.isArray(value) ? value : [value];
    if (!values.some((item) => String(item) === settings.claim!.value)) return null;
  }
  const subject = email || (typeof claims.sub === 'string' ? claims.sub : '');
  return subject ? { email: subject } : null;
}
