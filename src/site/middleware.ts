/**
 * Every request: load the current snapshot (from memory, see data/site-data.ts), route a
 * custom domain's Host to its page, and put the security headers on whatever is answered.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { DATA_VERSION_HEADER, dataVersionOf } from './data/data-version.ts';
import { siteData } from './data/site-data.ts';
import { SnapshotUnavailableError } from './data/snapshot-cache.ts';
import { siteScriptHashes } from './scripts/site-scripts.ts';
import { siteStylesheetHashes } from './styles/site-stylesheet.ts';
import { contentSecurityPolicy, securityHeaders } from './security/csp.ts';
import { BASE_PATH_HEADER, EXPORT_HEADER, normalizeBasePath } from './view/internal-request.ts';
import { HOST_OUTPUT_PATHS } from './view/page-outputs.ts';
import { findPageByHost } from './view/routing.ts';
import { unknownSlug } from './view/unknown-name.ts';
import { isPreviewRequest, previewResponse } from './preview/preview-route.ts';
import { PRIVATE_CLIENT_HEADER } from './view/internal-request.ts';
import { audienceBook } from './private/audience-book.ts';
import { PRIVATE_HEADERS, privateOutcome, type PrivateOutcome } from './private/private-access.ts';
import { siteConfig } from './running-config.ts';
import type { Locale } from './i18n/locales.ts';
import { translator } from './i18n/translator.ts';
import { splitLocalePath } from './view/languages.ts';

const NO_OUTCOME: PrivateOutcome = { kind: 'none' };

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
  context.locals.viewerPage = null;
  context.locals.viewerControls = null;
  context.locals.privateView = false;
  // Made at the first request (the launcher's warm-up), so it hears the first load of the pages.
  audienceBook();
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
    // Only the front's private relay sends this header (docs/private-pages.md): a gated page's
    // possible viewer, or a private route. Anything else never looks at the audiences.
    const privateClient = context.request.headers.get(PRIVATE_CLIENT_HEADER);
    const outcome = context.locals.data && !page && privateClient !== null ? await privateOutcome(context, privateClient) : NO_OUTCOME;
    if (outcome.kind !== 'none') context.locals.privateView = true;
    if (outcome.kind === 'view') {
      context.locals.viewerPage = outcome.page;
      context.locals.viewerControls = outcome.controls;
    }
    if (context.locals.data && !page && outcome.kind === 'none' && unknownSlug(context.locals.data.snapshot.pages, pathname) !== null) {
      // A page the data does not show yet: read the pages list (rate-limited) before the 404.
      await siteData().askForPages();
      context.locals.data = await siteData().get().catch(() => context.locals.data);
      page = context.locals.data ? findPageByHost(context.locals.data.snapshot.pages, context.request.headers.get('host')) : null;
    }
    if (outcome.kind === 'answer') {
      response = outcome.response;
    } else if (context.locals.unavailable) {
      response = await next('/unavailable');
    } else if (page && HOST_OUTPUT_PATHS.has(pathname)) {
      // robots.txt and sitemap.xml belong to the host: the domain's own, about its one page.
      context.locals.domainPage = page;
      response = await next();
    } else {
      // On its own domain a page lives at the root: /incidents/1 is /<slug>/incidents/1.
      if (page) context.locals.domainPage = page;
      const requested = outcome.kind === 'view' ? outcome.path : pathname;
      const target = page ? `/${encodeURIComponent(page.slug)}${requested === '/' ? '' : requested}` : requested;
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
  // A page for its audience alone: never framed elsewhere, kept by no cache, indexed by no engine.
  const privateView = context.locals.privateView;
  const frameAncestors = privateView ? 'none' : context.locals.frameAncestors;
  const csp = contentSecurityPolicy({ scripts: siteScriptHashes, styles: [...siteStylesheetHashes(siteConfig().theme), ...context.locals.cspStyles], frameAncestors, formOrigin: context.locals.formOrigin });
  for (const [name, value] of Object.entries(securityHeaders(csp, frameAncestors, privateView ? 'private' : undefined))) response.headers.set(name, value);
  if (privateView) for (const [name, value] of Object.entries(PRIVATE_HEADERS)) response.headers.set(name, value);
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
