/**
 * A rendered page as the front cache keeps it: the body once per content coding, compressed
 * once when stored, a hash for the validators, and the headers worth replaying.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { DATA_VERSION_HEADER } from '../../site/data/data-version.ts';
import { etagFor, type Coding } from './encoding.ts';

/** One representation, with every header it is sent with worked out once, when stored. */
export interface Variant {
  body: Buffer;
  headers: Record<string, string>;
  notModifiedHeaders: Record<string, string>;
}

export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  variants: Record<Coding, Variant>;
  bodyHash: string;
  storedAt: number;
  /** The status data version it was rendered from; null for pages that depend on none. */
  dataVersion: string | null;
}

/** Worth compressing; images other than SVG and fonts are compressed already. */
export const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|[a-z.-]+\+xml)|image\/svg\+xml)/;

/** Headers a 304 repeats (RFC 9110 15.4.5): validators and caching, nothing about the body. */
const NOT_MODIFIED_HEADERS = ['cache-control', 'content-location', 'expires'];

function variant(headers: Record<string, string>, body: Buffer, bodyHash: string, coding: Coding): Variant {
  const representation = { etag: etagFor(bodyHash, coding), vary: 'Accept-Encoding' };
  const notModified: Record<string, string> = { ...representation };
  for (const name of NOT_MODIFIED_HEADERS) if (headers[name] !== undefined) notModified[name] = headers[name];
  return {
    body,
    headers: {
      ...headers,
      ...representation,
      ...(coding === 'identity' ? {} : { 'content-encoding': coding }),
      'content-length': String(body.length),
    },
    notModifiedHeaders: notModified,
  };
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
  DATA_VERSION_HEADER,
]);

/** The headers to send again, with nosniff on everything (static files carry no site headers). */
export function replayableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = { 'x-content-type-options': 'nosniff' };
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

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Gzip at level 6 and Brotli at quality 5: most of the saving for a few milliseconds per page.
 * Asynchronous, so the compressing happens on libuv's thread pool, never on the serving thread.
 */
export async function encode(body: Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: 6 });
  if (coding === 'br') return brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return body;
}

export async function renderedPage(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  storedAt: () => number,
): Promise<RenderedPage> {
  const replayed = replayableHeaders(headers);
  const bodyHash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  const identity = variant(replayed, body, bodyHash, 'identity');
  const compressible = COMPRESSIBLE.test(replayed['content-type'] ?? '');
  const [gzipped, brotli] = compressible ? await Promise.all([encode(body, 'gzip'), encode(body, 'br')]) : [null, null];
  return {
    status,
    headers: replayed,
    variants: {
      identity,
      // Clients that accept compression get the plain bytes of what does not compress.
      gzip: gzipped ? variant(replayed, gzipped, bodyHash, 'gzip') : identity,
      br: brotli ? variant(replayed, brotli, bodyHash, 'br') : identity,
    },
    bodyHash,
    // Read once the bytes are ready: freshness counts from when the page can be served.
    storedAt: storedAt(),
    dataVersion: typeof headers[DATA_VERSION_HEADER] === 'string' ? headers[DATA_VERSION_HEADER] : null,
  };
}

export function pageSize(page: RenderedPage): number {
  const { identity, gzip, br } = page.variants;
  return identity.body.length + (gzip === identity ? 0 : gzip.body.length) + (br === identity ? 0 : br.body.length) + 1024;
}
