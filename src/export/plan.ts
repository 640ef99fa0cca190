/**
 * Which trees one export writes, from the site's export index: the main host's tree at the
 * folder's root (the index of public pages, each page below its slug), and one tree per custom
 * domain under domains/<domain>/, laid out for that domain's root. The machine-readable outputs
 * come from PAGE_OUTPUTS, the one list the routes and the page's links also use, and each tree
 * has the host's own HOST_OUTPUTS (robots.txt, sitemap.xml) at its root.
 */
import { componentBadgePath, HOST_OUTPUTS, PAGE_OUTPUTS } from '../site/view/page-outputs.ts';
import type { ExportIndex } from '../site/view/export-index.ts';
import type { TreeAddress } from './links.ts';
import type { TreeRoots } from './crawl.ts';

export interface TreePlan {
  /** '' for the main tree, `domains/<domain>` for a custom domain's. */
  folder: string;
  address: TreeAddress;
  roots: TreeRoots;
}

/** A host name that is safe as a folder name and a Host header. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** robots.txt and sitemap.xml, at each tree's own root (about the pages that tree serves). */
const hostOutputs = (): string[] => Object.values(HOST_OUTPUTS).map((output) => `/${output}`);

function outputsBelow(root: string, monitorIds: readonly string[]): string[] {
  return [...Object.values(PAGE_OUTPUTS), ...monitorIds.map(componentBadgePath)].map((output) => `${root}${output}`);
}

export function planTrees(index: ExportIndex, options: { mainHost: string; basePath: string }, warn: (message: string) => void): TreePlan[] {
  const main: TreePlan = {
    folder: '',
    address: { host: options.mainHost, basePath: options.basePath },
    roots: { pages: ['/'], outputs: hostOutputs() },
  };
  const domains: TreePlan[] = [];
  for (const page of index.pages) {
    const root = `/${encodeURIComponent(page.slug)}/`;
    main.roots.pages.push(root);
    main.roots.outputs.push(...outputsBelow(root, page.monitorIds));
    if (page.customDomain === null) continue;
    if (!DOMAIN.test(page.customDomain)) {
      warn(`the custom domain ${JSON.stringify(page.customDomain)} of page ${page.slug} is not a plain host name; its tree is left out`);
      continue;
    }
    domains.push({
      folder: `domains/${page.customDomain}`,
      // A domain's tree is published as that domain's own site, at its root.
      address: { host: page.customDomain, basePath: '' },
      roots: { pages: ['/'], outputs: [...hostOutputs(), ...outputsBelow('/', page.monitorIds)] },
    });
  }
  return [main, ...domains];
}
