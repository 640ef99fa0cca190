/**
 * Whether a request names a status page the data does not show: then the site reads its pages
 * list again before answering 404 (at most once per 10 s for all such requests, see
 * data/pages-freshness.ts), so a page created or made public a moment ago is served on its
 * first visit. Only a path whose first segment could be a slug counts: the site's own files
 * (`/robots.txt`, `/_astro/…`) never ask.
 */
import type { StatusPage } from '../../contract/index.ts';
import { findPageBySlug } from './routing.ts';

/** The slug rule of the API (contract/status-page.ts), for one path segment. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The first path segment when it reads as a slug no public page has; null otherwise. */
export function unknownSlug(pages: readonly StatusPage[], pathname: string): string | null {
  const segment = /^\/([^/]*)/.exec(pathname)?.[1] ?? '';
  if (segment.length === 0 || segment.length > 64 || !SLUG.test(segment)) return null;
  return findPageBySlug(pages, segment) === null ? segment : null;
}
