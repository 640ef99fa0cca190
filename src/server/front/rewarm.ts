/**
 * The first visitor after a change sees it: when the site announces new data, the stored pages
 * that visitors asked for in the last few minutes are re-rendered at once, a few at a time,
 * instead of going out once more with the old bytes to the next visitor who asks. Bounded: only
 * pages requested within `windowMs`, at most `maxPages` per change (the most recently requested
 * first), `concurrency` renders at a time on the site's thread. A newer change cancels what is
 * left of the previous run.
 */

/** What the rewarm needs of a stored page. */
export interface Rewarmable {
  /** The data version it was rendered from; null for pages that depend on no data. */
  dataVersion: string | null;
  /** When it last answered a visitor (coarse clock, epoch ms). */
  servedAt: number;
}

export interface RewarmOptions {
  windowMs: number;
  maxPages: number;
  concurrency: number;
}

/** Keys of the pages worth re-rendering for `version`: recently asked for and from older data. */
export function pagesToRewarm(entries: Iterable<[string, Rewarmable]>, version: string, now: number, options: Pick<RewarmOptions, 'windowMs' | 'maxPages'>): string[] {
  const picked: [string, number][] = [];
  for (const [key, page] of entries) {
    if (page.dataVersion === null || page.dataVersion === version) continue;
    if (now - page.servedAt > options.windowMs) continue;
    picked.push([key, page.servedAt]);
  }
  picked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return picked.slice(0, options.maxPages).map(([key]) => key);
}

export interface RewarmRun {
  pages: number;
  rendered: number;
  ms: number;
  cancelled: boolean;
}

/**
 * Runs `render` for each key, `concurrency` at a time; `cancelled()` is asked before each one.
 * A failing render is the cache's to handle (it keeps the old bytes): the run goes on.
 */
export async function rewarm(keys: readonly string[], concurrency: number, render: (key: string) => Promise<unknown>, cancelled: () => boolean): Promise<RewarmRun> {
  const started = performance.now();
  let next = 0;
  let rendered = 0;
  const lane = async () => {
    while (next < keys.length && !cancelled()) {
      const key = keys[next]!;
      next += 1;
      await render(key).then(
        () => (rendered += 1),
        () => undefined,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, lane));
  return { pages: keys.length, rendered, ms: Math.round(performance.now() - started), cancelled: cancelled() };
}
