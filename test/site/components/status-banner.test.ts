import { describe, expect, it } from 'vitest';
import StatusBanner from '../../../src/site/components/StatusBanner.astro';
import { OVERALL_LABELS, overall } from './fixtures.ts';
import { cspOffenders, render } from './render.ts';
import { statusFirstScript } from '../../../src/site/scripts/status-first.ts';
import { siteScriptHashes } from '../../../src/site/scripts/site-scripts.ts';
import { contentSecurityPolicy } from '../../../src/site/security/csp.ts';
import type { StatusLevel } from '../../../src/site/view/types.ts';

const SHAPES: Record<StatusLevel, string> = {
  operational: 'operational',
  degraded: 'degraded',
  partial_outage: 'partial-outage',
  major_outage: 'major-outage',
  maintenance: 'maintenance',
};

describe('StatusBanner', () => {
  for (const level of Object.keys(SHAPES) as StatusLevel[]) {
    it(`tells "${OVERALL_LABELS[level]}" in words, with its own shape, as a status region`, async () => {
      const html = await render(StatusBanner, { overall: overall(level) });
      expect(html).toContain(`>${OVERALL_LABELS[level]}</p>`);
      expect(html).toMatch(/<div class="pl-banner" role="status"/);
      expect(html).toContain(`data-level="${level}"`);
      expect(html).toContain(`data-shape="${SHAPES[level]}"`);
      expect(html).toContain('aria-hidden="true"');
      expect(cspOffenders(html)).toEqual([]);
    });
  }

  it('is followed directly by the parser yield point, a script that does nothing and that the CSP allows (issue 34)', async () => {
    const html = await render(StatusBanner, { overall: overall('major_outage') });
    expect(html.trim().endsWith(`</div><script>${statusFirstScript.source}</script>`)).toBe(true);
    // Nothing to run: a comment only, so it cannot fail or hold the parser.
    expect(statusFirstScript.source).toMatch(/^\/\*[^*]*\*\/$/);
    expect(siteScriptHashes).toContain(statusFirstScript.hash);
    expect(contentSecurityPolicy({ scripts: siteScriptHashes, styles: [] })).toContain(statusFirstScript.hash);
  });

  it('gives every level a different shape', () => {
    expect(new Set(Object.values(SHAPES)).size).toBe(5);
  });
});
