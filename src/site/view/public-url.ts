/**
 * Absolute addresses, for what is read away from the page: feeds, Statuspage JSON, the
 * calendar, and the copy-paste snippets. Pages themselves keep relative links.
 *
 * - Main host: SITE_PUBLIC_URL when set, else the origin the request came to.
 * - A page's custom domain: that domain, with SITE_PUBLIC_URL's scheme and no port when it is
 *   set (production sits behind TLS on the standard port), else the request's own origin.
 *
 * The request's Host was checked by the front server and the front cache keys by it, so bytes
 * built from one Host are only ever served again to requests naming that same Host.
 */
import { pageHrefs } from './hrefs.ts';

export interface PublicUrls {
  /** The page's home, e.g. https://status.example.com/acme/ or https://status.acme.com/ */
  home: string;
  /** An incident's permalink. */
  incident(id: string): string;
  /** The incident history (this month) and one month of it. */
  history: string;
  month(key: string): string;
  /** A path relative to the page's root, e.g. 'history.atom'. */
  at(relativePath: string): string;
}

export function publicOrigin(options: { requestUrl: URL; customDomain: string | null; configured: string | null }): string {
  const { requestUrl, customDomain, configured } = options;
  if (customDomain) return configured ? `${new URL(configured).protocol}//${customDomain}` : requestUrl.origin;
  return configured ?? requestUrl.origin;
}

/** `basePath` is '' on a custom domain and '/<slug>' on the main host, as in resolve-page.ts. */
export function publicUrls(origin: string, basePath: string): PublicUrls {
  // The page's own links (hrefs.ts), made absolute: one spelling of every address.
  const hrefs = pageHrefs(basePath);
  return {
    home: `${origin}${hrefs.home}`,
    incident: (id) => `${origin}${hrefs.incident(id)}`,
    history: `${origin}${hrefs.history}`,
    month: (key) => `${origin}${hrefs.month(key)}`,
    at: (relativePath) => `${origin}${hrefs.home}${relativePath}`,
  };
}
