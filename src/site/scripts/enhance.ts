/**
 * The one inline script of the site, with the CSP hash that allows it. The source is enhance.js
 * minified at build time (see minify-inline.ts: the comments stay in the file, not in every page);
 * the hash is computed from the exact text the layout inlines, so the two cannot drift apart.
 */
import { createHash } from 'node:crypto';
import source from './enhance.js?minified';

export interface InlineScript {
  source: string;
  /** CSP source expression, e.g. `'sha256-…'`, for `script-src`. */
  hash: string;
}

export const enhanceScript: InlineScript = {
  source,
  hash: `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`,
};
