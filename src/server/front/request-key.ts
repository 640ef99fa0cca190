/**
 * Which requests the front cache may answer, and under which key: GET and HEAD only, keyed by
 * the Host (lower-cased, port dropped: the site routes by host name) and the path with query.
 */
import type { IncomingMessage } from 'node:http';

const MAX_KEY_LENGTH = 2048;

export function normalizeHostHeader(host: string | undefined): string {
  const value = (host ?? '').trim().toLowerCase();
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0] ?? '';
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The only query parameter the site reads (the history page's month). */
const MEANINGFUL_PARAMS = ['month'];

/**
 * The path with only the query parameters the site renders by, so `?utm_source=…` or a
 * cache-busting `?x=123` neither splits the cache nor fills it.
 */
export function canonicalPath(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  const kept = new URLSearchParams();
  for (const name of MEANINGFUL_PARAMS) {
    const value = params.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${url.slice(0, queryAt)}?${query}` : url.slice(0, queryAt);
}

export interface CacheTarget {
  key: string;
  /** What is rendered and stored under the key. */
  path: string;
}

export function cacheTarget(request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): CacheTarget | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const url = request.url ?? '/';
  if (!url.startsWith('/') || url.length > MAX_KEY_LENGTH) return null;
  const path = canonicalPath(url);
  // Bounded keys keep one client from filling the cache with megabyte-long URLs.
  return { key: `${normalizeHostHeader(request.headers.host)} ${path}`, path };
}
