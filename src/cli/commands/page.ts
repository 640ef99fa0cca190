/**
 * `porchlight page list|show`. The addresses come from the site's own spelling of them
 * (public-url.ts, hrefs.ts, page-outputs.ts): the CLI never writes a second list of routes.
 */
import type { StatusPage } from '../../api/index.ts';
import { slugBasePath } from '../../site/view/hrefs.ts';
import { componentBadgePath, PAGE_OUTPUTS } from '../../site/view/page-outputs.ts';
import { publicUrls } from '../../site/view/public-url.ts';
import { explainName, type NameExplanation } from '../../site/view/certificate-eligibility.ts';
import type { Command } from '../command.ts';
import { allPages, resolvePage } from '../lookups.ts';
import { fields, table } from '../table.ts';

/** Every address of a page, or null when the site's address is unknown (no npm start, no SITE_PUBLIC_URL). */
export function pageUrls(page: StatusPage, siteUrl: string | null) {
  if (siteUrl === null) return null;
  const site = new URL(siteUrl);
  const urls = publicUrls(site.origin, slugBasePath(site.pathname.replace(/\/+$/, ''), page.slug));
  return {
    page: urls.home,
    customDomain: page.customDomain ? `${site.protocol}//${page.customDomain}/` : null,
    atom: urls.at(PAGE_OUTPUTS.atomFeed),
    rss: urls.at(PAGE_OUTPUTS.rssFeed),
    calendar: urls.at(PAGE_OUTPUTS.maintenanceCalendar),
    summaryJson: urls.at(PAGE_OUTPUTS.summaryJson),
    badge: urls.at(PAGE_OUTPUTS.badge),
    widget: urls.at(PAGE_OUTPUTS.widget),
    componentBadges: page.monitors.map((link) => ({ monitorId: link.monitorId, url: urls.at(componentBadgePath(link.monitorId)) })),
  };
}

export function pageJson(page: StatusPage, siteUrl: string | null) {
  return {
    id: page.id,
    slug: page.slug,
    name: page.name,
    isPublic: page.isPublic !== false,
    customDomain: page.customDomain ?? null,
    monitorIds: page.monitors.map((link) => link.monitorId),
    urls: pageUrls(page, siteUrl),
  };
}

/** Why a name does or does not get a certificate from the TLS gate (docs/custom-domains.md). */
function domainVerdict(explanation: NameExplanation): string {
  switch (explanation.because) {
    case 'main-host':
      return 'allowed: it is the host of SITE_PUBLIC_URL';
    case 'custom-domain':
      return `allowed: the custom domain of the public page "${explanation.slug}"`;
    case 'page-not-public':
      return `refused: the page "${explanation.slug}" claims it but is not public`;
    case 'no-page-claims-it':
      return 'refused: no status page has it as its custom domain';
    case 'not-a-domain-name':
      return 'refused: not a plain domain name (no port, path or spaces)';
  }
}

const NO_SITE = 'unknown: set SITE_PUBLIC_URL or --site-url (npm start on this machine records it)';

export const pageCommands: Command[] = [
  {
    words: ['page', 'list'],
    summary: 'list status pages',
    usage: '',
    optionHelp: [],
    options: {},
    examples: ['porchlight page list'],
    positionals: [],
    async run({ client, connection }) {
      const pages = (await allPages(client)).sort((a, b) => a.slug.localeCompare(b.slug));
      const rows = pages.map((p) => [p.slug, p.isPublic === false ? 'no' : 'yes', String(p.monitors.length), p.name, pageUrls(p, connection.siteUrl)?.page ?? '']);
      return {
        human: rows.length === 0 ? 'no status pages' : table(['SLUG', 'PUBLIC', 'MONITORS', 'NAME', 'URL'], rows),
        json: pages.map((page) => pageJson(page, connection.siteUrl)),
      };
    },
  },
  {
    words: ['page', 'show'],
    summary: 'a page with the URLs of its page, feeds, badges and widget',
    usage: 'SLUG',
    optionHelp: [],
    options: {},
    examples: ['porchlight page show acme', 'porchlight page show acme --json | jq -r .urls.atom'],
    positionals: ['SLUG'],
    async run({ client, connection }, { positionals: [slug = ''] }) {
      const page = resolvePage(await allPages(client), slug);
      const json = pageJson(page, connection.siteUrl);
      const urls = json.urls;
      const lines: [string, string][] = [
        ['id', page.id],
        ['slug', page.slug],
        ['name', page.name],
        ['public', json.isPublic ? 'yes' : 'no (answers 404 to visitors)'],
        ['monitors', String(page.monitors.length)],
      ];
      if (!urls) lines.push(['urls', NO_SITE]);
      else {
        lines.push(['page', urls.page]);
        if (urls.customDomain) lines.push(['custom domain', urls.customDomain]);
        lines.push(['atom feed', urls.atom], ['rss feed', urls.rss], ['calendar', urls.calendar], ['summary json', urls.summaryJson], ['badge', urls.badge], ['widget', urls.widget]);
      }
      const badges = urls && urls.componentBadges.length > 0 ? `\n\ncomponent badges:\n${table(['MONITOR', 'URL'], urls.componentBadges.map((b) => [b.monitorId, b.url])).replace(/^/gm, '  ')}` : '';
      return { human: fields(lines) + badges, json };
    },
  },
  {
    words: ['page', 'domain'],
    summary: 'whether a name gets an HTTPS certificate on demand, and why not',
    usage: 'NAME',
    optionHelp: [],
    options: {},
    examples: ['porchlight page domain status.acme.com', 'porchlight page domain status.acme.com --json | jq .allowed'],
    positionals: ['NAME'],
    async run({ client, env }, { positionals: [name = ''] }) {
      // The same rule as the site's gate, applied to every page the key can see (the gate only
      // knows the public ones, so it cannot say why). The main host is SITE_PUBLIC_URL's, as the site's.
      const publicUrl = env.SITE_PUBLIC_URL?.trim();
      const explanation = explainName(name, await allPages(client), publicUrl && URL.canParse(publicUrl) ? new URL(publicUrl).hostname : null);
      return { human: `${name}: ${domainVerdict(explanation)}`, json: { name, ...explanation } };
    },
  },
];
