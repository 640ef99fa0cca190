/**
 * The site's enhancement script, with the CSP hash that allows it. The source is enhance.js
 * minified at build time (see minify-inline.ts: the comments stay in the file, not in every page);
 * the hash is computed from the exact text the layout inlines, so the two cannot drift apart.
 */
import source from './enhance.js?minified';
import { inlineScript, type InlineScript } from './inline-script.ts';

export const enhanceScript: InlineScript = inlineScript(source);
