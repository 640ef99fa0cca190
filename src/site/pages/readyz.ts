import type { APIRoute } from 'astro';
import { siteData } from '../data/site-data.ts';

const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/**
 * Readiness for load balancers: 200 when pages can be shown (fresh data, or stale data still
 * young enough, restored from disk included), 503 otherwise. Never waits on the API.
 */
export const GET: APIRoute = () =>
  siteData().ready() ? new Response('ready\n', { headers }) : new Response('not ready: no status data to show yet\n', { status: 503, headers });

export const HEAD = GET;
