import { describe, expect, it } from 'vitest';
import StatusBanner from '../../../src/site/components/StatusBanner.astro';
import { OVERALL_LABELS, overall } from './fixtures.ts';
import { cspOffenders, render } from './render.ts';
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

  it('gives every level a different shape', () => {
    expect(new Set(Object.values(SHAPES)).size).toBe(5);
  });
});
