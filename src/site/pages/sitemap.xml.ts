/** The host's sitemap.xml (outputs/sitemap.ts): every address of the public pages it serves. */
import type { APIRoute } from 'astro';
import { pageSitemapUrls, SITEMAP_CONTENT_TYPE, sitemapXml } from '../outputs/sitemap.ts';
import { hostOutputSource } from '../view/host-output-route.ts';
import { outputResponse } from '../view/output-route.ts';

export const GET: APIRoute = (context) => {
  const host = hostOutputSource(context);
  if (!host) return context.rewrite('/404');
  return outputResponse(sitemapXml(host.pages.flatMap(pageSitemapUrls)), SITEMAP_CONTENT_TYPE);
};

export const HEAD = GET;
