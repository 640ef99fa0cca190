/**
 * The site's whole stylesheet (global.css as built: about 20 KB, 4 KB gzipped), written into each
 * page's <head> instead of linked: a linked stylesheet is a second render-blocking request, one
 * more round trip before the status can be drawn (issue 17 item 8: on a slow network the page
 * waited ~400 ms for it after its HTML had arrived). Allowed by its hash, in the CSP header
 * (middleware) and the page's <meta> (DocumentHead), so style-src stays strict.
 */
import { sha256Source } from '../security/csp.ts';
import css from './global.css?inline';

export const siteStylesheet: { readonly text: string; readonly hash: string } = { text: css, hash: sha256Source(css) };
