/** The host's robots.txt (outputs/robots.ts): its public pages, and its sitemap. */
import type { APIRoute } from 'astro';
import { robotsTxt, ROBOTS_CONTENT_TYPE } from '../outputs/robots.ts';
import { hostOutputSource } from '../view/host-output-route.ts';
import { HOST_OUTPUTS } from '../view/page-outputs.ts';
import { outputResponse } from '../view/output-route.ts';

export const GET: APIRoute = (context) => {
  const host = hostOutputSource(context);
  if (!host) return context.rewrite('/404');
  const pageRoots = host.pages.map((source) => source.context.branding.homeHref);
  return outputResponse(robotsTxt({ pageRoots, sitemapUrl: `${host.root}/${HOST_OUTPUTS.sitemap}` }), ROBOTS_CONTENT_TYPE);
};

export const HEAD = GET;
