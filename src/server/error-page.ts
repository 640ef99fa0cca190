/** A last-resort error answer when the site itself cannot render: no stack, no details. */
import type { ServerResponse } from 'node:http';

const TITLES: Record<number, string> = {
  500: 'Something went wrong',
  503: 'Status temporarily unavailable',
};

export function errorPage(res: ServerResponse, status: 500 | 503, retryAfterSeconds?: number): void {
  const title = TITLES[status] ?? 'Error';
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>Please try again in a moment.</p></main></body></html>`;
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  if (retryAfterSeconds !== undefined) res.setHeader('retry-after', String(retryAfterSeconds));
  res.end(body);
}
