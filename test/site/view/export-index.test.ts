import { describe, expect, it } from 'vitest';
import { exportIndex, exportIndexSchema } from '../../../src/site/view/export-index.ts';
import { page, snapshot } from './fixtures.ts';

describe('exportIndex', () => {
  it('lists the public pages only, with their domain and linked monitors, and the data version', () => {
    const data = snapshot();
    const index = exportIndex(data, { stale: false, apiRequests: 12 });
    expect(exportIndexSchema.parse(index)).toEqual(index);
    expect(index.pages.map((entry) => entry.slug)).toEqual(['acme']);
    expect(index.pages[0]).toEqual({ slug: 'acme', customDomain: 'status.acme.test', monitorIds: data.pages[0]!.monitors.map((link) => link.monitorId) });
    expect(index).toMatchObject({ dataVersion: String(data.fetchedAt.getTime()), stale: false, apiRequests: 12 });
  });

  it('gives a domain two public pages claim to the one the site routes it to', () => {
    const first = page({ id: 'p1', slug: 'first', customDomain: 'STATUS.shared.test' });
    const second = page({ id: 'p2', slug: 'second', customDomain: 'status.shared.test' });
    const index = exportIndex(snapshot({ pages: [first, second] }), { stale: true, apiRequests: 0 });
    expect(index.pages.map((entry) => [entry.slug, entry.customDomain])).toEqual([
      ['first', 'status.shared.test'],
      ['second', null],
    ]);
  });
});
