/**
 * The headers an object carries: those the server sends for the same path. They are taken from
 * the site's own answer during the crawl (src/export/crawl.ts), the very headers the front server
 * replays, so there is no second table of types or cache lifetimes to keep in step. One
 * difference, decided beside the server's own policy (bucketCacheControl): a public answer may be
 * served stale from a bucket, where the server says must-revalidate.
 */
import type { FileAnswer } from '../crawl.ts';
import { bucketCacheControl } from '../../site/view/response-policy.ts';

export interface ObjectHeaders {
  contentType: string;
  cacheControl?: string;
  contentLanguage?: string;
  /** x-amz-website-redirect-location: a bucket's website endpoint answers the key with a 301 there. */
  redirect?: string;
}

/** When the site named no type (it always does for its own routes). */
const FALLBACK_TYPE = 'application/octet-stream';

export function objectHeaders(answer: FileAnswer | undefined, maxStaleSeconds: number): ObjectHeaders {
  const headers = answer?.headers ?? {};
  const picked: ObjectHeaders = { contentType: headers['content-type'] ?? FALLBACK_TYPE };
  if (headers['cache-control']) picked.cacheControl = bucketCacheControl(headers['cache-control'], maxStaleSeconds);
  if (headers['content-language']) picked.contentLanguage = headers['content-language'];
  if (answer?.redirect) picked.redirect = answer.redirect;
  return picked;
}

/** The same headers, in a stable form that the bucket's manifest records and compares. */
export function headersFingerprint(headers: ObjectHeaders): string {
  return JSON.stringify([headers.contentType, headers.cacheControl ?? null, headers.contentLanguage ?? null, headers.redirect ?? null]);
}
