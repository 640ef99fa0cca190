/**
 * What every machine-readable output of a page (Statuspage JSON, feeds, calendar, badges) starts
 * from: the same page resolution as the HTML (a page that is not public is the same 404), the
 * same page context (one rule for which incidents, windows and monitors a page has), absolute
 * addresses, and the same public caching headers as the HTML page.
 */
import type { APIContext } from 'astro';
import type { Organization } from '../../contract/index.ts';
import { siteConfig } from '../config.ts';
import { pageContext, type PageContext } from './page-context.ts';
import { publicOrigin, publicUrls, type PublicUrls } from './public-url.ts';
import { resolvePage } from './resolve-page.ts';
import { publicCacheControl } from './response-policy.ts';

export interface OutputSource {
  context: PageContext;
  urls: PublicUrls;
  /** The organization that owns the page: its id scopes the stable ids of feed entries and events. */
  organization: Organization | null;
  /** When the data was fetched from the API: the age of everything the output says. */
  fetchedAt: Date;
}

/** The page an output route serves, or null: answer with `context.rewrite('/404')`. */
export function outputSource(request: Pick<APIContext, 'locals' | 'params' | 'url'>): OutputSource | null {
  // On a custom domain the middleware rewrites `/x` to `/<slug>/x`, but Astro (7.3) hands an
  // endpoint the params of the URL before that rewrite (pages get the rewritten ones), so there
  // the domain's own page is the slug. Only `/x` itself reaches a route this way: `/<slug>/x` on
  // the domain becomes `/<slug>/<slug>/x`, which no route matches.
  const slug = request.locals.domainPage ? request.locals.domainPage.slug : request.params.slug;
  const resolved = resolvePage(request.locals, slug);
  if (!resolved) return null;
  const context = pageContext(resolved.snapshot, resolved.page, { basePath: resolved.basePath, now: new Date(), stale: resolved.stale });
  const origin = publicOrigin({
    requestUrl: request.url,
    customDomain: request.locals.domainPage ? (resolved.page.customDomain ?? null) : null,
    configured: siteConfig().publicUrl,
  });
  return {
    context,
    urls: publicUrls(origin, resolved.basePath),
    organization: resolved.snapshot.organization,
    fetchedAt: resolved.snapshot.fetchedAt,
  };
}

export interface OutputOptions {
  /** Readable from scripts on any origin (Statuspage JSON): `Access-Control-Allow-Origin: *`. */
  cors?: boolean;
}

/** A public, cacheable answer with the same Cache-Control as the HTML page. */
export function outputResponse(body: string, contentType: string, options: OutputOptions = {}): Response {
  const headers = new Headers({ 'content-type': contentType, 'cache-control': publicCacheControl(siteConfig()) });
  if (options.cors) headers.set('access-control-allow-origin', '*');
  return new Response(body, { status: 200, headers });
}
