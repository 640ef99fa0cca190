/**
 * Every request: load the current snapshot (from memory, see data/site-data.ts), route a
 * custom domain's Host to its page, and put the security headers on whatever is answered.
 */
import { defineMiddleware } from 'astro:middleware';
import { DATA_VERSION_HEADER, dataVersionOf } from './data/data-version.ts';
import { siteData } from './data/site-data.ts';
import { SnapshotUnavailableError } from './data/snapshot-cache.ts';
import { enhanceScript } from './scripts/enhance.ts';
import { contentSecurityPolicy, securityHeaders } from './security/csp.ts';
import { findPageByHost } from './view/routing.ts';

/** Paths answered without status data (readiness asks for it itself, without waiting). */
const WITHOUT_DATA = new Set(['/healthz', '/readyz']);

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.data = null;
  context.locals.unavailable = null;
  context.locals.domainPage = null;
  context.locals.cspStyles = [];
  context.locals.frameAncestors = 'none';

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
    const page = context.locals.data ? findPageByHost(context.locals.data.snapshot.pages, context.request.headers.get('host')) : null;
    if (context.locals.unavailable) {
      response = await next('/unavailable');
    } else if (page) {
      // On its own domain a page lives at the root: /incidents/1 is /<slug>/incidents/1.
      context.locals.domainPage = page;
      const inner = pathname === '/' ? '' : pathname;
      response = await next(new URL(`/${encodeURIComponent(page.slug)}${inner}${search}`, context.url));
    } else {
      response = await next();
    }
  }

  if (context.locals.data) response.headers.set(DATA_VERSION_HEADER, dataVersionOf(context.locals.data.snapshot.fetchedAt));
  const { frameAncestors } = context.locals;
  const csp = contentSecurityPolicy({ scripts: [enhanceScript.hash], styles: context.locals.cspStyles, frameAncestors });
  for (const [name, value] of Object.entries(securityHeaders(csp, frameAncestors))) response.headers.set(name, value);
  return response;
});
