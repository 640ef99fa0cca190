/**
 * A status page's status before the rest of it (issue 34). Placed right after the status banner,
 * this script does nothing; being a script is its job. Chromium's HTML parser considers yielding
 * to the event loop after it runs a script, and only at such points: a page that arrives in one
 * piece (a fast network, or DevTools' throttling, which hands over the whole body at once) is
 * otherwise parsed to its end before the first frame, so on a slow phone the status waited for
 * every card, list and footer below it to be parsed and styled. With this yield point the first
 * frame can hold the header and the status, and the rest follows in the next frames. On a fast
 * machine the parser's budget is not spent there, it does not yield, and nothing changes.
 * Measured in docs/benchmarks.md ("Fifth pass"). Without JavaScript the page is as before.
 */
import { inlineScript, type InlineScript } from './inline-script.ts';

export const statusFirstScript: InlineScript = inlineScript('/*status first*/');
