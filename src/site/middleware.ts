/**
 * Every request: load the current snapshot (from memory, see data/site-data.ts), route a
 * custom domain's Host to its page, and put the security headers on whatever is answered.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { DATA_VERSION_HEADER, dataVersionOf } from './data/data-version.ts';
import { siteData } from './data/site-data.ts';
import { SnapshotUnavailableError } from './data/snapshot-cache.ts';
import { enhanceScript } from './scripts/enhance.ts';
import { siteStylesheetHashes } from './styles/site-stylesheet.ts';
import { contentSecurityPolicy, securityHeaders } from './security/csp.ts';
import { BASE_PATH_HEADER, EXPORT_HEADER, normalizeBasePath } from './view/internal-request.ts';
import { HOST_OUTPUT_PATHS } from './view/page-outputs.ts';
import { findPageByHost } from './view/routing.ts';
import { unknownSlug } from './view/unknown-name.ts';
import { isPreviewRequest, previewResponse } from './preview/preview-route.ts';
import { siteConfig } from './running-config.ts';
import type { Locale } from './i18n/locales.ts';
import { translator } from './i18n/translator.ts';
import { splitLocalePath } from './view/languages.ts';

/** Paths answered without status data (readiness asks for it itself, without waiting). */
const WITHOUT_DATA = new Set(['/healthz', '/readyz']);

/**
 * `/<slug>/<language>/<rest>` as the route `/<slug>/<rest>` and the language it names
 * (view/languages.ts); null when the path names none. Whether the page offers it is the
 * route's question (resolve-page.ts).
 */
function withoutLocale(path: string): { path: string; locale: Locale } | null {
  const match = /^\/([^/]+)\/(.*)$/.exec(path);
  const split = match ? splitLocalePath(match[2] ?? '') : null;
  return match && split ? { path: `/${match[1]}/${split.rest}`, locale: split.locale } : null;
}

const site = defineMiddleware(async (context, next) => {
  context.locals.data = null;
  context.locals.unavailable = null;
  context.locals.domainPage = null;
  context.locals.cspStyles = [];
  context.locals.frameAncestors = 'none';
  context.locals.formOrigin = siteConfig().subscribeFormOrigin;
  // Only the exporter sends these (the front server drops them from clients).
  context.locals.sitePath = normalizeBasePath(context.request.headers.get(BASE_PATH_HEADER)) ?? '';
  context.locals.exporting = context.request.headers.has(EXPORT_HEADER);
  context.locals.locale = null;
  context.locals.preview = null;
  const { languages } = siteConfig();
  context.locals.i18n = translator(languages.siteLocale, languages.siteTimeZone);

  let response: Response;
  const { pathname, search } = context.url;
  if (WITHOUT_DATA.has(pathname)) {
    response = await next();
  } else {
    try {
      context.locals.data = await siteData().get();
    } catch (error) {
      if (!(error instanceof SnapshotUnavailableError)) throw error;
      context.locals.unavailable = { retryAfterSeconds: error.retryAfterSeconds };
    }
    // The console's preview (internal, POST-only): answered whole here, with its own headers.
    if (context.locals.data && isPreviewRequest(context.request, pathname)) return previewResponse(context, next);
    let page = context.locals.data ? findPageByHost(context.locals.data.snapshot.pages, context.request.headers.get('host')) : null;
    if (context.locals.data && !page && unknownSlug(context.locals.data.snapshot.pages, pathname) !== null) {
      // A page the data does not show yet: read the pages list (rate-limited) before the 404.
      await siteData().askForPages();
      context.locals.data = await siteData().get().catch(() => context.locals.data);
      page = context.locals.data ? findPageByHost(context.locals.data.snapshot.pages, context.request.headers.get('host')) : null;
    }
    if (context.locals.unavailable) {
      response = await next('/unavailable');
    } else if (page && HOST_OUTPUT_PATHS.has(pathname)) {
      // robots.txt and sitemap.xml belong to the host: the domain's own, about its one page.
      context.locals.domainPage = page;
      response = await next();
    } else {
      // On its own domain a page lives at the root: /incidents/1 is /<slug>/incidents/1.
      if (page) context.locals.domainPage = page;
      const target = page ? `/${encodeURIComponent(page.slug)}${pathname === '/' ? '' : pathname}` : pathname;
      const routed = withoutLocale(target);
      if (routed) context.locals.locale = routed.locale;
      const path = routed?.path ?? target;
      response = path === pathname ? await next() : await next(new URL(`${path}${search}`, context.url));
    }
  }

  // Astro names no charset; without one a browser may guess the encoding of owner text.
  const contentType = response.headers.get('content-type');
  if (contentType && /^text\/html\b/i.test(contentType) && !/charset=/i.test(contentType)) {
    response.headers.set('content-type', `${contentType}; charset=utf-8`);
  }
  // The language of a page's words (the route's translator), for caches and for an object store's
  // copy of the page, which carries this header as metadata (src/export/publish/object-headers.ts).
  if (contentType && /^text\/html\b/i.test(contentType)) response.headers.set('content-language', context.locals.i18n.locale);
  if (context.locals.data) response.headers.set(DATA_VERSION_HEADER, dataVersionOf(context.locals.data.snapshot.fetchedAt));
  const { frameAncestors } = context.locals;
  const csp = contentSecurityPolicy({ scripts: [enhanceScript.hash], styles: [...siteStylesheetHashes(siteConfig().theme), ...context.locals.cspStyles], frameAncestors, formOrigin: context.locals.formOrigin });
  for (const [name, value] of Object.entries(securityHeaders(csp, frameAncestors))) response.headers.set(name, value);
  return response;
});

/**
 * Astro hands an endpoint the context of the URL as it was before a rewrite made by the last
 * middleware (pages get the rewritten one): a custom domain's `/badge.svg` would reach
 * `[slug]/badge.svg` with the params and url of `/badge.svg`. A rewrite made by a handler that
 * another one follows in a sequence updates the context's url and params first, so one more
 * handler that only passes the request on makes endpoints see the route they serve.
 */
export const onRequest = sequence(site, (_context, next) => next());
