/** Every inline script a page of the site may carry: the CSP allows these and nothing else. */
import { enhanceScript } from './enhance.ts';
import { statusFirstScript } from './status-first.ts';

export const siteScriptHashes: readonly string[] = [enhanceScript.hash, statusFirstScript.hash];
