import { describe, expect, it } from 'vitest';
import { planTrees } from '../../src/export/plan.ts';
import { componentBadgePath, HOST_OUTPUTS, PAGE_OUTPUTS } from '../../src/site/view/page-outputs.ts';
import type { ExportIndex } from '../../src/site/view/export-index.ts';

const index = (pages: ExportIndex['pages']): ExportIndex => ({ dataVersion: '1', stale: false, apiRequests: 7, pages });

describe('planTrees', () => {
  it('puts the index and every page below its slug in the main tree, with every output of PAGE_OUTPUTS and each monitor badge', () => {
    const [main, ...others] = planTrees(index([{ slug: 'acme', customDomain: null, monitorIds: ['m1', 'm2'] }]), { mainHost: 'localhost', basePath: '/status' }, () => undefined);
    expect(others).toEqual([]);
    expect(main).toMatchObject({ folder: '', address: { host: 'localhost', basePath: '/status' } });
    expect(main!.roots.pages).toEqual(['/', '/acme/']);
    expect(main!.roots.outputs).toEqual([
      '/robots.txt',
      '/sitemap.xml',
      ...[...Object.values(PAGE_OUTPUTS), componentBadgePath('m1'), componentBadgePath('m2')].map((output) => `/acme/${output}`),
    ]);
    expect(Object.values(HOST_OUTPUTS)).toEqual(['robots.txt', 'sitemap.xml']);
  });

  it('gives each custom domain a tree of its own at its root, never below the base path', () => {
    const trees = planTrees(index([{ slug: 'acme', customDomain: 'status.acme.com', monitorIds: ['m1'] }, { slug: 'beta', customDomain: null, monitorIds: [] }]), { mainHost: 'localhost', basePath: '/status' }, () => undefined);
    expect(trees.map((tree) => [tree.folder, tree.address])).toEqual([
      ['', { host: 'localhost', basePath: '/status' }],
      ['domains/status.acme.com', { host: 'status.acme.com', basePath: '' }],
    ]);
    expect(trees[1]!.roots.pages).toEqual(['/']);
    expect(trees[1]!.roots.outputs).toContain(`/${componentBadgePath('m1')}`);
    // The domain's own robots.txt, sitemap and card, at its root.
    expect(trees[1]!.roots.outputs).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap.xml', '/card.png', '/favicon.svg', '/favicon.png']));
    expect(trees[0]!.roots.pages).toEqual(['/', '/acme/', '/beta/']);
  });

  it('leaves out, with a warning, a domain that is not a plain host name', () => {
    const warnings: string[] = [];
    const trees = planTrees(index([{ slug: 'acme', customDomain: '../../etc', monitorIds: [] }]), { mainHost: 'localhost', basePath: '' }, (message) => warnings.push(message));
    expect(trees).toHaveLength(1);
    expect(warnings).toEqual([expect.stringContaining('not a plain host name')]);
  });
});
