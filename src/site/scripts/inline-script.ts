/** An inline script of the site and the CSP source expression that allows exactly its text. */
import { sha256Source } from '../security/csp.ts';

export interface InlineScript {
  source: string;
  /** CSP source expression, e.g. `'sha256-…'`, for `script-src`. */
  hash: string;
}

export function inlineScript(source: string): InlineScript {
  return { source, hash: sha256Source(source) };
}
