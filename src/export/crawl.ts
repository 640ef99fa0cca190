/**
 * One tree of the export (the main host, or a page's custom domain): every address a visitor can
 * reach from its roots, fetched from the site and laid out as files. Pages are read for their
 * links, stylesheets for their url()s; machine-readable outputs are fetched by name (PAGE_OUTPUTS).
 */
import { exportFilePath } from './file-path.ts';
import { classifyReference, cssReferences, htmlReferences, type TreeAddress } from './links.ts';
import { redirectPage, REDIRECT_PAGE_TYPE } from './redirect-page.ts';
import { EXPORT_INDEX_PATH } from '../site/view/export-index.ts';
import type { SiteClient } from './site-client.ts';

export interface TreeRoots {
  /** Pages to start from, e.g. '/' and '/acme/'. */
  pages: string[];
  /** Machine-readable outputs by request path, e.g. '/acme/history.atom'. */
  outputs: string[];
}

/** What the site answered with a file, for a copy that carries headers (an object store's). */
export interface FileAnswer {
  /** The site's response headers, names in lower case. */
  headers: Record<string, string>;
  /** Set when the file stands for a redirect: where it sends the browser (as the page links it). */
  redirect?: string;
}

/** The site has no status data it may show (its 503): nothing of this export can be trusted. */
export class DataUnavailableError extends Error {
  override name = 'DataUnavailableError';
}

/** Where a tree's branded "not found" page is fetched from and written to (what static hosts look for). */
export const NOT_FOUND_PATH = '/404.html';

/** Bounds one tree, so a runaway link pattern cannot fill the disk. */
const MAX_FILES = 50_000;
const CONCURRENCY = 4;

interface Job {
  path: string;
  kind: 'page' | 'output' | 'not-found';
  /** The page that linked it, for messages. */
  from: string | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function isHtml(contentType: string | undefined): boolean {
  return /^text\/html\b/i.test(contentType ?? '');
}

function isCss(contentType: string | undefined): boolean {
  return /^text\/css\b/i.test(contentType ?? '');
}

/**
 * Fetches the tree and returns its files (folder-relative paths to bytes). Problems that leave a
 * link dead or a file out are reported through `warn`; a 503 or an unexpected answer throws, and
 * then nothing of this pass is written.
 */
export async function crawlTree(
  client: SiteClient,
  tree: TreeAddress,
  roots: TreeRoots,
  warn: (message: string) => void,
  /** Filled with the answer behind each file, when given. */
  answers?: Map<string, FileAnswer>,
): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const seen = new Set<string>();
  const queue: Job[] = [];
  const enqueue = (job: Job): void => {
    // The exporter's own index answers only the exporter: an owner's link to it is not followed.
    if (seen.has(job.path) || job.path === EXPORT_INDEX_PATH) return;
    seen.add(job.path);
    queue.push(job);
  };
  const label = (job: Job): string => `${tree.host}${tree.basePath}${job.path}${job.from === null ? '' : ` (linked from ${tree.basePath}${job.from})`}`;
  const add = (file: string, body: Buffer, job: Job, answer: FileAnswer): void => {
    const existing = files.get(file);
    if (existing && !existing.equals(body)) warn(`${label(job)} and another address give different ${file}; the first is kept`);
    if (!existing) {
      files.set(file, body);
      answers?.set(file, answer);
    }
    if (files.size > MAX_FILES) throw new Error(`more than ${MAX_FILES} files in one tree`);
  };
  const follow = (references: string[], job: Job): void => {
    for (const reference of references) {
      const target = classifyReference(reference, job.path, tree);
      if (target.kind === 'internal') enqueue({ path: target.path, kind: 'page', from: job.path });
      else if (target.kind === 'unexportable') warn(`${label(job)}: ${target.reason}`);
    }
  };

  async function visit(job: Job): Promise<void> {
    const response = await client.get(job.path, tree);
    const contentType = response.headers['content-type'];
    if (response.status === 503) throw new DataUnavailableError('the site has no status data it may show (is the API reachable?)');
    if (job.kind === 'not-found') {
      if (response.status !== 404) throw new Error(`${label(job)} answered ${response.status}, not the 404 page`);
      add(NOT_FOUND_PATH.slice(1), response.body, job, { headers: response.headers });
      return;
    }
    if (response.status === 200) {
      const file = exportFilePath(job.path, contentType);
      if (file === null) {
        warn(`${label(job)} cannot be a file name; left out`);
        return;
      }
      add(file, response.body, job, { headers: response.headers });
      if (isHtml(contentType)) follow(htmlReferences(response.body.toString('utf8')), job);
      else if (isCss(contentType)) follow(cssReferences(response.body.toString('utf8')), job);
      return;
    }
    if (REDIRECTS.has(response.status) && response.headers.location) {
      const target = classifyReference(response.headers.location, job.path, tree);
      const file = exportFilePath(job.path, 'text/html');
      if (target.kind !== 'internal' || file === null) {
        warn(`${label(job)} redirects to ${response.headers.location}, which the export cannot follow; left out`);
        return;
      }
      const location = `${tree.basePath}${target.path}`;
      add(file, Buffer.from(redirectPage(location)), job, { headers: { ...response.headers, 'content-type': REDIRECT_PAGE_TYPE }, redirect: location });
      enqueue({ path: target.path, kind: 'page', from: job.path });
      return;
    }
    // Every output a page publishes has a route (PAGE_OUTPUTS): a 404 there is a broken site.
    if (response.status === 404 && job.kind === 'output') throw new Error(`${label(job)} answered 404, but every page publishes it`);
    if (response.status === 404) {
      warn(`${label(job)} answered 404: a dead link, left out`);
      return;
    }
    throw new Error(`${label(job)} answered ${response.status}`);
  }

  enqueue({ path: NOT_FOUND_PATH, kind: 'not-found', from: null });
  for (const path of roots.pages) enqueue({ path, kind: 'page', from: null });
  for (const path of roots.outputs) enqueue({ path, kind: 'output', from: null });

  await new Promise<void>((resolve, reject) => {
    let active = 0;
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      if (queue.length === 0 && active === 0) return resolve();
      while (active < CONCURRENCY && queue.length > 0) {
        const job = queue.shift()!;
        active += 1;
        visit(job).then(
          () => {
            active -= 1;
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    pump();
  });
  return files;
}
