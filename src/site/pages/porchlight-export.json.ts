/**
 * The export index (view/export-index.ts), for the static exporter only: it carries a header the
 * front server never forwards from clients, and everyone else gets the site's plain 404.
 */
import type { APIRoute } from 'astro';
import { siteData } from '../data/site-data.ts';
import { exportIndex } from '../view/export-index.ts';
import { NO_STORE } from '../view/response-policy.ts';

export const GET: APIRoute = ({ locals, rewrite }) => {
  if (!locals.exporting || !locals.data || locals.domainPage) return rewrite('/404');
  const body = exportIndex(locals.data.snapshot, { stale: locals.data.stale, apiRequests: siteData().apiRequests() });
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'cache-control': NO_STORE } });
};
