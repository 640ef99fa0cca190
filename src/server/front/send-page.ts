/** The hot path's writer: a stored page to one visitor, every header worked out when it was stored. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesIfNoneMatch, negotiateCoding } from './encoding.ts';
import type { RenderedPage } from './rendered-page.ts';

/**
 * The variant the client accepts, or 304 when its If-None-Match names the page; bytes kept past
 * `freshMs` (a failing re-render) tell shared caches their age. HEAD gets the headers only.
 */
export function sendPage(request: IncomingMessage, response: ServerResponse, page: RenderedPage, now: number, freshMs: number): void {
  const variant = page.variants[negotiateCoding(request.headers['accept-encoding'])];
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, page.bodyHash)) {
    response.writeHead(304, variant.notModifiedHeaders);
    response.end();
    return;
  }
  const age = now - page.storedAt;
  // Only bytes kept past their freshness (a failing re-render) tell shared caches their age.
  const headers = age > freshMs ? { ...variant.headers, age: String(Math.floor(age / 1000)) } : variant.headers;
  response.writeHead(page.status, headers);
  response.end(request.method === 'HEAD' ? undefined : variant.body);
}
