import type { APIRoute } from 'astro';

/** Liveness for load balancers: answers without touching the API. */
export const GET: APIRoute = () =>
  new Response('ok\n', { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

export const HEAD = GET;
