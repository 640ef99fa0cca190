/**
 * One export pass in memory: ask the site which pages there are, fetch every tree, and check that
 * the status data did not change meanwhile (a page and the incident it links must come from the
 * same snapshot). Nothing is written here: a pass that fails leaves the folder as it was.
 */
import { EXPORT_INDEX_PATH, exportIndexSchema, type ExportIndex } from '../site/view/export-index.ts';
import { crawlTree, DataUnavailableError, type FileAnswer } from './crawl.ts';
import type { TreeAddress } from './links.ts';
import { planTrees } from './plan.ts';
import type { SiteClient } from './site-client.ts';

export interface RenderedExport {
  /** Folder-relative path to bytes. */
  files: Map<string, Buffer>;
  /** The site's answer behind each file (same keys as files). */
  answers: Map<string, FileAnswer>;
  index: ExportIndex;
  /** Custom domains that got a tree of their own. */
  domains: string[];
}

export interface RenderOptions {
  /** The Host the main tree is rendered for (SITE_PUBLIC_URL's, else localhost). */
  mainHost: string;
  basePath: string;
  warn: (message: string) => void;
  /** Attempts when the data changes during a pass. */
  attempts?: number;
  /** Pause before another attempt, giving the site's refresh time to land. */
  retryDelayMs?: number;
}

export class DataChangedError extends Error {
  override name = 'DataChangedError';
}

/** The site's export index: which pages, which data version, how many API requests so far. */
export async function readExportIndex(client: SiteClient, mainHost: string): Promise<ExportIndex> {
  const address: TreeAddress = { host: mainHost, basePath: '' };
  const response = await client.get(EXPORT_INDEX_PATH, address);
  if (response.status === 503) throw new DataUnavailableError('the site has no status data it may show (is the API reachable?)');
  if (response.status === 404) throw new Error(`the site does not answer the exporter on ${mainHost} (is SITE_PUBLIC_URL a page's custom domain?)`);
  if (response.status !== 200) throw new Error(`the export index answered ${response.status}`);
  return exportIndexSchema.parse(JSON.parse(response.body.toString('utf8')));
}

const sameData = (a: ExportIndex, b: ExportIndex): boolean => a.dataVersion === b.dataVersion && a.stale === b.stale;

export async function renderExport(client: SiteClient, options: RenderOptions): Promise<RenderedExport> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt += 1) {
    const before = await readExportIndex(client, options.mainHost);
    const warnings: string[] = [];
    const trees = planTrees(before, { mainHost: options.mainHost, basePath: options.basePath }, (message) => warnings.push(message));
    const files = new Map<string, Buffer>();
    const answers = new Map<string, FileAnswer>();
    for (const tree of trees) {
      const treeAnswers = new Map<string, FileAnswer>();
      const treeFiles = await crawlTree(client, tree.address, tree.roots, (message) => warnings.push(message), treeAnswers);
      const inFolder = (file: string): string => (tree.folder ? `${tree.folder}/${file}` : file);
      for (const [file, body] of treeFiles) files.set(inFolder(file), body);
      for (const [file, answer] of treeAnswers) answers.set(inFolder(file), answer);
    }
    const after = await readExportIndex(client, options.mainHost);
    if (sameData(before, after)) {
      for (const message of warnings) options.warn(message);
      return { files, answers, index: after, domains: trees.flatMap((tree) => (tree.folder ? [tree.address.host] : [])) };
    }
    if (attempt >= attempts) throw new DataChangedError(`the status data changed during each of ${attempts} attempts; try a longer CACHE_FRESH_SECONDS`);
    await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs ?? 250));
  }
}
