/**
 * An export pass (render in memory, then write what changed) and the --watch loop around it.
 * The loop asks the site for its export index about once a second; that request goes through the
 * site's own data cache, so the API sees exactly what a running server would cause (one refresh
 * per CACHE_FRESH_SECONDS at most, backing off while it fails). A new data version, or the data
 * turning stale or live again, starts a pass; a failed pass keeps the files of the last good one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportIndex } from '../site/view/export-index.ts';
import { DataUnavailableError } from './crawl.ts';
import { readExportIndex, renderExport, type RenderedExport } from './render.ts';
import type { ExportSite } from './site-runner.ts';
import { summaryLine } from './summary.ts';
import { writeExport, type WriteResult } from './writer.ts';

export interface PassOptions {
  outDir: string;
  basePath: string;
  mainHost: string;
  warn: (message: string) => void;
}

export interface PassOutcome {
  index: ExportIndex;
  result: WriteResult;
  line: string;
  /** The files of the pass in memory, with the site's answers (what a publisher uploads). */
  rendered: RenderedExport;
}

/**
 * `counted`: the site's API request count when the previous summary was printed, and the
 * requests this process made itself since then.
 */
export async function exportPass(site: ExportSite, options: PassOptions, counted: { siteRequests: number; ownRequests: number }): Promise<PassOutcome> {
  const started = performance.now();
  const rendered = await renderExport(site.client, options);
  const result = await writeExport(options.outDir, rendered.files);
  const line = summaryLine({
    pages: rendered.index.pages.length,
    domains: rendered.domains.length,
    outDir: options.outDir,
    result,
    apiRequests: rendered.index.apiRequests - counted.siteRequests + counted.ownRequests,
    milliseconds: performance.now() - started,
    stale: rendered.index.stale,
    subscribeFormLeftOut: site.subscribeFormLeftOut,
  });
  return { index: rendered.index, result, line, rendered };
}

export const WATCH_PROBE_MS = 1_000;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function watchExports(
  site: ExportSite,
  options: PassOptions,
  first: PassOutcome,
  signal: AbortSignal,
  say: (line: string) => void,
  /** Runs after each pass (publishing it); a failure is reported once and tried again, backing off. */
  afterPass?: (pass: PassOutcome) => Promise<void>,
): Promise<void> {
  let exported = first.index;
  /** The site's request count at the last printed summary: each line counts the requests since. */
  let printedAt = first.index.apiRequests;
  let problem: string | null = null;
  /** Says a failure once, and once that it is over, rather than every second. */
  const report = (message: string | null): void => {
    if (message === problem) return;
    if (message !== null) options.warn(`${message}; keeping the last export`);
    else if (problem !== null) options.warn('exporting again');
    problem = message;
  };
  /** The last pass, until afterPass has succeeded for it; retried without exporting again. */
  let owed: PassOutcome | null = null;
  let failures = 0;
  let retryAt = 0;
  let afterProblem: string | null = null;
  const settle = async (): Promise<void> => {
    if (owed === null || afterPass === undefined || Date.now() < retryAt) return;
    try {
      await afterPass(owed);
      owed = null;
      failures = 0;
      if (afterProblem !== null) options.warn('publishing again');
      afterProblem = null;
    } catch (error) {
      failures += 1;
      const waitMs = Math.min(AFTER_PASS_MAX_BACKOFF_MS, WATCH_PROBE_MS * 2 ** failures);
      retryAt = Date.now() + waitMs;
      const message = describe(error);
      if (message !== afterProblem) options.warn(`${message}; trying again, less often while it fails`);
      afterProblem = message;
    }
  };
  while (!signal.aborted) {
    await sleep(WATCH_PROBE_MS, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) break;
    try {
      const probe = await readExportIndex(site.client, options.mainHost);
      if (probe.dataVersion === exported.dataVersion && probe.stale === exported.stale) {
        report(null);
        await settle();
        continue;
      }
      const pass = await exportPass(site, options, { siteRequests: printedAt, ownRequests: 0 });
      report(null);
      if (pass.result.written.length + pass.result.removed.length > 0 || pass.index.stale !== exported.stale) {
        say(pass.line);
        printedAt = pass.index.apiRequests;
      }
      exported = pass.index;
      // A newer pass replaces one still owed; while afterPass fails, it waits for the next attempt.
      owed = afterPass ? pass : null;
      await settle();
    } catch (error) {
      report(error instanceof DataUnavailableError ? 'the site has no status data it may show (the API has failed for longer than CACHE_MAX_STALE_SECONDS, or never answered)' : describe(error));
    }
  }
}

/** The longest wait between attempts of a failing afterPass (a bucket that is down). */
export const AFTER_PASS_MAX_BACKOFF_MS = 60_000;
