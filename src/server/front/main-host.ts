/**
 * The Host a request is answered as. With the main host known (SITE_PUBLIC_URL), any Host that is
 * not a public page's custom domain is answered as the main host: one render and one entry,
 * whatever names clients send. Until the site has said which domains are its pages', and without
 * a main host, every Host is answered as asked.
 */
import { followCustomDomains } from '../../site/data/custom-domains.ts';
import { checkHost, type CheckedHost } from './request-key.ts';

export interface MainHost {
  answeredAs(host: CheckedHost): CheckedHost;
  close(): void;
}

export function createMainHost(publicHost: string | undefined): MainHost {
  const domains = publicHost ? followCustomDomains() : null;
  const main = publicHost ? checkHost(publicHost) : null;
  return {
    answeredAs(host) {
      const known = domains?.current();
      if (!main || !known) return host;
      return known.has(host.name) ? host : main;
    },
    close: () => domains?.close(),
  };
}
