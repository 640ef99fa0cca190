/**
 * A rendered page as the front cache keeps it: the body once per content coding, compressed
 * once when stored, a hash for the validators, and the headers worth replaying.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Coding } from './encoding.ts';

export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  bodies: Record<Coding, Buffer>;
  bodyHash: string;
  storedAt: number;
}

/** Hop-by-hop and per-representation headers that the cache sets itself. */
const NOT_REPLAYED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
  'etag',
  'age',
  'vary',
  'set-cookie',
]);

export function replayableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_REPLAYED.has(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/** Only what the site itself marks public is kept: a 200 with `Cache-Control: public` and no cookie. */
export function isStorable(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  return status === 200 && /\bpublic\b/.test(cacheControl) && !/\b(no-store|private)\b/.test(cacheControl) && headers['set-cookie'] === undefined;
}

export function renderedPage(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  storedAt: number,
): RenderedPage {
  return {
    status,
    headers: replayableHeaders(headers),
    bodies: {
      identity: body,
      gzip: gzipSync(body, { level: 6 }),
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    },
    bodyHash: createHash('sha256').update(body).digest('base64url').slice(0, 32),
    storedAt,
  };
}

export function pageSize(page: RenderedPage): number {
  return page.bodies.identity.length + page.bodies.gzip.length + page.bodies.br.length + 1024;
}
