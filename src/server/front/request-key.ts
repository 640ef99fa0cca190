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

export function cacheKey(request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const url = request.url ?? '/';
  if (!url.startsWith('/')) return null;
  const key = `${normalizeHostHeader(request.headers.host)} ${url}`;
  // Bounded keys keep one client from filling the cache with megabyte-long URLs.
  return key.length <= MAX_KEY_LENGTH ? key : null;
}
