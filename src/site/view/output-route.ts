/**
 * What every machine-readable output of a page (Statuspage JSON, feeds, calendar, badges) starts
 * from: the same page resolution as the HTML (a page that is not public is the same 404), the
 * same page context (one rule for which incidents, windows and monitors a page has), absolute
 * addresses, and the same public caching headers as the HTML page.
 */
import type { APIContext } from 'astro';
import type { Organization, StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { siteConfig } from '../running-config.ts';
import { pageContext, type PageContext, type PageOptions } from './page-context.ts';
import { publicOrigin, publicUrls, type PublicUrls } from './public-url.ts';
import { resolvePage, type ResolvedPage } from './resolve-page.ts';
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
  const resolved = resolvePage(request.locals, request.params.slug);
  if (!resolved) return null;
  return buildOutputSource(resolved.snapshot, resolved.page, { basePath: resolved.basePath, now: new Date(), stale: resolved.stale, origin: pageOrigin(request, resolved), i18n: resolved.i18n });
}

/**
 * The origin of a resolved page as this request reached it: the main host, or the page's custom
 * domain. Output routes and the HTML page's copy-paste snippets share this one rule.
 */
export function pageOrigin(request: Pick<APIContext, 'locals' | 'url'>, resolved: ResolvedPage): string {
  return publicOrigin({
    requestUrl: request.url,
    customDomain: request.locals.domainPage ? (resolved.page.customDomain ?? null) : null,
    configured: siteConfig().publicUrl,
  });
}

/** Absolute addresses of a resolved page as this request reached it (see pageOrigin). */
export function pagePublicUrls(request: Pick<APIContext, 'locals' | 'url'>, resolved: ResolvedPage): PublicUrls {
  const origin = pageOrigin(request, resolved);
  // The page's own addresses in the language shown; its outputs (`at`) live once, at the root.
  return { ...publicUrls(origin, resolved.basePath), at: publicUrls(origin, resolved.rootPath).at };
}

/** An output source for one page of one snapshot, read at `origin` (pure: the tests build theirs here too). */
export function buildOutputSource(
  snapshot: Snapshot,
  page: StatusPage,
  options: PageOptions & { origin: string },
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
export function outputResponse(body: string | Uint8Array<ArrayBuffer>, contentType: string, options: OutputOptions = {}): Response {
  const headers = new Headers({ 'content-type': contentType, 'cache-control': publicCacheControl(siteConfig()) });
  if (options.cors) headers.set('access-control-allow-origin', '*');
  return new Response(body, { status: 200, headers });
}
