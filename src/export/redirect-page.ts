/**
 * What a static file says where the server answers a redirect (the index when there is exactly
 * one public page): a static host cannot send a 302, so the page sends the browser on with a
 * refresh, and names the address for people and crawlers.
 */
import { escapeMarkup } from '../site/lib/markup.ts';

export function redirectPage(location: string): string {
  const href = escapeMarkup(location);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Status</title><meta http-equiv="refresh" content="0; url=${href}"><link rel="canonical" href="${href}"></head><body><main><p><a href="${href}">Go to the status page</a></p></main></body></html>\n`;
}

/** The content type of that page (the site's 302 has no body, so no type of its own). */
export const REDIRECT_PAGE_TYPE = 'text/html; charset=utf-8';
