/**
 * What every machine-readable output of a page (Statuspage JSON, feeds, calendar, badges) starts
 * from: the same page resolution as the HTML (a page that is not public is the same 404), the
 * same page context (one rule for which incidents, windows and monitors a page has), absolute
 * addresses, and the same public caching headers as the HTML page.
 */
import type { APIContext } from 'astro';
import type { Organization, StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
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

/**
 * The page's slug. On a custom domain the middleware rewrites `/x` to `/<slug>/x`, but Astro (7.3)
 * hands an endpoint the params of the URL before that rewrite (pages get the rewritten ones), so
 * there the domain's own page is the slug, whatever the params say. Only `/x` itself reaches a
 * route this way: `/<slug>/x` on the domain becomes `/<slug>/<slug>/x`, which no route matches.
 */
export function outputSlug(request: Pick<APIContext, 'locals' | 'params'>): string | undefined {
  return request.locals.domainPage ? request.locals.domainPage.slug : request.params.slug;
}

/**
 * The requested path relative to the page's root, e.g. 'api/v2/summary.json', for a route under
 * `[slug]/` whose rest of the path is `rest` (as in `params`). On a custom domain (see outputSlug)
 * the params are not to be trusted, and the request's own path is that path.
 */
export function outputPath(request: Pick<APIContext, 'locals' | 'params' | 'url'>, rest: (params: APIContext['params']) => string): string | null {
  if (request.locals.domainPage) return request.url.pathname.slice(1);
  return request.params.slug !== undefined ? rest(request.params) : null;
}

/** The page an output route serves, or null: answer with `context.rewrite('/404')`. */
export function outputSource(request: Pick<APIContext, 'locals' | 'params' | 'url'>): OutputSource | null {
  const resolved = resolvePage(request.locals, outputSlug(request));
  if (!resolved) return null;
  const origin = publicOrigin({
    requestUrl: request.url,
    customDomain: request.locals.domainPage ? (resolved.page.customDomain ?? null) : null,
    configured: siteConfig().publicUrl,
  });
  return buildOutputSource(resolved.snapshot, resolved.page, { basePath: resolved.basePath, now: new Date(), stale: resolved.stale, origin });
}

/** An output source for one page of one snapshot, read at `origin` (pure: the tests build theirs here too). */
export function buildOutputSource(
  snapshot: Snapshot,
  page: StatusPage,
  options: { basePath: string; now: Date; stale: boolean; origin: string },
): OutputSource {
  return {
    context: pageContext(snapshot, page, options),
    urls: publicUrls(options.origin, options.basePath),
    organization: snapshot.organization,
    fetchedAt: snapshot.fetchedAt,
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
