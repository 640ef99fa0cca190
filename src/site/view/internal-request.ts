/**
 * Request headers only the static exporter (src/export/) sends, talking to the site on its
 * internal loopback port. The front server never forwards them from a client (see
 * src/server/front/hop-by-hop.ts), so a visitor can neither move a page's links nor read the
 * exporter's index.
 */

/** The path the whole site is published under, e.g. `/status`; absent: the root. */
export const BASE_PATH_HEADER = 'x-porchlight-base-path';
/** Marks the exporter's own requests (the export index answers only them). */
export const EXPORT_HEADER = 'x-porchlight-export';

/** Marks the console's preview requests (src/site/preview/preview-request.ts). */
export const PREVIEW_REQUEST_HEADER = 'x-porchlight-preview';

/** The client's address, set only by the front's private relay (pages with an audience, docs/private-pages.md). */
export const PRIVATE_CLIENT_HEADER = 'x-porchlight-private-client';
export const INTERNAL_HEADERS: readonly string[] = [BASE_PATH_HEADER, EXPORT_HEADER, PREVIEW_REQUEST_HEADER, PRIVATE_CLIENT_HEADER];

/** Path segments safe to write unescaped in links and on any static host. */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/**
 * A base path as links use it: '' for the root, else `/a` or `/a/b` (no trailing slash); null when
 * it is not a plain path of safe segments (no dot segments, no encoding, no query).
 */
export function normalizeBasePath(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return '';
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!trimmed.startsWith('/') || trimmed.length > 200) return null;
  const segments = trimmed.slice(1).split('/');
  return segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..') ? trimmed : null;
}
